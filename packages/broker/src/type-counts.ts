import { sql } from "drizzle-orm";
import type { Change, ChangeListener } from "./changes.ts";
import { toPgArray, type BrokerDatabase } from "./storage.ts";

/**
 * How many entities of a tenant have each (expanded) type: broker_type_counts (migration
 * broker_0009), kept by every entity write in its own transaction, so that a query by type alone
 * reads its NGSILD-Results-Count in one row whichever process wrote last, where counting the rows
 * took 2 s at a million entities on PostgreSQL. The rows of a write's types are updated in the
 * order of their names, so that two writes lock them in the same order (no deadlock), and held
 * until the commit, as the tenant's `writes` row is. The store reads them (EntityStore.countOfType).
 */
export class TypeCounts implements ChangeListener {
  async onChanges(tx: BrokerDatabase, tenant: string, changes: Change[]): Promise<void> {
    await countTypes(tx, tenant, changes, !changes.some((c) => c.unsure));
  }
}

/** By type, how many entities the changes gave it (+1) or took from it (-1); types with 0 are left out. */
export function typeDeltas(changes: Change[]): Map<string, number> {
  const deltas = new Map<string, number>();
  const add = (types: string[] | undefined, by: number) => {
    for (const type of new Set(types)) deltas.set(type, (deltas.get(type) ?? 0) + by);
  };
  for (const { before, after } of changes) {
    add(after?.types, 1);
    add(before?.types, -1);
  }
  for (const [type, n] of deltas) if (n === 0) deltas.delete(type);
  return deltas;
}

/** Every type the changes touch, before or after. */
const touchedTypes = (changes: Change[]) =>
  [...new Set(changes.flatMap((c) => [...(c.before?.types ?? []), ...(c.after?.types ?? [])]))].sort();

/**
 * Applies a committed-to-be write's changes to the counts. `exact: false` when the write cannot
 * tell what existed before (an entity it took for new was created meanwhile by another
 * transaction, which it then updated): the counts of the types it touched are taken again, after
 * their rows are locked so that no other write's increment is lost.
 */
async function countTypes(
  tx: BrokerDatabase,
  tenant: string,
  changes: Change[],
  exact: boolean,
): Promise<void> {
  if (!exact) {
    const types = touchedTypes(changes);
    if (types.length === 0) return;
    const list = sql`${toPgArray(types)}::text[]`;
    await tx.execute(
      sql`SELECT type FROM broker_type_counts WHERE tenant = ${tenant} AND type = ANY(${list}) ORDER BY type FOR UPDATE`,
    );
    await tx.execute(sql`
      INSERT INTO broker_type_counts (tenant, type, entities)
      SELECT ${tenant}, t.type,
             (SELECT count(*) FROM broker_entities e WHERE e.tenant = ${tenant} AND e.types @> ARRAY[t.type])
      FROM unnest(${list}) AS t(type) ORDER BY t.type
      ON CONFLICT (tenant, type) DO UPDATE SET entities = excluded.entities`);
    return;
  }
  const deltas = [...typeDeltas(changes)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (deltas.length === 0) return;
  await tx.execute(sql`
    INSERT INTO broker_type_counts (tenant, type, entities)
    SELECT ${tenant}, d.type, d.n
    FROM unnest(${toPgArray(deltas.map(([t]) => t))}::text[], ${`{${deltas.map(([, n]) => n).join(",")}}`}::bigint[])
      WITH ORDINALITY AS d(type, n, k)
    ORDER BY d.k
    ON CONFLICT (tenant, type) DO UPDATE SET entities = broker_type_counts.entities + excluded.entities`);
}
