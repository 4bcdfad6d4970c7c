import { useQuery } from "@tanstack/react-query";
import { isAllowed, isShowroom, type KindDefinition, type Permission } from "@orrery/model";
import { get } from "./api.ts";
import { useSession } from "./session.ts";

export function usePermissions() {
  const session = useSession();
  return useQuery({
    queryKey: ["permissions", session?.token],
    queryFn: () => get<Permission[]>("/authorization/permissions"),
    enabled: session !== null,
    staleTime: Infinity,
  });
}

/** The spec's capability checks, with the same matcher the API enforces. */
export function useCan() {
  const permissions = usePermissions().data ?? [];
  const can = (method: string, apiPath: string) => isAllowed(permissions, method, `/api${apiPath}`);
  return {
    can,
    index: (kind: KindDefinition) => can("GET", `/${kind.kind}`),
    store: (kind: KindDefinition) => can("POST", `/${kind.kind}`),
    show: (kind: KindDefinition, id: string) => can("GET", `/${kind.kind}/${id}`),
    update: (kind: KindDefinition, id: string) => can("PUT", `/${kind.kind}/${id}`),
    destroy: (kind: KindDefinition, id: string) => can("DELETE", `/${kind.kind}/${id}`),
    showroom: isShowroom(permissions),
    registryTool:
      can("POST", "/proxies/authorization-registry/create-policy") ||
      can("POST", "/proxies/authorization-registry/request-delegation"),
  };
}

export function useConsoleConfig() {
  return useQuery({
    queryKey: ["console-config"],
    queryFn: () => get<{ trustModule: boolean; authProvider: string }>("/console-config"),
    staleTime: Infinity,
  });
}
