import { routeTo } from "../routes.ts";

/** The workspace view on one entity (`?typeId&entityId`), or on a type's list without an entity. */
export function entityHref(workspaceId: string, typeId: string | undefined, entityId?: string, tab?: string) {
  const query = new URLSearchParams();
  if (typeId) query.set("typeId", typeId);
  if (entityId) query.set("entityId", entityId);
  if (tab) query.set("activeTab", tab);
  const search = query.toString();
  return `${routeTo("workspace", { workspaceId })}${search ? `?${search}` : ""}`;
}

/** A named route with a query: `withQuery(routeTo(...), { typeId })`; empty values are left out. */
export function withQuery(path: string, query: Record<string, string | undefined | null>) {
  const search = new URLSearchParams(
    Object.entries(query).filter((e): e is [string, string] => !!e[1]),
  ).toString();
  return search ? `${path}?${search}` : path;
}
