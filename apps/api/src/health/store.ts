import { inArray, sql } from "drizzle-orm";
import type { Message } from "../messages/say.ts";
import type { Row } from "../resources/records.ts";
import { rowsOf, type Database } from "../storage/database.ts";
import { records } from "../storage/schema.ts";
import type { CheckResult, HealthState } from "./check.ts";

/** A component's last check as stored (migration 0015_component_health). */
export interface StoredHealth {
  id: string;
  kind: string;
  state: HealthState | "unchecked";
  reasons: Message[];
  roundTripMs: number | null;
  version: string | null;
  checkedAt: string | null;
}

interface HealthRow {
  id: string;
  kind: string;
  state: StoredHealth["state"];
  reasons: Message[] | string;
  round_trip_ms: number | null;
  version: string | null;
  checked_at: string | Date | null;
  /** The component was edited since (its address, its credentials): the result is another's. */
  outdated?: boolean | null;
}

const stored = (r: HealthRow): StoredHealth =>
  r.outdated
    ? {
        id: r.id,
        kind: r.kind,
        state: "unchecked",
        reasons: [],
        roundTripMs: null,
        version: null,
        checkedAt: null,
      }
    : {
        id: r.id,
        kind: r.kind,
        state: r.state,
        // node-postgres parses jsonb, PGlite too; a driver that hands text is read the same.
        reasons: typeof r.reasons === "string" ? (JSON.parse(r.reasons) as Message[]) : r.reasons,
        roundTripMs: r.round_trip_ms,
        version: r.version,
        checkedAt: r.checked_at === null ? null : new Date(r.checked_at).toISOString(),
      };

/**
 * Keeps a check's result with the time it started (`startedAt`, from this process's clock like a
 * record's updated_at): an edit of the component made while it ran makes it outdated too.
 */
export async function saveHealth(
  db: Database,
  id: string,
  kind: string,
  result: CheckResult,
  startedAt: Date = new Date(),
): Promise<StoredHealth> {
  const rows = await db.execute(sql`
    INSERT INTO component_health (id, kind, state, reasons, round_trip_ms, version, checked_at, claimed_at)
    VALUES (${id}, ${kind}, ${result.state}, ${JSON.stringify(result.reasons)}::jsonb,
            ${result.roundTripMs ?? null}, ${result.version ?? null}, ${startedAt.toISOString()}::timestamptz, now())
    ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, state = EXCLUDED.state, reasons = EXCLUDED.reasons,
      round_trip_ms = EXCLUDED.round_trip_ms, version = EXCLUDED.version,
      checked_at = EXCLUDED.checked_at, claimed_at = EXCLUDED.claimed_at
    RETURNING id, kind, state, reasons, round_trip_ms, version, checked_at`);
  return stored(rowsOf<HealthRow>(rows)[0]!);
}

/** A check's result to keep, with the time the check started. */
export interface Checked {
  id: string;
  kind: string;
  result: CheckResult;
  startedAt: Date;
}

/**
 * Keeps the results of several checks in one statement (the background's, issue 38): a platform of
 * 10,000 components checked one by one made a write, and on PGlite a commit, per check, each
 * taking the one connection from the users' requests.
 */
export async function saveHealthMany(db: Database, results: readonly Checked[]): Promise<void> {
  // One row per component: a statement's ON CONFLICT may not update a row twice.
  const latest = [...new Map(results.map((r) => [r.id, r])).values()];
  if (!latest.length) return;
  const values = latest.map(
    ({ id, kind, result, startedAt }) =>
      sql`(${id}, ${kind}, ${result.state}, ${JSON.stringify(result.reasons)}::jsonb, ${result.roundTripMs ?? null}::int,
        ${result.version ?? null}::text, ${startedAt.toISOString()}::timestamptz, now())`,
  );
  await db.execute(sql`
    INSERT INTO component_health (id, kind, state, reasons, round_trip_ms, version, checked_at, claimed_at)
    VALUES ${sql.join(values, sql`, `)}
    ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, state = EXCLUDED.state, reasons = EXCLUDED.reasons,
      round_trip_ms = EXCLUDED.round_trip_ms, version = EXCLUDED.version,
      checked_at = EXCLUDED.checked_at, claimed_at = EXCLUDED.claimed_at`);
}

/** The registered records of these ids, by id: the components a batch of background checks is about. */
export async function componentRows(db: Database, ids: readonly string[]): Promise<Map<string, Row>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select()
    .from(records)
    .where(inArray(records.id, [...ids]));
  return new Map(rows.filter((r) => r.workspaceId === "").map((r) => [r.id, r]));
}

/**
 * Takes the background checks that are due for this process: every registered component of these
 * kinds that nobody (this process or another on the same database) checked or claimed in the last
 * `seconds`. One statement, so two processes asking together never take the same component.
 */
export async function claimDue(
  db: Database,
  kinds: readonly string[],
  seconds: number,
): Promise<Array<{ id: string; kind: string }>> {
  if (!kinds.length) return [];
  const rows = await db.execute(sql`
    INSERT INTO component_health (id, kind, claimed_at)
      SELECT r.id, r.kind, now() FROM records r
      WHERE r.workspace_id = '' AND r.kind IN (${sql.join(
        kinds.map((k) => sql`${k}`),
        sql`, `,
      )})
    ON CONFLICT (id) DO UPDATE SET claimed_at = now()
      WHERE component_health.claimed_at <= now() - make_interval(secs => ${seconds})
    RETURNING id, kind`);
  return rowsOf<{ id: string; kind: string }>(rows);
}

/**
 * Takes a grant's check now, unless its credentials were tried (by a check on demand or in the
 * background, in any process on this database) in the last `seconds` and neither the grant nor
 * its peer changed since: then the seconds to wait. One statement, so that twenty clicks at once
 * make one sign-in.
 */
