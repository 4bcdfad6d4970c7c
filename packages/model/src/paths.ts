import type { KindDefinition } from "./kind.ts";

/** Collection path under /api: `/context-brokers`, or `/workspace/{workspaceId}/types`. */
export function apiPath(kind: KindDefinition, workspaceId?: string): string {
  return kind.scope === "workspace" ? `/workspace/${workspaceId}/${kind.kind}` : `/${kind.kind}`;
}

export function itemPath(kind: KindDefinition, id: string, workspaceId?: string): string {
  return `${apiPath(kind, workspaceId)}/${id}`;
}

export function newId(kind: KindDefinition): string {
  return `urn:ngsi-ld:${kind.urnType}:${crypto.randomUUID()}`;
}
