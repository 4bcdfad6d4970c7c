import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { properties, types } from "@orrery/model";
import { ApiError, call, get } from "../api.ts";
import { getSession } from "../session.ts";
import { takeEarly } from "../startup.ts";
import { gatewayHeaders } from "../trust/gatewayTokens.ts";
import { useList } from "../resources/queries.ts";
import type { Attribute, Entity, PropertyRecord, TypeRecord } from "./entityModel.ts";

/** Paths of the workspace's context data under /api. */
export const paths = {
  entities: (ws: string) => `/workspace/${ws}/entities`,
  entity: (ws: string, id: string) => `/workspace/${ws}/entities/${encodeURIComponent(id)}`,
  attrs: (ws: string, id: string) => `/workspace/${ws}/entities/${encodeURIComponent(id)}/attrs`,
  attr: (ws: string, id: string, name: string) =>
    `/workspace/${ws}/entities/${encodeURIComponent(id)}/attrs/${encodeURIComponent(name)}`,
  subscriptions: (ws: string) => `/workspace/${ws}/subscriptions`,
  subscription: (ws: string, id: string) => `/workspace/${ws}/subscriptions/${encodeURIComponent(id)}`,
};

/** Everything cached about a workspace's entities lives under this key: one invalidation refreshes it all. */
export const entityKeys = {
  all: (ws: string) => ["context-data", ws, "entities"] as const,
  list: (ws: string, query: Record<string, string>) =>
    ["context-data", ws, "entities", "list", query] as const,
  item: (ws: string, id: string) => ["context-data", ws, "entities", "item", id] as const,
  subscriptions: (ws: string) => ["context-data", ws, "subscriptions"] as const,
};

/**
 * The data model of the workspace, typed: its types and properties (cached by the workspace view).
 * Without `withProperties`, the types alone: a model's properties run to megabytes, and the list of
 * a type's entities needs none of them (bench/entities-console, bench/data-model).
 */
export function useDataModel(withProperties = true) {
  const typeList = useList(types);
  const propertyList = useList(properties, withProperties);
  return {
    types: (typeList.data ?? []) as unknown as TypeRecord[],
    properties: (propertyList.data ?? []) as unknown as PropertyRecord[],
    isPending: typeList.isPending || (withProperties && propertyList.isPending),
    error: typeList.error ?? propertyList.error,
  };
}

export interface EntityPage {
  entities: Entity[];
  /** X-Total-Count when the query counted (not with a search). */
  total?: number;
  /** X-Order of a list asked in name order: "broker" when the type had too many entities to sort. */
  order?: string;
}

/** One query of entities: the page the server returns, never more. */
export async function fetchEntities(ws: string, query: Record<string, string>): Promise<EntityPage> {
  const url = `/api${paths.entities(ws)}?${new URLSearchParams(query)}`;
  const response = await (takeEarly(url) ??
    fetch(url, { headers: { accept: "application/json", ...authorization(url) } }));
  if (!response.ok) throw await apiError(response);
  const total = response.headers.get("x-total-count");
  return {
    entities: (await response.json()) as Entity[],
    total: total === null ? undefined : Number(total),
    order: response.headers.get("x-order") ?? undefined,
  };
}

/**
 * The bearer header of the session, the console's language (the API writes its messages in it) and
 * a workspace's SIOP-2 token, for the calls call() cannot make (headers read, CSV, streams, files).
 */
export function authorization(url: string): Record<string, string> {
  const session = getSession();
  return {
    "accept-language": document.documentElement.lang || "en",
    ...(session ? { authorization: `${session.tokenType} ${session.token}` } : {}),
    ...gatewayHeaders(url),
  };
}

/** The ApiError of a failed raw fetch, built as call() builds it. */
export async function apiError(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: ApiError["body"];
  try {
    body = text ? (JSON.parse(text) as ApiError["body"]) : {};
  } catch {
    body = { title: text.slice(0, 200) };
  }
  return new ApiError(response.status, body);
}

export function useEntities(ws: string, query: Record<string, string>, enabled = true) {
  return useQuery({
    queryKey: entityKeys.list(ws, query),
    queryFn: () => fetchEntities(ws, query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useEntity(ws: string, id: string | undefined) {
  return useQuery({
    queryKey: entityKeys.item(ws, id ?? ""),
    queryFn: () => get<Entity>(paths.entity(ws, id ?? "")),
    enabled: !!id,
  });
}

/**
 * A change to entities: every cached list and entity of the workspace is refetched, except a
 * deleted entity (`deleted`), whose page is being left and would only answer 404.
 */
export function useEntityMutation<V>(
  ws: string,
  fn: (variables: V) => Promise<Entity | undefined>,
  deleted?: string,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await client.invalidateQueries({
        queryKey: entityKeys.all(ws),
        predicate: (query) => !deleted || query.queryKey[4] !== deleted,
      });
    },
  });
}

export const entityCalls = {
  create: async (ws: string, body: Record<string, unknown>) =>
    (await call<Entity>(paths.entities(ws), { method: "POST", body })).data,
  remove: async (ws: string, id: string) => {
    await call(paths.entity(ws, id), { method: "DELETE" });
    return undefined;
  },
  addAttribute: async (ws: string, id: string, name: string, attribute: Attribute) =>
    (await call<Entity>(paths.attrs(ws, id), { method: "POST", body: { [name]: attribute } })).data,
  replaceAttribute: async (ws: string, id: string, name: string, attribute: Attribute) =>
    (await call<Entity>(paths.attr(ws, id, name), { method: "PUT", body: attribute })).data,
  /** Every value of the attribute; or one: by its datasetId, or null for the value without one. */
  removeAttribute: async (ws: string, id: string, name: string, datasetId?: string | null) => {
    const query: Record<string, string> | undefined =
      datasetId === undefined ? undefined : datasetId === null ? { deleteAll: "false" } : { datasetId };
    await call(paths.attr(ws, id, name), { method: "DELETE", query });
    return undefined;
  },
};

/** The console's runtime settings: one query, defined in permissions.ts. */
export { useConsoleConfig as useConsoleSettings, type ConsoleSettings } from "../permissions.ts";