export async function claimGrantCheck(
  db: Database,
  grant: { id: string; kind: string },
  peerId: string,
  seconds: number,
): Promise<number> {
  const claimed = await db.execute(sql`
    INSERT INTO component_health (id, kind, claimed_at) VALUES (${grant.id}, ${grant.kind}, now())
    ON CONFLICT (id) DO UPDATE SET claimed_at = now()
      WHERE component_health.claimed_at <= now() - make_interval(secs => ${seconds})
         OR component_health.claimed_at < (
           SELECT max(r.updated_at) FROM records r WHERE r.id IN (${grant.id}, ${peerId}))
    RETURNING id`);
  if (rowsOf(claimed).length) return 0;
  const waits = await db.execute(sql`
    SELECT ceil(extract(epoch FROM claimed_at + make_interval(secs => ${seconds}) - now()))::int AS wait
    FROM component_health WHERE id = ${grant.id}`);
  return Math.max(1, rowsOf<{ wait: number }>(waits)[0]?.wait ?? seconds);
}

/**
 * Every stored result, by component id. A result taken before the component's last edit (a new
 * address, other credentials) says nothing of it any more: it reads as unchecked until the next check.
 */
export async function healthById(db: Database, ids?: readonly string[]): Promise<Map<string, StoredHealth>> {
  if (ids && !ids.length) return new Map();
  const rows = await db.execute(sql`
    SELECT h.*, r.updated_at > h.checked_at AS outdated
    FROM component_health h LEFT JOIN records r ON r.id = h.id
    ${
      ids
        ? sql`WHERE h.id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql``
    }`);
  return new Map(rowsOf<HealthRow>(rows).map((r) => [r.id, stored(r)]));
}

/** Drops the results of components that are no longer registered. */
export async function forgetRemoved(db: Database): Promise<void> {
  await db.execute(
    sql`DELETE FROM component_health h WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.id = h.id)`,
  );
}

/** The state a component shows: a result older than its last edit, or none yet, is unchecked. */
const shownState = sql`CASE WHEN h.checked_at IS NULL OR r.updated_at > h.checked_at THEN 'unchecked' ELSE h.state END`;

/** The registered components of these kinds, with their last results. */
const componentsOf = (kinds: readonly string[]) => sql`
    FROM records r LEFT JOIN component_health h ON h.id = r.id
    WHERE r.workspace_id = '' AND r.kind IN (${sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    )})`;

/** A registered component and its last result, as a page of the Status page lists it. */
export interface ComponentRow {
  kind: string;
  id: string;
  name: string;
  health: StoredHealth;
}

/**
 * A page of the registered components of these kinds, in the order an operator reads them: down
 * first, then not checked yet, up, not applicable; by name within a state (the list index's
 * lower(name), then id, so that pages never overlap). The rows of a page only: a platform of
 * 10,000 components sent whole was 2.2 MB for a screen that shows a hundred.
 */
export async function healthPage(
  db: Database,
  kinds: readonly string[],
  page: { limit: number; offset: number },
): Promise<ComponentRow[]> {
  if (!kinds.length) return [];
  // The order is found over narrow rows (id, name, state), the page's details read after: sorting
  // 10,000 rows with their reasons took three times as long on PGlite.
  const rows = await db.execute(sql`
    WITH page AS (
      SELECT r.id, r.kind, r.name, ${shownState} AS state,
        CASE ${shownState} WHEN 'down' THEN 0 WHEN 'unchecked' THEN 1 WHEN 'up' THEN 2 ELSE 3 END AS rank
      ${componentsOf(kinds)}
      ORDER BY rank, lower(r.name), r.id
      LIMIT ${page.limit} OFFSET ${page.offset})
    SELECT p.id, p.kind, p.name, p.state, h.reasons, h.round_trip_ms, h.version, h.checked_at
    FROM page p LEFT JOIN component_health h ON h.id = p.id
    ORDER BY p.rank, lower(p.name), p.id`);
  return rowsOf<HealthRow & { name: string }>(rows).map((r) => ({
    kind: r.kind,
    id: r.id,
    name: r.name,
    health: stored({ ...r, reasons: r.reasons ?? [], outdated: r.state === "unchecked" }),
  }));
}

/** How many components of these kinds are registered (the list index alone: no result is read). */
export async function componentCount(db: Database, kinds: readonly string[]): Promise<number> {
  if (!kinds.length) return 0;
  const rows = await db.execute(sql`
    SELECT count(*)::int AS count FROM records
    WHERE workspace_id = '' AND kind IN (${sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    )})`);
  return rowsOf<{ count: number }>(rows)[0]?.count ?? 0;
}

/**
 * Keeps component_health small and its statistics true: every check rewrites its component's row,
 * and PGlite runs no autovacuum, so the dead rows piled up (23 MB for 10,000 components after a few
 * rounds) and the Status page's counts took 400 ms instead of about 100. Run after a round of
 * background checks; on PostgreSQL it only anticipates autovacuum.
 */
export async function tidyHealth(db: Database): Promise<void> {
  await db.execute(sql`VACUUM (ANALYZE) component_health`);
}

/**
 * How many registered components of these kinds are in each state, as the Status page shows them
 * (a result older than the component's last edit is unchecked): one statement, for GET /metrics.
 */
export async function healthCounts(
  db: Database,
  kinds: readonly string[],
): Promise<Array<{ kind: string; state: string; count: number }>> {
  if (!kinds.length) return [];
  const rows = await db.execute(sql`
    SELECT r.kind, ${shownState} AS state, count(*)::int AS count
    ${componentsOf(kinds)}
    GROUP BY 1, 2`);
  return rowsOf<{ kind: string; state: string; count: number }>(rows);
}
