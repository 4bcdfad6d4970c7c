import { entityKind, sql, type SQL } from "drizzle-orm";
import type { PgDatabase } from "drizzle-orm/pg-core";
import type { Change, ChangeListener } from "./changes.ts";
import type { Attributes, StoredEntity } from "./model.ts";
import { NgsiLdError } from "./problems.ts";
import { RememberedCounts, type EntityMatcher } from "./counts.ts";
import { keyOf, Remembered, tenantWrites } from "./remembered.ts";

/** Any Drizzle PostgreSQL database (PGlite or node-postgres); the broker uses only raw SQL through it. */
export type BrokerDatabase = PgDatabase<any, any, any>;

/** An entity's row of broker_entities as SELECT reads it. */
export interface Row {
  id: string;
  types: string[];
  attrs: Attributes;
  created_at: string | Date;
  modified_at: string | Date;
  /** The tenant's writes, read with the rows (see remembered.ts). */
  writes?: string | null;
}

const iso = (v: string | Date) => new Date(v).toISOString();
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The stored entity of a row. */
export function toEntity(row: Row): StoredEntity {
  return {
    id: row.id,
    types: row.types,
    attrs: row.attrs,
    createdAt: iso(row.created_at),
    modifiedAt: iso(row.modified_at),
  };
}

const columns = sql`id, types, attrs, created_at, modified_at`;

/**
 * The rows of entities as one SELECT over one JSON parameter (jsonb_to_recordset): a batch of a
 * thousand entities binds one parameter instead of six thousand, which halves the cost of building,
 * sending and planning the statement.
 */
function rowsSource(tenant: string, entities: StoredEntity[]): SQL {
  const rows = entities.map((e) => ({
    i: e.id,
    t: toPgArray(e.types),
    a: e.attrs,
    c: e.createdAt,
    m: e.modifiedAt,
  }));
  return sql`SELECT ${tenant}, x.i, x.t::text[], x.a, x.c, x.m
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(i text, t text, a jsonb, c timestamptz, m timestamptz)`;
}

