import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, get } from "../api.ts";

/** A policy of the workspace's PAP as the API shows it: the ODRL parsed, the Rego the PAP generated. */
export interface OdrlPolicy {
  id: string;
  uid: string;
  odrl: Record<string, unknown>;
  rego: string;
}

// Workspace ids are server-made URNs, written as they are (as apiPath does, and as permissions match them).
const base = (workspaceId: string) => `/workspace/${workspaceId}/odrl-policies`;
const keys = {
  all: (workspaceId: string) => ["odrl-policies", workspaceId] as const,
  one: (workspaceId: string, id: string) => ["odrl-policies", workspaceId, id] as const,
};

export const policiesPath = base;

export const usePolicies = (workspaceId: string) =>
  useQuery({ queryKey: keys.all(workspaceId), queryFn: () => get<OdrlPolicy[]>(base(workspaceId)) });

export const usePolicy = (workspaceId: string, id: string | undefined) =>
  useQuery({
    queryKey: keys.one(workspaceId, id ?? ""),
    queryFn: () => get<OdrlPolicy>(`${base(workspaceId)}/${encodeURIComponent(id!)}`),
    enabled: !!id,
  });

/** Create (no id) or replace (with id) a policy in the PAP; the answer is the policy read back. */
export function useSavePolicy(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, odrl }: { id?: string; odrl: unknown }) =>
      (
        await call<OdrlPolicy>(id ? `${base(workspaceId)}/${encodeURIComponent(id)}` : base(workspaceId), {
          method: id ? "PUT" : "POST",
          body: { odrl },
        })
      ).data,
    onSuccess: (saved) => {
      client.setQueryData(keys.one(workspaceId, saved.id), saved);
      return client.invalidateQueries({ queryKey: keys.all(workspaceId), exact: true });
    },
  });
}

export function useDeletePolicy(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(`${base(workspaceId)}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_r, id) => {
      client.removeQueries({ queryKey: keys.one(workspaceId, id) });
      return client.invalidateQueries({ queryKey: keys.all(workspaceId), exact: true });
    },
  });
}

/** The PAP's answer to a test request: allowed or not, and why not. */
export interface Verdict {
  allow: boolean;
  explanation?: unknown[];
}

export interface TestRequest {
  method: string;
  path: string;
  credentialType?: string;
  roles?: string[];
}

export function useValidatePolicy(workspaceId: string) {
  return useMutation({
    meta: { background: true },
    mutationFn: async (body: { odrl: unknown; request: TestRequest }) =>
      (await call<Verdict>(`${base(workspaceId)}/validate`, { method: "POST", body })).data,
  });
}
