import { useQuery } from "@tanstack/react-query";
import { csvExportOptions, itemPath, kindsByName } from "@orrery/model";
import { get } from "../api.ts";
import { logQuery } from "../app/LogToolbar.tsx";
import { kindRoute, placementOf, routeTo } from "../routes.ts";

/** A field an update changed; a secret only says it changed. */
export interface AuditChange {
  field: string;
  before?: unknown;
  after?: unknown;
  secret?: true;
}

/** One event of the audit trail, as GET /api/audit gives it. */
export interface AuditEvent {
  id: string;
  at: string;
  subject: string;
  username: string;
  provider: string;
  action: string;
  kind: string;
  recordId: string;
  title: string;
  workspaceId: string;
  outcome: string;
  changes: AuditChange[] | null;
  detail: Record<string, unknown> | null;
}

export interface AuditPage {
  items: AuditEvent[];
  next: string | null;
}

/** The filters of GET /api/audit, as the Activity page's form holds them (empty: not filtered). */
export interface AuditFilters {
  user?: string;
  kind?: string;
  record?: string;
  workspace?: string;
  action?: string;
  from?: string;
  to?: string;
}

export const fetchAuditPage = (filters: AuditFilters, cursor?: string, limit?: number) =>
  get<AuditPage>(`/audit?${logQuery(filters, cursor, limit)}`);

export function useAuditPage(filters: AuditFilters, cursor?: string, enabled = true) {
  return useQuery({
    queryKey: ["audit", filters, cursor ?? ""],
    queryFn: () => fetchAuditPage(filters, cursor),
    enabled,
  });
}

/** Every event the filters select, page after page (for an export), up to `max`. */
export async function fetchAllAudit(filters: AuditFilters, max = 100_000): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchAuditPage(filters, cursor, 500);
    events.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor && events.length < max);
  return events;
}

const cell = (value: unknown) => (value === undefined ? "" : JSON.stringify(value));

/**
 * The events as CSV, one row per event, the changes as JSON (papaparse quotes what needs it). Titles,
 * ids and paths are chosen by users: a cell a spreadsheet would run as a formula is written as text.
 */
export async function auditCsv(events: AuditEvent[]): Promise<string> {
  const { default: Papa } = await import("papaparse");
  return Papa.unparse(
    events.map((e) => ({
      id: e.id,
      at: e.at,
      username: e.username,
      subject: e.subject,
      provider: e.provider,
      action: e.action,
      outcome: e.outcome,
      kind: e.kind,
      recordId: e.recordId,
      title: e.title,
      workspaceId: e.workspaceId,
      changes: e.changes ? cell(e.changes) : "",
      detail: e.detail ? cell(e.detail) : "",
    })),
    {
      columns: [
        "id",
        "at",
        "username",
        "subject",
        "provider",
        "action",
        "outcome",
        "kind",
        "recordId",
        "title",
        "workspaceId",
        "changes",
        "detail",
      ],
      ...csvExportOptions,
    },
  );
}

/**
 * The console page of an audited record: its show page, with the ids of the parents its route
 * names, read from the record and its parents (a property's type). Undefined when it is gone or
 * has no page (an entity, a user of the identity manager).
 */
export async function recordPage(event: Pick<AuditEvent, "kind" | "recordId" | "workspaceId">) {
  const kind = kindsByName.get(event.kind);
  if (!kind || !event.recordId) return undefined;
  const workspaceId = event.workspaceId || undefined;
  const params: Record<string, string | undefined> = { workspaceId };
  let current = kind;
  let id = event.recordId;
  // Up the placement's parents: each record names its parent in the field its route takes from.
  for (let depth = 0; depth < 6; depth++) {
    const record = await get<Record<string, unknown>>(
      itemPath(current, id, current.scope === "workspace" ? workspaceId : undefined),
    );
    const place = placementOf(current);
    for (const [field, param] of Object.entries(place.fromRoute ?? {}))
      if (typeof record[field] === "string") params[param] ??= record[field] as string;
    if (!place.parent || place.parent === "workspaces") break;
    const parent = kindsByName.get(place.parent)!;
    const parentId = params[placementOf(parent).param];
    if (!parentId) break;
    current = parent;
    id = parentId;
  }
  const place = placementOf(kind);
  return place.view
    ? routeTo(place.view, { ...params, [place.param]: event.recordId })
    : kindRoute(kind, "show", event.recordId, params);
}