/** A text[] literal, so that both drivers bind one text parameter the same way. */
export function toPgArray(items: string[]): string {
  return `{${items.map((s) => `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

/** Ids of a JS-filtered selection kept at most (selectFiltered): 100,000 ids are a few MB. */
const MAX_KEPT_IDS = 100_000;

/** Conditions and paging of a query over one tenant's entities. */
export interface Selection {
  where: SQL[];
  limit?: number;
  offset?: number;
}

/**
 * The broker's reads and writes. Read-modify-write operations lock the row (SELECT ... FOR UPDATE)
 * inside a transaction so that two concurrent appends on one entity do not lose each other. Every
 * write runs in a transaction that also runs the change listeners (notification outbox, temporal
 * history), so that what they record commits or rolls back with the change.
 */
export class EntityStore {
  /** Notified of every change inside its transaction (see changes.ts). */
  readonly listeners: ChangeListener[] = [];
  private readonly knownTenants = new Set<string>([""]);
  /** Rows written since the planner statistics were last refreshed (see noteWrites). */
  private writesSinceAnalyze = 0;
  private writesTotal = 0;
  private analyzeAfter = 5000;
  private analyzing = false;
  /** Counts by query, carried forward by this process's writes (counts.ts). */
  private readonly counts = new RememberedCounts();
  /**
   * Where pages start, by query and offset: the id the page after comes after, until the tenant's
   * next write. Paging by offset re-reads every row before the page (100 pages of 1,000 over
   * 100,000 entities: 4.4 s on PostgreSQL); from a remembered id a page reads its own rows only.
   */
  private readonly pageStarts = new Remembered<string>(1000);
  /**
   * The ids a condition decided in JS (a geo-query without PostGIS, a q that SQL cannot answer
   * exactly) selects, by query, until the tenant's next write: the map reads a bounding box 1,000 at
   * a time, and each page tested every candidate again (11 pages of 10,000 at a million entities:
   * 22.6 s on PGlite). Kept only for selections of at most MAX_KEPT_IDS.
   */
  private readonly filtered = new Remembered<string[]>(50);

  /** PGlite in this process, rather than a PostgreSQL server (the two prefer different plans). */
  private readonly embedded: boolean;

  constructor(private readonly db: BrokerDatabase) {
    this.embedded = (db.constructor as unknown as Record<symbol, unknown>)[entityKind] === "PgliteDatabase";
  }

  /** Records a tenant on its first write (tenants are never removed, so the cache stays right). */
  async ensureTenant(tenant: string, db: BrokerDatabase = this.db): Promise<void> {
    if (this.knownTenants.has(tenant)) return;
    await db.execute(sql`INSERT INTO broker_tenants (name) VALUES (${tenant}) ON CONFLICT DO NOTHING`);
    this.knownTenants.add(tenant);
  }

  /** 404 NonexistentTenant unless the tenant has been written to (reads of an unknown tenant). */
  async requireTenant(tenant: string): Promise<void> {
    if (this.knownTenants.has(tenant)) return;
    const rows = rowsOf(await this.db.execute(sql`SELECT 1 FROM broker_tenants WHERE name = ${tenant}`));
    if (!rows.length) throw new NgsiLdError("NonexistentTenant", `tenant ${tenant} does not exist`);
    this.knownTenants.add(tenant);
  }

  async get(tenant: string, id: string): Promise<StoredEntity | undefined> {
    const rows = rowsOf<Row>(
      await this.db.execute(
        sql`SELECT ${columns} FROM broker_entities WHERE tenant = ${tenant} AND id = ${id}`,
      ),
    );
    return rows[0] && toEntity(rows[0]);
  }

  async getMany(
    tenant: string,
    ids: string[],
    db: BrokerDatabase = this.db,
    lock = false,
  ): Promise<Map<string, StoredEntity>> {
    if (ids.length === 0) return new Map();
    const rows = rowsOf<Row>(
      await db.execute(
        sql`SELECT ${columns} FROM broker_entities WHERE tenant = ${tenant} AND id = ANY(${toPgArray(ids)}::text[]) ${lock ? sql`ORDER BY id FOR UPDATE` : sql``}`,
      ),
    );
    return new Map(rows.map((r) => [r.id, toEntity(r)]));
  }

  /**
   * Runs a write in a transaction with the change listeners; afterCommit hooks run once it committed.
   * The tenant's `writes` is increased last in the transaction, so that its row is held only until
   * the commit and a value read at `writes = n` holds exactly for what committed up to n.
   */
  private async changing<T>(
    tenant: string,
    fn: (tx: BrokerDatabase) => Promise<{ result: T; changes: Change[] }>,
  ): Promise<T> {
    const committed: Array<() => void> = [];
    let changes: Change[] = [];
    let writes: string | undefined;
    const result = await this.db.transaction(async (transaction) => {
      const tx = transaction as BrokerDatabase;
      const done = await fn(tx);
      changes = done.changes;
      if (changes.length) {
        const now = new Date().toISOString();
        for (const listener of this.listeners) {
          const after = await listener.onChanges(tx, tenant, changes, now);
          if (after) committed.push(after);
        }
        writes = rowsOf<{ writes: string }>(
          await tx.execute(
            sql`UPDATE broker_tenants SET writes = writes + 1 WHERE name = ${tenant} RETURNING writes::text AS writes`,
          ),
        )[0]?.writes;
      }
      return done.result;
    });
    if (writes !== undefined) this.counts.advance(tenant, writes, changes);
    for (const after of committed) after();
    return result;
  }

  /** Inserts new entities; returns the ids that were inserted (an existing id is left alone). */
  async insert(tenant: string, entities: StoredEntity[]): Promise<Set<string>> {
    if (entities.length === 0) return new Set();
    return this.changing(tenant, async (tx) => {
      await this.ensureTenant(tenant, tx);
      const rows = rowsOf<{ id: string }>(
        await tx.execute(
          sql`INSERT INTO broker_entities (tenant, id, types, attrs, created_at, modified_at) ${rowsSource(tenant, entities)} ON CONFLICT (tenant, id) DO NOTHING RETURNING id`,
        ),
      );
      this.noteWrites(rows.length);
      const inserted = new Set(rows.map((r) => r.id));
      return {
        result: inserted,
        changes: entities.filter((e) => inserted.has(e.id)).map((after) => ({ after })),
      };
    });
  }

  /** Writes entities whole, inserting or replacing; how many of them existed (were replaced). */
  async write(tenant: string, entities: StoredEntity[], db: BrokerDatabase = this.db): Promise<number> {
    if (entities.length === 0) return 0;
    await this.ensureTenant(tenant, db);
    // A replaced row carries this transaction's id in xmax, an inserted one 0.
    const [row] = rowsOf<{ replaced: number }>(
      await db.execute(
        sql`WITH w AS (
              INSERT INTO broker_entities (tenant, id, types, attrs, created_at, modified_at) ${rowsSource(tenant, entities)}
              ON CONFLICT (tenant, id) DO UPDATE SET types = excluded.types, attrs = excluded.attrs, modified_at = excluded.modified_at
              RETURNING xmax = 0 AS inserted
            ) SELECT count(*) FILTER (WHERE NOT inserted)::int AS replaced FROM w`,
      ),
    );
    this.noteWrites(entities.length);
    return Number(row?.replaced ?? 0);
  }

  /**
   * PGlite runs no autovacuum, so without this the planner never learns the table's size and picks
   * bad plans for type + q queries (measured: 10x slower at 100,000 entities). After every few
   * thousand written rows, refresh the statistics in the background, at doubling intervals so that
   * a bulk load pays for a few ANALYZE runs only; on PostgreSQL this only anticipates autovacuum.
   */
  private noteWrites(rows: number): void {
    this.writesSinceAnalyze += rows;
    this.writesTotal += rows;
    if (this.writesSinceAnalyze < this.analyzeAfter || this.analyzing) return;
    this.writesSinceAnalyze = 0;
    this.analyzeAfter = Math.max(5000, this.writesTotal);
    this.analyzing = true;
    this.db
      .execute(sql`ANALYZE broker_entities`)
      .catch(() => undefined) // statistics are an optimisation; a failure changes no result
      .finally(() => (this.analyzing = false));
  }

  async remove(tenant: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return this.changing(tenant, async (tx) => {
      const rows = rowsOf<Row>(
        await tx.execute(
          sql`DELETE FROM broker_entities WHERE tenant = ${tenant} AND id = ANY(${toPgArray(ids)}::text[]) RETURNING ${columns}`,
        ),
      );
      return { result: new Set(rows.map((r) => r.id)), changes: rows.map((r) => ({ before: toEntity(r) })) };
    });
  }

  /** Runs fn on the locked current state of some entities and writes what it returns. */
  async modify<T>(
    tenant: string,
    ids: string[],
    fn: (current: Map<string, StoredEntity>) => { write: StoredEntity[]; result: T },
  ): Promise<T> {
    return this.changing(tenant, async (tx) => {
      const current = await this.getMany(tenant, ids, tx, true);
      const { write, result } = fn(current);
      const replaced = await this.write(tenant, write, tx);
      const changes: Change[] = write.map((after) => ({ before: current.get(after.id), after }));
      // More rows replaced than were read: another transaction created some of the "new" ones meanwhile.
      if (replaced > changes.filter((c) => c.before).length)
        for (const c of changes) if (!c.before) c.unsure = true;
      return { result, changes };
    });
  }

  async select(tenant: string, s: Selection): Promise<StoredEntity[]> {
    const where = sql.join([sql`tenant = ${tenant}`, ...s.where], sql` AND `);
    const writes = tenantWrites(tenant);
    const limit = s.limit !== undefined ? sql`LIMIT ${s.limit}` : sql``;
    const query = keyOf(where);
    const offset = s.offset ?? 0;
    let rows: Row[] | undefined;
    const start = offset ? this.pageStarts.get(`${query}@${offset}`) : undefined;
    if (start) {
      rows = rowsOf<Row>(
        await this.db.execute(
          sql`SELECT ${columns}, ${writes} AS writes FROM broker_entities WHERE ${where} AND id > ${start.value} ORDER BY id ${limit}`,
        ),
      );
      // Entities written since: the offset decides (so does the end of the selection, where no row says).
      if (rows[0]?.writes !== start.writes) rows = undefined;
    }
    // On PostgreSQL, a page far down a large selection sorts and skips ids only, then reads the page's
    // rows: sorting whole rows (attrs included) spilled to disk and every deep page re-sorted them
    // (export of 100,000: 13.3 s -> 7.6 s). PGlite was slower that way (7.1 s -> 10.8 s): it keeps one.
    rows ??= rowsOf<Row>(
      await this.db.execute(
        offset && !this.embedded
          ? sql`SELECT e.id, e.types, e.attrs, e.created_at, e.modified_at, ${writes} AS writes
              FROM (SELECT id FROM broker_entities WHERE ${where} ORDER BY id ${limit} OFFSET ${offset}) AS page
              JOIN broker_entities e ON e.tenant = ${tenant} AND e.id = page.id ORDER BY e.id`
          : sql`SELECT ${columns}, ${writes} AS writes FROM broker_entities WHERE ${where} ORDER BY id ${limit} ${offset ? sql`OFFSET ${offset}` : sql``}`,
      ),
    );
    // The next page starts after the last row, or after the one before it when the caller asked for
    // one row more than its page to learn whether there is a next one.
    for (const n of [rows.length, rows.length - 1])
      if (n > 0 && s.limit !== undefined)
        this.pageStarts.set(`${query}@${offset + n}`, rows[0]!.writes, rows[n - 1]!.id);
    return rows.map(toEntity);
  }

  /**
   * The entities that match `where` in SQL and then `filter` in JS, sorted by id, with how many
   * match in all; `filterKey` names the JS condition (the same key, the same filter). What matches
   * is remembered with the tenant's `writes`, so that the next pages only read their own rows.
   */
  async selectFiltered(
    tenant: string,
    where: SQL[],
    filter: (e: StoredEntity) => boolean,
    filterKey: string,
    page: { offset: number; limit?: number },
  ): Promise<{ entities: StoredEntity[]; total: number }> {
    const all = sql.join([sql`tenant = ${tenant}`, ...where], sql` AND `);
    const key = JSON.stringify([keyOf(all), filterKey]);
    const end = page.limit === undefined ? undefined : page.offset + page.limit;
    const kept = this.filtered.get(key);
    if (kept) {
      const [now] = rowsOf<{ writes: string | null }>(
        await this.db.execute(sql`SELECT ${tenantWrites(tenant)} AS writes`),
      );
      if (now?.writes === kept.writes) {
        const ids = kept.value.slice(page.offset, end);
        const rows = ids.length
          ? rowsOf<Row>(
              await this.db.execute(
                sql`SELECT ${columns} FROM broker_entities WHERE tenant = ${tenant} AND id = ANY(${toPgArray(ids)}::text[]) ORDER BY id`,
              ),
            )
          : [];
        return { entities: rows.map(toEntity), total: kept.value.length };
      }
    }
    const rows = rowsOf<Row>(
      await this.db.execute(
        sql`SELECT ${columns}, ${tenantWrites(tenant)} AS writes FROM broker_entities WHERE ${all} ORDER BY id`,
      ),
    );
    const matching = rows.map(toEntity).filter(filter);
    if (matching.length <= MAX_KEPT_IDS)
      this.filtered.set(
        key,
        rows[0]?.writes,
        matching.map((e) => e.id),
      );
    return { entities: matching.slice(page.offset, end), total: matching.length };
  }

  /**
   * As selectFiltered, for a condition SQL decides for almost every row (a box of points, geo-box.ts):
   * one scan reads only each match's id and whether `sure` (it matches) or `unsure` (SQL cannot tell)
   * holds; only the unsure rows are read whole and given to `filter`. Reading the whole rows of the
   * 10,000 candidates of a box among a million to test them in JS was most of the map's time.
   */
  async selectDecided(
    tenant: string,
    where: SQL[],
    decide: { sure: SQL; unsure: SQL },
    filter: (e: StoredEntity) => boolean,
    filterKey: string,
    page: { offset: number; limit?: number },
  ): Promise<{ entities: StoredEntity[]; total: number }> {
    const all = sql.join([sql`tenant = ${tenant}`, ...where], sql` AND `);
    const key = JSON.stringify([keyOf(all), keyOf(decide.sure), filterKey]);
    const end = page.limit === undefined ? undefined : page.offset + page.limit;
    let ids = await this.keptIds(tenant, key);
    if (!ids) {
      const rows = rowsOf<{ id: string; sure: boolean; unsure: boolean; writes: string | null }>(
        await this.db.execute(
          sql`SELECT id, ${decide.sure} AS sure, ${decide.unsure} AS unsure, ${tenantWrites(tenant)} AS writes
            FROM broker_entities WHERE ${all} ORDER BY id`,
        ),
      );
      const unsure = rows.filter((r) => !r.sure && r.unsure).map((r) => r.id);
      const accepted = new Set(
        [...(await this.getMany(tenant, unsure)).values()].filter(filter).map((e) => e.id),
      );
      ids = rows.filter((r) => r.sure || accepted.has(r.id)).map((r) => r.id);
      if (ids.length <= MAX_KEPT_IDS) this.filtered.set(key, rows[0]?.writes, ids);
    }
    return { entities: await this.byIds(tenant, ids.slice(page.offset, end)), total: ids.length };
  }

  /** The ids a selection kept (selectDecided) while the tenant has not been written to since. */
  private async keptIds(tenant: string, key: string): Promise<string[] | undefined> {
    const kept = this.filtered.get(key);
    if (!kept) return undefined;
    const [now] = rowsOf<{ writes: string | null }>(
      await this.db.execute(sql`SELECT ${tenantWrites(tenant)} AS writes`),
    );
    return now?.writes === kept.writes ? kept.value : undefined;
  }

  /** Entities by id, in id order. */
  private async byIds(tenant: string, ids: string[]): Promise<StoredEntity[]> {
    if (!ids.length) return [];
    const rows = rowsOf<Row>(
      await this.db.execute(
        sql`SELECT ${columns} FROM broker_entities WHERE tenant = ${tenant} AND id = ANY(${toPgArray(ids)}::text[]) ORDER BY id`,
      ),
    );
    return rows.map(toEntity);
  }

  /**
   * How many entities of the tenant match. Remembered with the tenant's `writes`; `matches`, the
   * same condition in JS, lets this process's writes carry the count forward (counts.ts).
   */
  async count(tenant: string, where: SQL[], matches?: EntityMatcher): Promise<number> {
    const all = sql.join([sql`tenant = ${tenant}`, ...where], sql` AND `);
    const key = keyOf(all);
    const writes = tenantWrites(tenant);
    if (this.counts.has(key)) {
      const [now] = rowsOf<{ writes: string | null }>(await this.db.execute(sql`SELECT ${writes} AS writes`));
      const known = this.counts.get(key, now?.writes);
      if (known !== undefined) return known;
    }
    // The count and the writes it holds for, in one snapshot.
    const [row] = rowsOf<{ n: number; writes: string | null }>(
      await this.db.execute(
        sql`SELECT count(*)::int AS n, ${writes} AS writes FROM broker_entities WHERE ${all}`,
      ),
    );
    const n = Number(row?.n ?? 0);
    this.counts.set(key, tenant, row?.writes, n, matches);
    return n;
  }

  /** How many entities of the tenant have the (expanded) type: one row, kept by every write (type-counts.ts). */
  async countOfType(tenant: string, type: string): Promise<number> {
    const [row] = rowsOf<{ n: string | number }>(
      await this.db.execute(
        sql`SELECT entities AS n FROM broker_type_counts WHERE tenant = ${tenant} AND type = ${type}`,
      ),
    );
    return Number(row?.n ?? 0);
  }

  /** Entity types with, per type, the attribute names and the entity count (discovery, 5.7.5-5.7.7). */
  async typeSummary(
    tenant: string,
    type?: string,
  ): Promise<Array<{ type: string; count: number; attributes: string[] }>> {
    const rows = rowsOf<{ type: string; count: number; attributes: string[] | null }>(
      await this.db.execute(sql`
        SELECT t AS type, count(DISTINCT e.id)::int AS count,
               array_remove(array_agg(DISTINCT k), NULL) AS attributes
        FROM broker_entities e
        CROSS JOIN LATERAL unnest(e.types) AS t
        LEFT JOIN LATERAL jsonb_object_keys(e.attrs) AS k ON true
        WHERE e.tenant = ${tenant} ${type ? sql`AND t = ${type}` : sql``}
        GROUP BY t ORDER BY t`),
    );
    return rows.map((r) => ({ type: r.type, count: Number(r.count), attributes: r.attributes ?? [] }));
  }

  /** Attributes with their kinds (Property, ...), the types that use them and the instance count (5.7.8-5.7.10). */
  async attributeSummary(
    tenant: string,
    filter: { attribute?: string; type?: string } = {},
  ): Promise<Array<{ attribute: string; kinds: string[]; types: string[]; count: number }>> {
    const rows = rowsOf<{ attribute: string; kinds: string[]; types: string[]; count: number }>(
      await this.db.execute(sql`
        SELECT a.key AS attribute,
               array_agg(DISTINCT i->>'type') AS kinds,
               array_agg(DISTINCT t) AS types,
               count(DISTINCT e.id || ' ' || coalesce(i->>'datasetId', ''))::int AS count
        FROM broker_entities e
        CROSS JOIN LATERAL jsonb_each(e.attrs) AS a(key, instances)
        CROSS JOIN LATERAL jsonb_array_elements(a.instances) AS i
        CROSS JOIN LATERAL unnest(e.types) AS t
        WHERE e.tenant = ${tenant}
          ${filter.attribute ? sql`AND a.key = ${filter.attribute}` : sql``}
          ${filter.type ? sql`AND e.types @> ARRAY[${filter.type}]::text[]` : sql``}
        GROUP BY a.key ORDER BY a.key`),
    );
    return rows.map((r) => ({ ...r, count: Number(r.count) }));
  }
}
