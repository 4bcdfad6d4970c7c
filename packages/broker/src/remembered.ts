import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/**
 * The tenant's `writes` (broker_tenants, migration 0004) as a SQL value: how many entity writes of
 * the tenant have committed. Each write increases it in its own transaction, whichever process made
 * it, so what was read from the tenant's entities at `writes = n` still holds while `writes` is n.
 */
export const tenantWrites = (tenant: string): SQL =>
  sql`(SELECT writes::text FROM broker_tenants WHERE name = ${tenant})`;

const dialect = new PgDialect();

/** A key for a condition: its SQL text and parameters. */
export function keyOf(condition: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(condition);
  return JSON.stringify([text, params]);
}

/**
 * Values read from a tenant's entities (counts, where pages start), each with the `writes` it was
 * read at; the caller compares that with the current `writes` before using one. A value is also
 * dropped after `ttlMs`, in case a process died between a commit and its increase of `writes`.
 */
export class Remembered<T> {
  private readonly entries = new Map<string, { writes: string; value: T; until: number }>();

  constructor(
    private readonly max = 500,
    private readonly ttlMs = 60_000,
  ) {}

  get(key: string): { writes: string; value: T } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() < entry.until) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps a value read at `writes`; nothing when the tenant has no row (never written). */
  set(key: string, writes: string | null | undefined, value: T): void {
    this.entries.delete(key);
    if (writes == null) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { writes, value, until: Date.now() + this.ttlMs });
  }
}
