import type { Change } from "./changes.ts";
import type { StoredEntity } from "./model.ts";

/** Whether an entity matches a query, decided in JS exactly as its SQL condition decides. */
export type EntityMatcher = (entity: StoredEntity) => boolean;

interface Entry {
  tenant: string;
  /** The tenant's `writes` (remembered.ts) the value holds at. */
  writes: bigint;
  value: number;
  until: number;
  matches?: EntityMatcher;
}

/**
 * Counts of queries (NGSILD-Results-Count), each remembered with the tenant's `writes` it holds at.
 * A count over a type + q query evaluates the query on every candidate row (90 ms over 100,000 on
 * PostgreSQL), and the console asks for it with every page, right after its own writes too. So a
 * write of this process that moved `writes` from n to n + 1 carries each count of its tenant held
 * at n forward to n + 1, by the changes it made: +1 for an entity that matches after and not
 * before, -1 the other way. The write's own transaction increased `writes` and held the tenant's
 * row until it committed, so no other write lies between n and n + 1. A count whose query has no
 * exact JS matcher, or held at another n (a write of another process came between), is dropped
 * and taken again.
 */
export class RememberedCounts {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly max = 500,
    private readonly ttlMs = 60_000,
  ) {}

  /** The count of a query if it holds at `writes` (the tenant's current value). */
  get(key: string, writes: string | null | undefined): number | undefined {
    const entry = this.entries.get(key);
    if (!entry || writes == null) return undefined;
    if (Date.now() >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.writes === BigInt(writes) ? entry.value : undefined;
  }

  /** Whether a count of this query is remembered at all (a cheap check before reading `writes`). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Keeps a count read at `writes`; nothing when the tenant has no row (never written). */
  set(
    key: string,
    tenant: string,
    writes: string | null | undefined,
    value: number,
    matches?: EntityMatcher,
  ): void {
    this.entries.delete(key);
    if (writes == null) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { tenant, writes: BigInt(writes), value, until: Date.now() + this.ttlMs, matches });
  }

  /** After a committed write of this process that moved the tenant's `writes` to `writes`. */
  advance(tenant: string, writes: string, changes: Change[]): void {
    const now = BigInt(writes);
    for (const [key, entry] of this.entries) {
      if (entry.tenant !== tenant || entry.writes >= now) continue;
      if (entry.writes !== now - 1n || !entry.matches) {
        this.entries.delete(key);
        continue;
      }
      const matches = entry.matches;
      let delta = 0;
      for (const { before, after } of changes)
        delta += (after && matches(after) ? 1 : 0) - (before && matches(before) ? 1 : 0);
      entry.value += delta;
      entry.writes = now;
    }
  }
}
