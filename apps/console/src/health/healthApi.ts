import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { call, get } from "../api.ts";

/** The kinds whose records are components Orrery talks to: the API checks their connection. */
export const checkedKinds: readonly string[] = [
  "context-brokers",
  "temporal-services",
  "identity-managers",
  "identity-manager-grants",
  "authorization-registries",
  "authorization-registry-grants",
  "vc-verifiers",
  "trusted-issuers-lists",
  "policy-administration-points",
  "credentials-config-services",
];

export type HealthState = "up" | "down" | "unchecked" | "notApplicable";

/** A component's last connection check, its reasons written by the API in the console's language. */
export interface ComponentHealth {
  kind: string;
  id: string;
  name: string;
  state: HealthState;
  reasons: Array<{ code: string; message: string }>;
  roundTripMs: number | null;
  version: string | null;
  checkedAt: string | null;
}

export interface HealthList {
  /** How often the API checks each component in the background (0: only on demand). */
  intervalSeconds: number;
  timeoutSeconds: number;
  components: ComponentHealth[];
}

const componentPath = (kind: string, id: string) => `/health/${kind}/${encodeURIComponent(id)}`;

// The reasons are written in the reader's language: the language is part of each key.
export const healthKeys = {
  all: ["health"] as const,
  list: (language: string) => ["health", "components", language] as const,
  one: (kind: string, id: string, language: string) => ["health", kind, id, language] as const,
};

/**
 * Every registered component and its last result, read again while the page is open: a quarter of
 * the background interval (between 2 and 15 s), so that a component that goes down shows within
 * one interval.
 */
export function useHealthList() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: healthKeys.list(i18n.language),
    queryFn: () => get<HealthList>("/health/components"),
    refetchInterval: (query) => refreshMs(query.state.data?.intervalSeconds),
  });
}

/** How often the Status page reads the results again. */
export const refreshMs = (intervalSeconds = 0) =>
  Math.min(15_000, Math.max(2_000, (intervalSeconds || 60) * 250));

export function useComponentHealth(kind: string, id: string, enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: healthKeys.one(kind, id, i18n.language),
    queryFn: () => get<ComponentHealth>(componentPath(kind, id)),
    enabled,
  });
}

/** "Check connection": checks now, and shows the new result wherever it is shown. */
export function useCheckComponent(kind: string, id: string) {
  const client = useQueryClient();
  const { i18n } = useTranslation();
  return useMutation({
    mutationFn: async () => (await call<ComponentHealth>(componentPath(kind, id), { method: "POST" })).data,
    onSuccess: async (result) => {
      client.setQueryData(healthKeys.one(kind, id, i18n.language), result);
      // The Status page's list holds it too (and the other language's copy of this one).
      await client.invalidateQueries({
        queryKey: healthKeys.all,
        predicate: (q) =>
          q.queryKey.join("\u0000") !== healthKeys.one(kind, id, i18n.language).join("\u0000"),
      });
    },
  });
}

/** "Check all now" on the Status page. */
export function useCheckAll() {
  const client = useQueryClient();
  const { i18n } = useTranslation();
  return useMutation({
    mutationFn: async () => (await call<HealthList>("/health/components", { method: "POST" })).data,
    onSuccess: async (list) => {
      client.setQueryData(healthKeys.list(i18n.language), list);
      // Every component's own result (its show page) is new too.
      await client.invalidateQueries({
        queryKey: healthKeys.all,
        predicate: (q) => q.queryKey.join("\u0000") !== healthKeys.list(i18n.language).join("\u0000"),
      });
    },
  });
}
