import { platformKinds, type KindDefinition } from "@orrery/model";

/**
 * Route names of the spec (`contextBrokers.show`, ...) and their readable paths, history mode at the
 * root. Every platform kind gets index, create, show and edit from its definition.
 */
const fixed = {
  authentication: "/authentication",
  "callbacks.authentication": "/callbacks/authentication",
  "workspaces.index": "/workspaces",
  workspace: "/workspace/:workspaceId",
  "tools.authorizationRegistries.home": "/tools/authorization-registries",
} as const;

const kindRoutes = Object.fromEntries(
  platformKinds.flatMap((k) => [
    [`${k.routeName}.index`, `/${k.kind}`],
    [`${k.routeName}.create`, `/${k.kind}/create`],
    [`${k.routeName}.show`, `/${k.kind}/:id`],
    [`${k.routeName}.edit`, `/${k.kind}/:id/edit`],
  ]),
) as Record<string, string>;

export const routePaths: Record<string, string> = { ...fixed, ...kindRoutes };

/** The path of a named route: `routeTo("contextBrokers.show", { id })`. */
export function routeTo(name: string, params: Record<string, string> = {}): string {
  const pattern = routePaths[name];
  if (!pattern) throw new Error(`unknown route ${name}`);
  return pattern.replace(/:(\w+)/g, (_m, key: string) => encodeURIComponent(params[key] ?? ""));
}

export const kindRoute = (kind: KindDefinition, action: "index" | "create" | "show" | "edit", id?: string) =>
  routeTo(`${kind.routeName}.${action}`, id ? { id } : {});
