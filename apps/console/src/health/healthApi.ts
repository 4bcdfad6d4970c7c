import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { call, get } from "../api.ts";
import { HEALTH_PAGE, healthPageQuery } from "./healthPages.ts";

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

interface HealthList {
  /** How often the API checks each component in the background (0: only on demand). */
  intervalSeconds: number;
  timeoutSeconds: number;
  components: ComponentHealth[];
}

/** A page of the components, down first, and how many there are in all (GET /health/components?limit=…). */
export interface HealthPage extends HealthList {
  total: number;
}

/** How many components of a kind are in each state. */
export type KindCounts = { kind: string } & Record<HealthState, number>;

/** What the Status page shows first (GET /health/summary): the counts per kind and state. */
export interface HealthSummary {
  intervalSeconds: number;
  timeoutSeconds: number;
  total: number;
  down: number;
  kinds: KindCounts[];
}

const componentPath = (kind: string, id: string) => `/health/${kind}/${encodeURIComponent(id)}`;

// The reasons are written in the reader's language: the language is part of each key.
export const healthKeys = {
  all: ["health"] as const,
  pages: (language: string) => ["health", "pages", language] as const,
  summary: ["health", "summary"] as const,
  one: (kind: string, id: string, language: string) => ["health", kind, id, language] as const,
};

/**
 * The Status page's rows: the components a page at a time, down first (a platform of 10,000 sent
 * whole was 2.2 MB for a screen that shows a hundred), read again like the whole list was.
 */
export function useHealthPages() {
  const { i18n } = useTranslation();
  return useInfiniteQuery({
    queryKey: healthKeys.pages(i18n.language),
    queryFn: ({ pageParam }) =>
      get<HealthPage>(`/health/components?${new URLSearchParams(healthPageQuery(pageParam))}`),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, p) => sum + p.components.length, 0);
      return last.components.length > 0 && loaded < last.total ? loaded : undefined;
    },
    refetchInterval: (query) => refreshMs(query.state.data?.pages[0]?.intervalSeconds),
  });
}

/** How many components of each kind are in each state, read again as the rows are. */
export function useHealthSummary() {
  return useQuery({
    queryKey: healthKeys.summary,
    queryFn: () => get<HealthSummary>("/health/summary"),
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

/**
 * "Check all now" on the Status page: its answer is a first page only (the whole list of 10,000
 * is not read for nothing); the summary, the pages and every component's own result are read again.
 */
export function useCheckAll() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await call<HealthPage>(`/health/components?limit=${HEALTH_PAGE}`, { method: "POST" })).data,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: healthKeys.all });
    },
  });
}
