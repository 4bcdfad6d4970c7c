import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { apiPath, itemPath, type KindDefinition } from "@orrery/model";
import { call, get } from "../api.ts";
import { placementOf } from "../routes.ts";
import { closeWorkspace } from "../workspaces/openWorkspaces.ts";
import { checkedKinds, healthKeys } from "../health/healthApi.ts";

export interface Item {
  id: string;
  name: string;
  [field: string]: unknown;
}

/** Records of a workspace-scoped kind are cached per workspace; platform kinds under "". */
export const recordKeys = {
  kind: (kind: string) => ["records", kind] as const,
  list: (kind: string, workspaceId = "") => ["records", kind, workspaceId] as const,
  item: (kind: string, id: string, workspaceId = "") => ["records", kind, workspaceId, id] as const,
};

/** The workspace a workspace-scoped kind lives in: the route's `workspaceId` unless given. */
export function useScope(kind: KindDefinition, workspaceId?: string): string | undefined {
  const params = useParams();
  return kind.scope === "workspace" ? (workspaceId ?? params.workspaceId) : undefined;
}

export const itemQuery = (kind: KindDefinition, id: string, workspaceId?: string) => ({
  queryKey: recordKeys.item(kind.kind, id, workspaceId),
  queryFn: () => call<Item>(itemPath(kind, id, workspaceId)),
});

/** A kind's list, or only its records with these field values (the API narrows it: `?field=value`). */
export const listQuery = (
  kind: KindDefinition,
  workspaceId?: string,
  where?: Readonly<Record<string, string>>,
) => ({
  queryKey: where
    ? [...recordKeys.list(kind.kind, workspaceId), where]
    : recordKeys.list(kind.kind, workspaceId),
  queryFn: () =>
    get<Item[]>(
      where ? `${apiPath(kind, workspaceId)}?${new URLSearchParams(where)}` : apiPath(kind, workspaceId),
    ),
});

/** What the data-model chart reads of the properties: its arrows (startup.ts asks for the same address). */
export const chartProperties = { ngsiLdType: "Relationship" } as const;

export function useList(
  kind: KindDefinition,
  enabled = true,
  workspaceId?: string,
  where?: Readonly<Record<string, string>>,
) {
  const scope = useScope(kind, workspaceId);
  return useQuery({
    ...listQuery(kind, scope, where),
    enabled: enabled && (kind.scope !== "workspace" || !!scope),
  });
}

export function useItem(kind: KindDefinition, id: string | undefined, enabled = true, workspaceId?: string) {
  const scope = useScope(kind, workspaceId);
  return useQuery({ ...itemQuery(kind, id ?? "", scope), enabled: enabled && !!id });
}

/**
 * A change to a type or property makes the workspace's data model outdated on the server: refetch
 * the workspace so that dataModelUpToDate shows it (spec section 4).
 */
async function afterChange(
  client: ReturnType<typeof useQueryClient>,
  kind: KindDefinition,
  deleted?: readonly unknown[],
) {
  const gone = (key: readonly unknown[]) =>
    !!deleted && key.length === deleted.length && key.every((k, i) => k === deleted[i]);
  await client.invalidateQueries({
    queryKey: recordKeys.kind(kind.kind),
    predicate: (q) => !gone(q.queryKey),
  });
  if (kind.scope === "workspace") await client.invalidateQueries({ queryKey: recordKeys.kind("workspaces") });
  // A component's last connection check was of what it was before (another address): read it again.
  if (checkedKinds.includes(kind.kind)) await client.invalidateQueries({ queryKey: healthKeys.all });
  // A record listed in its parent's page (a contract detail in its contract's) refreshes the parent too.
  const parent = placementOf(kind).parent;
  if (parent && parent !== "workspaces")
    await client.invalidateQueries({ queryKey: recordKeys.kind(parent) });
}

/** Create (no id) or update (with the ETag read, so a concurrent change answers 412 instead of being lost). */
export function useSave(kind: KindDefinition) {
  const client = useQueryClient();
  const scope = useScope(kind);
  return useMutation({
    mutationFn: ({ id, etag, body }: { id?: string; etag?: string | null; body: unknown }) =>
      call<Item>(id ? itemPath(kind, id, scope) : apiPath(kind, scope), {
        method: id ? "PUT" : "POST",
        body,
        headers: id && etag ? { "if-match": etag } : {},
      }),
    onSuccess: async ({ data }) => {
      client.setQueryData(recordKeys.item(kind.kind, data.id, scope), undefined);
      await afterChange(client, kind);
    },
  });
}

export function useDelete(kind: KindDefinition) {
  const client = useQueryClient();
  const scope = useScope(kind);
  return useMutation({
    mutationFn: (id: string) => call<unknown>(itemPath(kind, id, scope), { method: "DELETE" }),
    onSuccess: async (_r, id) => {
      // A deleted workspace leaves the bar of open workspaces too.
      if (kind.kind === "workspaces") closeWorkspace(id);
      // Everything of the kind is read again but the deleted record, whose page is being left
      // and would only answer 404; its cached copy goes with its page.
      await afterChange(client, kind, recordKeys.item(kind.kind, id, scope));
    },
  });
}
