import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { Instance } from "./model.ts";
import { toPgArray, type BrokerDatabase } from "./storage.ts";
import { rowsOf } from "./subscription-store.ts";

/**
 * The temporal history's tables (broker_temporal_entities, broker_attribute_instances; see
 * migrations.ts). Instances are written as one statement per batch (record).
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

const timeColumn: Record<TimeProperty, SQL> = {
  observedAt: sql.raw("observed_at"),
  createdAt: sql.raw("created_at"),
  modifiedAt: sql.raw("modified_at"),
};

/** The SQL condition of a temporal query's time window on the chosen time property. */
export function timeCondition(t: TimeQuery): SQL | undefined {
  const column = timeColumn[t.timeproperty];
  if (t.timerel === "before") return sql`${column} < ${t.timeAt}::timestamptz`;
  if (t.timerel === "after") return sql`${column} > ${t.timeAt}::timestamptz`;
  if (t.timerel === "between")
    return sql`${column} >= ${t.timeAt}::timestamptz AND ${column} < ${t.endTimeAt}::timestamptz`;
  return undefined;
}

export class TemporalStore {
  constructor(private readonly db: BrokerDatabase) {}

  /**
   * Records that entities have a history (with their current types) and appends the instances
   * written to them, in one statement: the entities travel as one JSON parameter, each with its
   * instances as [attribute, instance, new instanceId's UUID], and PostgreSQL derives every other
   * column from the instance (dataset, times), so that nothing is sent twice and a temporal write needs no
   * transaction of its own. Returns the ids that were new to the history.
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
    const rows = entities.map((e) => ({
      e: e.id,
      t: toPgArray(e.types),
      h: e.written.map(([attribute, written]) => [attribute, written, randomUUID()]),
    }));
    const instance = sql.raw("w.value->1");
    const member = (name: string) => sql`(${instance}->>${name})::timestamptz`;
    const inserted = rowsOf<{ id: string }>(
      await db.execute(sql`
        WITH x AS (
          SELECT x.e, x.t::text[] AS t, x.h
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(e text, t text, h jsonb)
        ), registered AS (
          INSERT INTO broker_temporal_entities (tenant, id, types, created_at)
          SELECT ${tenant}, x.e, x.t, ${now}::timestamptz FROM x
          ON CONFLICT (tenant, id) DO UPDATE SET types = excluded.types
            WHERE broker_temporal_entities.types IS DISTINCT FROM excluded.types
          RETURNING id, (xmax = 0) AS inserted
        ), appended AS (
          INSERT INTO broker_attribute_instances
            (tenant, entity_id, attribute, dataset_id, instance_id, observed_at, created_at, modified_at, value)
          SELECT ${tenant}, x.e, w.value->>0, coalesce(${instance}->>'datasetId', ''),
                 'urn:ngsi-ld:attribute:instance:' || (w.value->>2),
                 coalesce(${member("observedAt")}, ${member("modifiedAt")}),
                 coalesce(${member("createdAt")}, ${member("modifiedAt")}),
                 ${member("modifiedAt")}, ${instance}
          FROM x CROSS JOIN LATERAL jsonb_array_elements(x.h) AS w
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
      await tx.execute(
        sql`DELETE FROM broker_attribute_instances WHERE tenant = ${tenant} AND entity_id = ${id}`,
      );
      return rows.length > 0;
    });
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
    const dataset = which.deleteAll ? sql`` : sql` AND dataset_id = ${which.datasetId ?? ""}`;
    const rows = rowsOf(
      await this.db.execute(sql`
        DELETE FROM broker_attribute_instances
        WHERE tenant = ${tenant} AND entity_id = ${id} AND attribute = ${attribute}${dataset}
        RETURNING 1`),
    );
    return rows.length;
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
        SELECT value FROM broker_attribute_instances
        WHERE tenant = ${tenant} AND entity_id = ${id} AND attribute = ${attribute} AND instance_id = ${instanceId}`),
    );
    return rows[0]?.value;
  }

  /** Replaces an instance's content, keeping its instanceId (5.6.14); whether it was there. */
  async replaceInstance(
    tenant: string,
    id: string,
    attribute: string,
    instanceId: string,
    instance: Instance,
  ): Promise<boolean> {
    const modified = instance.modifiedAt!;
    const rows = rowsOf(
      await this.db.execute(sql`
        UPDATE broker_attribute_instances
        SET value = ${JSON.stringify(instance)}::jsonb, dataset_id = ${instance.datasetId ?? ""},
            observed_at = coalesce(${instance.observedAt ?? null}::timestamptz, observed_at),
            modified_at = ${modified}::timestamptz
        WHERE tenant = ${tenant} AND entity_id = ${id} AND attribute = ${attribute} AND instance_id = ${instanceId}
        RETURNING 1`),
    );
    return rows.length > 0;
  }

  /** Deletes one instance (5.6.15); whether it was there. */
  async removeInstance(tenant: string, id: string, attribute: string, instanceId: string): Promise<boolean> {
    const rows = rowsOf(
      await this.db.execute(sql`
        DELETE FROM broker_attribute_instances
        WHERE tenant = ${tenant} AND entity_id = ${id} AND attribute = ${attribute} AND instance_id = ${instanceId}
        RETURNING 1`),
    );
    return rows.length > 0;
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
    const column = timeColumn[query.timeproperty];
    const conditions = [sql`tenant = ${tenant}`, sql`entity_id = ANY(${toPgArray(ids)}::text[])`];
    if (query.attrs) conditions.push(sql`attribute = ANY(${toPgArray(query.attrs)}::text[])`);
    const window = timeCondition(query);
    if (window) conditions.push(window);
    const newestFirst = query.lastN !== undefined;
    const keep = query.lastN !== undefined ? Math.min(query.lastN, query.cap) : query.cap + 1;
    return rowsOf<InstanceRow>(
      await this.db.execute(sql`
        SELECT entity_id, attribute, instance_id, time, value FROM (
          SELECT entity_id, attribute, instance_id, ${column} AS time, value,
                 row_number() OVER (PARTITION BY entity_id, attribute
                                    ORDER BY ${column} ${newestFirst ? sql`DESC` : sql`ASC`}, instance_id) AS n
          FROM broker_attribute_instances WHERE ${sql.join(conditions, sql` AND `)}
        ) s WHERE n <= ${keep}
        ORDER BY entity_id, attribute, time, instance_id`),
    );
  }
}
