import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import {
  apiPath,
  isAllowed,
  isShowroom,
  itemPath,
  type KindDefinition,
  type Permission,
} from "@orrery/model";
import { get } from "./api.ts";
import { useSession } from "./auth/useSession.ts";

export function usePermissions() {
  const session = useSession();
  return useQuery({
    queryKey: ["permissions", session?.token],
    queryFn: () => get<Permission[]>("/authorization/permissions"),
    enabled: session !== null,
    staleTime: Infinity,
  });
}

/**
 * The spec's capability checks, with the same matcher the API enforces, on the same paths: a
 * workspace-scoped kind is checked under /workspace/{workspaceId} (the route's, unless given).
 */
export function useCan() {
  const permissions = usePermissions().data ?? [];
  const { workspaceId: routeWorkspace } = useParams();
  const can = (method: string, apiPath: string) => isAllowed(permissions, method, `/api${apiPath}`);
  return {
    can,
    index: (kind: KindDefinition, ws = routeWorkspace) => can("GET", apiPath(kind, ws)),
    store: (kind: KindDefinition, ws = routeWorkspace) => can("POST", apiPath(kind, ws)),
    show: (kind: KindDefinition, id: string, ws = routeWorkspace) => can("GET", itemPath(kind, id, ws)),
    /** Whether a list shows the record: with show permission, or always for kinds listed whole. */
    listed: (kind: KindDefinition, id: string, ws = routeWorkspace) =>
      !!kind.listedWhole || can("GET", itemPath(kind, id, ws)),
    update: (kind: KindDefinition, id: string, ws = routeWorkspace) => can("PUT", itemPath(kind, id, ws)),
    destroy: (kind: KindDefinition, id: string, ws = routeWorkspace) => can("DELETE", itemPath(kind, id, ws)),
    showroom: isShowroom(permissions),
    registryTool:
      can("POST", "/proxies/authorization-registry/create-policy") ||
      can("POST", "/proxies/authorization-registry/request-delegation"),
  };
}

/** GET /api/console-config: the console's runtime settings (public, asked before sign-in too). */
export interface ConsoleSettings {
  trustModule: boolean;
  authProvider: string;
  googleSheets?: { serviceAccountEmail: string } | null;
  mapTileUrl?: string;
  /** Where the browser ends the identity manager's own session after signing out. */
  signOutUrl?: string | null;
}

export function useConsoleConfig() {
  return useQuery({
    queryKey: ["console-config"],
    queryFn: () => get<ConsoleSettings>("/console-config"),
    staleTime: Infinity,
  });
}
