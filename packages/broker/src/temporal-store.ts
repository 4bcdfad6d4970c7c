import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { Instance } from "./model.ts";
import { toPgArray, type BrokerDatabase } from "./storage.ts";
import { rowsOf } from "./subscription-store.ts";

/**
 * The temporal history's tables (see migrations.ts, broker_0010): broker_temporal_entities lists
 * the entities that have a history, broker_history_writes holds ONE row per entity write (per
 * CHUNK instances of it), with the instances it wrote as a jsonb array of [expanded attribute, instance, instanceId] (and, for the
 * few instances whose times are not those the instance itself gives, a fourth member with them,
 * see `at`), and the span of observation times it covers, which the time windows prune on. A batch
 * of a thousand entities writes a thousand rows, not one per attribute instance; reads unnest the
 * rows of the chosen entities and answer exactly as one row per instance did.
 */
/** An entity of the history with the instances a write gave it, as [expanded attribute, instance]. */
export interface HistoryEntity {
  id: string;
  types: string[];
  written: Array<[string, Instance]>;
}

export type TimeProperty = "observedAt" | "createdAt" | "modifiedAt";

export interface TimeQuery {
  timerel?: "before" | "after" | "between";
  timeAt?: string;
  endTimeAt?: string;
  timeproperty: TimeProperty;
}

export interface InstanceRow {
  entity_id: string;
  attribute: string;
  instance_id: string;
  time: string | Date;
  value: Instance;
}

const INSTANCE_ID_PREFIX = "urn:ngsi-ld:attribute:instance:";

/**
 * An instance's time of a history element `el`: the element's override (its fourth member, written
 * by the migration of older rows and by PATCH of an instance when the time differs from what the
 * instance gives), else the first of the instance's members that is set. observedAt falls back on
 * modifiedAt, createdAt too, as the one-row-per-instance table's columns did.
 */
const members: Record<TimeProperty, string[]> = {
  observedAt: ["observedAt", "modifiedAt"],
  createdAt: ["createdAt", "modifiedAt"],
  modifiedAt: ["modifiedAt"],
};
const overrides: Record<TimeProperty, string> = { observedAt: "o", createdAt: "c", modifiedAt: "m" };
const at = (el: string, property: TimeProperty) =>
  sql.raw(
    `coalesce((${el}->3->>'${overrides[property]}')::timestamptz, ${members[property]
      .map((m) => `(${el}->1->>'${m}')::timestamptz`)
      .join(", ")})`,
  );
const timeOf = (el: string): Record<TimeProperty, SQL> => ({
  observedAt: at(el, "observedAt"),
  createdAt: at(el, "createdAt"),
  modifiedAt: at(el, "modifiedAt"),
});
/**
 * Instances per row at most. A write of many instances (a temporal load: hundreds per request)
 * made rows of tens of kB, compressed out of line, that a time window had to fetch, decompress and
 * unnest whole for each entity (a type + between query over 1,000,000 instances: 1.5 s on PGlite);
 * rows of 16 stay small and their spans let a window skip most of them.
 */
const CHUNK = 16;

/** The elements of the rows `h` as `w(value, n)`. */
const elements = sql.raw("jsonb_array_elements(h.instances) WITH ORDINALITY AS w(value, n)");
const element = timeOf("w.value");

/** The SQL condition of a temporal query's time window on a time. */
export function timeCondition(t: TimeQuery, column: SQL): SQL | undefined {
  if (t.timerel === "before") return sql`${column} < ${t.timeAt}::timestamptz`;
  if (t.timerel === "after") return sql`${column} > ${t.timeAt}::timestamptz`;
  if (t.timerel === "between")
    return sql`${column} >= ${t.timeAt}::timestamptz AND ${column} < ${t.endTimeAt}::timestamptz`;
  return undefined;
}

/** Rows of broker_history_writes `h` that may hold an instance observed in the window (a superset). */
function spanCondition(t: TimeQuery): SQL | undefined {
  if (t.timeproperty !== "observedAt") return undefined;
  if (t.timerel === "before") return sql`h.observed_from < ${t.timeAt}::timestamptz`;
  if (t.timerel === "after") return sql`h.observed_to > ${t.timeAt}::timestamptz`;
  if (t.timerel === "between")
    return sql`h.observed_to >= ${t.timeAt}::timestamptz AND h.observed_from < ${t.endTimeAt}::timestamptz`;
  return undefined;
}

/** Rows of broker_history_writes `h` whose every instance was observed in the window. */
function insideCondition(t: TimeQuery): SQL | undefined {
  if (t.timeproperty !== "observedAt") return undefined;
  if (t.timerel === "before") return sql`h.observed_to < ${t.timeAt}::timestamptz`;
  if (t.timerel === "after") return sql`h.observed_from > ${t.timeAt}::timestamptz`;
  if (t.timerel === "between")
    return sql`h.observed_from >= ${t.timeAt}::timestamptz AND h.observed_to < ${t.endTimeAt}::timestamptz`;
  return undefined;
}

