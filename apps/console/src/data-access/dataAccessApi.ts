import { useQuery } from "@tanstack/react-query";
import { csvExportOptions } from "@orrery/model";
import { get } from "../api.ts";
import { logQuery } from "../app/LogToolbar.tsx";

/** One decision of the embedded broker's policy enforcement point, as GET /api/data-access gives it. */
export interface Decision {
  id: string;
  at: string;
  lastAt: string;
  /** Identical decisions of one second are one row. */
  count: number;
  holder: string;
  holderKind: string;
  party: string;
  clientId: string;
  roles: string[] | null;
  method: string;
  tenant: string;
  entityType: string;
  entityId: string;
  path: string;
  permit: boolean;
  reason: string;
  detail: string;
}

export interface DecisionPage {
  items: Decision[];
  next: string | null;
  onEmbeddedBroker?: boolean;
}

/** The filters of the log, as its form holds them (empty: not filtered). */
export interface DecisionFilters {
  holder?: string;
  tenant?: string;
  permit?: string;
  reason?: string;
  method?: string;
  from?: string;
  to?: string;
}

/** Where a log is read: the platform's (`/data-access`) or a workspace's (`/workspace/{id}/data-access`). */
export const decisionsPath = (workspaceId?: string) =>
  workspaceId ? `/workspace/${workspaceId}/data-access` : "/data-access";

const fetchPage = (path: string, filters: DecisionFilters, cursor?: string, limit?: number) =>
  get<DecisionPage>(`${path}?${logQuery(filters, cursor, limit)}`);

export function useDecisionPage(path: string, filters: DecisionFilters, cursor?: string) {
  return useQuery({
    queryKey: ["data-access", path, filters, cursor ?? ""],
    queryFn: () => fetchPage(path, filters, cursor),
  });
}

/** Every decision the filters select, page after page (for an export), up to `max`. */
export async function fetchAllDecisions(path: string, filters: DecisionFilters, max = 100_000) {
  const decisions: Decision[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(path, filters, cursor, 500);
    decisions.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor && decisions.length < max);
  return decisions;
}

const columns = [
  "id",
  "at",
  "lastAt",
  "count",
  "holder",
  "holderKind",
  "party",
  "clientId",
  "roles",
  "method",
  "tenant",
  "entityType",
  "entityId",
  "path",
  "permit",
  "reason",
  "detail",
] as const;

/**
 * The decisions as CSV, one row each. Holders, paths and ids are chosen by callers: a cell that a
 * spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is written as text.
 */
export async function decisionsCsv(decisions: Decision[]): Promise<string> {
  const { default: Papa } = await import("papaparse");
  return Papa.unparse(
    decisions.map((d) => ({ ...d, roles: d.roles?.join(" ") ?? "" })),
    { columns: [...columns], ...csvExportOptions },
  );
}