/** The conditions on the elements `w` of the rows `h` of an entity's history. */
function elementConditions(query: TimeQuery & { attrs?: string[] }): SQL[] {
  const conditions: SQL[] = [];
  const span = spanCondition(query);
  if (span) conditions.push(span);
  if (query.attrs) conditions.push(sql`w.value->>0 = ANY(${toPgArray(query.attrs)}::text[])`);
  const window = timeCondition(query, element[query.timeproperty]);
  if (window) conditions.push(window);
  return conditions;
}

/**
 * The span of observation times (observedAt, else modifiedAt) of a write's instances, read in JS:
 * parsing them in SQL was a fifth of a batch's history. Date.parse drops digits below the
 * millisecond (and seconds as a float8 may round by a microsecond): one millisecond more on each
 * side, and the span still covers every instance.
 * Without a time it could read (none of the broker's writes), none: PostgreSQL derives it.
 */
function observedSpan(written: Array<[string, Instance]>): { l?: number; u?: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const [, instance] of written) {
    const time = Date.parse((instance.observedAt ?? instance.modifiedAt) as string);
    if (Number.isNaN(time)) return {};
    if (time < lo) lo = time;
    if (time > hi) hi = time;
  }
  if (lo === Infinity) return {};
  // In seconds since the epoch (to_timestamp), which PostgreSQL reads without parsing a date.
  return { l: (lo - 1) / 1000, u: (hi + 1) / 1000 };
}

export class TemporalStore {
  constructor(private readonly db: BrokerDatabase) {}

  /**
   * Records that entities have a history (with their current types) and appends the instances
   * written to each as one row, in one statement: the entities travel as one JSON parameter, each
   * with its instances as [attribute, instance, new instanceId], stored as sent, and the span of
   * their observation times (observedSpan), so that a temporal write needs no transaction of its own. Returns the ids that were new to the history.
   */
  async record(
    db: BrokerDatabase,
    tenant: string,
    entities: HistoryEntity[],
    now: string,
  ): Promise<Set<string>> {
    if (entities.length === 0) return new Set();
    // A new instanceId for each instance, drawn here: PGlite's gen_random_uuid() cost 8 µs a row
    // (a fifth of an instance's whole write), node's randomUUID() draws from a cached entropy pool.
    // One row per entity and chunk of instances; the registry takes the types from the first.
    const rows = entities.flatMap((e) => {
      const chunks: Array<Array<[string, Instance]>> = [];
      for (let k = 0; k < e.written.length; k += CHUNK) chunks.push(e.written.slice(k, k + CHUNK));
      if (chunks.length === 0) chunks.push([]);
      return chunks.map((chunk, k) => ({
        e: e.id,
        t: k === 0 ? toPgArray(e.types) : null,
        h: chunk.map(([attribute, written]) => [attribute, written, INSTANCE_ID_PREFIX + randomUUID()]),
        ...observedSpan(chunk),
      }));
    });
    const observed = element.observedAt;
    const each = sql.raw("jsonb_array_elements(x.h) AS w(value)");
    const inserted = rowsOf<{ id: string }>(
      await db.execute(sql`
        WITH x AS (
          SELECT x.e, x.t::text[] AS t, x.h, x.l, x.u
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS x(e text, t text, h jsonb, l float8, u float8)
        ), registered AS (
          INSERT INTO broker_temporal_entities (tenant, id, types, created_at)
          SELECT ${tenant}, x.e, x.t, ${now}::timestamptz FROM x WHERE x.t IS NOT NULL
          ON CONFLICT (tenant, id) DO UPDATE SET types = excluded.types
            WHERE broker_temporal_entities.types IS DISTINCT FROM excluded.types
          RETURNING id, (xmax = 0) AS inserted
        ), appended AS (
          INSERT INTO broker_history_writes (tenant, entity_id, observed_from, observed_to, instances)
          SELECT ${tenant}, x.e, coalesce(to_timestamp(x.l), (SELECT min(${observed}) FROM ${each})),
                 coalesce(to_timestamp(x.u), (SELECT max(${observed}) FROM ${each})), x.h
          FROM x WHERE jsonb_array_length(x.h) > 0
        )
        SELECT id FROM registered WHERE inserted`),
    );
    return new Set(inserted.map((r) => r.id));
  }

  /** Temporal API writes: registers the entity and appends instances; whether the entity was new. */
  async write(tenant: string, entity: HistoryEntity, now: string): Promise<boolean> {
    return (await this.record(this.db, tenant, [entity], now)).has(entity.id);
  }

  async exists(tenant: string, id: string): Promise<{ types: string[] } | undefined> {
    const rows = rowsOf<{ types: string[] }>(
      await this.db.execute(
        sql`SELECT types FROM broker_temporal_entities WHERE tenant = ${tenant} AND id = ${id}`,
      ),
    );
    return rows[0];
  }

  async remove(tenant: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = rowsOf(
        await tx.execute(
          sql`DELETE FROM broker_temporal_entities WHERE tenant = ${tenant} AND id = ${id} RETURNING id`,
        ),
      );
      await tx.execute(sql`DELETE FROM broker_history_writes WHERE tenant = ${tenant} AND entity_id = ${id}`);
      return rows.length > 0;
    });
  }

  /**
   * Takes the elements that `match` out of an entity's rows, in one statement: a row left with
   * none goes; how many elements went. The rows' spans stay (they still cover what is left).
   */
  private async removeElements(tenant: string, id: string, match: SQL): Promise<number> {
    const [row] = rowsOf<{ n: number }>(
      await this.db.execute(sql`
        WITH hit AS (
          SELECT h.ctid AS row, count(*) FILTER (WHERE ${match}) AS gone,
                 jsonb_agg(w.value ORDER BY w.n) FILTER (WHERE NOT (${match})) AS kept
          FROM broker_history_writes h CROSS JOIN LATERAL ${elements}
          WHERE h.tenant = ${tenant} AND h.entity_id = ${id}
          GROUP BY h.ctid HAVING count(*) FILTER (WHERE ${match}) > 0
        ), shrunk AS (
          UPDATE broker_history_writes h SET instances = hit.kept
          FROM hit WHERE h.ctid = hit.row AND hit.kept IS NOT NULL RETURNING 1
        ), emptied AS (
          DELETE FROM broker_history_writes h USING hit
          WHERE h.ctid = hit.row AND hit.kept IS NULL RETURNING 1
        )
        SELECT (SELECT coalesce(sum(gone), 0) FROM hit)::int AS n`),
    );
    return Number(row?.n ?? 0);
  }

  /**
   * Deletes an attribute's instances (5.6.13): those without datasetId, those of one datasetId, or
   * with deleteAll every one; how many went.
   */
  async removeAttribute(
    tenant: string,
    id: string,
    attribute: string,
    which: { datasetId?: string; deleteAll: boolean },
  ): Promise<number> {
    const dataset = which.deleteAll
      ? sql``
      : sql` AND coalesce(w.value->1->>'datasetId', '') = ${which.datasetId ?? ""}`;
    return this.removeElements(tenant, id, sql`w.value->>0 = ${attribute}${dataset}`);
  }

  /** One instance of an attribute, by its instanceId. */
  async instance(
    tenant: string,
    id: string,
    attribute: string,
    instanceId: string,
  ): Promise<Instance | undefined> {
    const rows = rowsOf<{ value: Instance }>(
      await this.db.execute(sql`
        SELECT w.value->1 AS value FROM broker_history_writes h CROSS JOIN LATERAL ${elements}
        WHERE h.tenant = ${tenant} AND h.entity_id = ${id}
          AND w.value->>0 = ${attribute} AND w.value->>2 = ${instanceId}
        LIMIT 1`),
    );
    return rows[0]?.value;
  }

  /**
   * Replaces an instance's content, keeping its instanceId (5.6.14) and, as the instance-per-row
   * table did, its creation time, and its observation time when the new content has no observedAt;
   * whether it was there.
   */
  async replaceInstance(
    tenant: string,
    id: string,
    attribute: string,
    instanceId: string,
    instance: Instance,
  ): Promise<boolean> {
    const next = sql`${JSON.stringify(instance)}::jsonb`;
    const old = timeOf("hit.value");
    const observed = sql`coalesce((${next}->>'observedAt')::timestamptz, ${old.observedAt})`;
    const derivedObserved = sql`coalesce((${next}->>'observedAt')::timestamptz, (${next}->>'modifiedAt')::timestamptz)`;
    const derivedCreated = sql`coalesce((${next}->>'createdAt')::timestamptz, (${next}->>'modifiedAt')::timestamptz)`;
    const rows = rowsOf(
      await this.db.execute(sql`
        WITH hit AS (
          SELECT h.ctid AS row, w.n, w.value FROM broker_history_writes h CROSS JOIN LATERAL ${elements}
          WHERE h.tenant = ${tenant} AND h.entity_id = ${id}
            AND w.value->>0 = ${attribute} AND w.value->>2 = ${instanceId}
          LIMIT 1
        ), times AS (
          SELECT row, n, ${observed} AS observed,
                 jsonb_strip_nulls(jsonb_build_object(
                   'o', CASE WHEN ${observed} IS DISTINCT FROM ${derivedObserved} THEN ${observed} END,
                   'c', CASE WHEN ${old.createdAt} IS DISTINCT FROM ${derivedCreated} THEN ${old.createdAt} END
                 )) AS overrides
          FROM hit
        )
        UPDATE broker_history_writes h
        SET instances = jsonb_set(h.instances, ARRAY[(times.n - 1)::text],
              jsonb_build_array(${attribute}::text, ${next}, ${instanceId}::text)
              || CASE WHEN times.overrides = '{}'::jsonb THEN '[]'::jsonb ELSE jsonb_build_array(times.overrides) END),
            observed_from = least(h.observed_from, times.observed),
            observed_to = greatest(h.observed_to, times.observed)
        FROM times WHERE h.ctid = times.row
        RETURNING 1`),
    );
    return rows.length > 0;
  }

  /** Deletes one instance (5.6.15); whether it was there. */
  async removeInstance(tenant: string, id: string, attribute: string, instanceId: string): Promise<boolean> {
    const removed = await this.removeElements(
      tenant,
      id,
      sql`w.value->>0 = ${attribute} AND w.value->>2 = ${instanceId}`,
    );
    return removed > 0;
  }

  /**
   * The condition, on broker_temporal_entities, that an entity has an instance of one of `attrs`
   * in the time window.
   */
  hasInstances(query: TimeQuery & { attrs?: string[] }): SQL {
    const entity = sql`h.tenant = broker_temporal_entities.tenant AND h.entity_id = broker_temporal_entities.id`;
    const conditions = [entity, ...elementConditions(query)];
    const any = sql`EXISTS (SELECT 1 FROM broker_history_writes h CROSS JOIN LATERAL ${elements}
      WHERE ${sql.join(conditions, sql` AND `)})`;
    // A write whose whole span lies in the window has an instance in it: no element to read.
    const inside = query.attrs ? undefined : insideCondition(query);
    if (!inside) return any;
    return sql`(EXISTS (SELECT 1 FROM broker_history_writes h WHERE ${entity} AND ${inside}) OR ${any})`;
  }

  /** A page of entities with a history, by id. `where` may use the columns id and types. */
  async entities(
    tenant: string,
    where: SQL[],
    limit: number,
    offset: number,
  ): Promise<Array<{ id: string; types: string[] }>> {
    const all = sql.join([sql`tenant = ${tenant}`, ...where], sql` AND `);
    return rowsOf<{ id: string; types: string[] }>(
      await this.db.execute(
        sql`SELECT id, types FROM broker_temporal_entities WHERE ${all} ORDER BY id LIMIT ${limit} OFFSET ${offset}`,
      ),
    );
  }

  async count(tenant: string, where: SQL[]): Promise<number> {
    const all = sql.join([sql`tenant = ${tenant}`, ...where], sql` AND `);
    const rows = rowsOf<{ n: number }>(
      await this.db.execute(sql`SELECT count(*)::int AS n FROM broker_temporal_entities WHERE ${all}`),
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Instances of some entities in a time window, oldest first per entity and attribute: the last
   * `lastN` of each attribute, else the first `cap` (the caller reports a cut history as 206).
   */
  async instances(
    tenant: string,
    ids: string[],
    query: TimeQuery & { attrs?: string[]; lastN?: number; cap: number },
  ): Promise<InstanceRow[]> {
    if (ids.length === 0) return [];
    const conditions = [
      sql`h.tenant = ${tenant}`,
      sql`h.entity_id = ANY(${toPgArray(ids)}::text[])`,
      ...elementConditions(query),
    ];
    const newestFirst = query.lastN !== undefined;
    const keep = query.lastN !== undefined ? Math.min(query.lastN, query.cap) : query.cap + 1;
    return rowsOf<InstanceRow>(
      await this.db.execute(sql`
        SELECT entity_id, attribute, instance_id, time, value FROM (
          SELECT entity_id, attribute, instance_id, time, value,
                 row_number() OVER (PARTITION BY entity_id, attribute
                                    ORDER BY time ${newestFirst ? sql`DESC` : sql`ASC`}, instance_id) AS n
          FROM (
            SELECT h.entity_id, w.value->>0 AS attribute, w.value->>2 AS instance_id,
                   ${element[query.timeproperty]} AS time, w.value->1 AS value
            FROM broker_history_writes h CROSS JOIN LATERAL ${elements}
            WHERE ${sql.join(conditions, sql` AND `)}
          ) AS i
        ) AS s WHERE n <= ${keep}
        ORDER BY entity_id, attribute, time, instance_id`),
    );
  }
}
