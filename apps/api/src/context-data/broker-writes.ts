import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../storage/database.ts";
import { ReadBatch } from "../storage/read-batch.ts";

/**
 * How many entity writes of a tenant of the embedded broker have committed: `broker_tenants.writes`
 * (packages/broker, its migration 0004), which every entity write raises in its own transaction,
 * whichever process made it. What was read from the tenant's entities at a count still holds while
 * the count is the same. Undefined for a tenant never written to. The tenants asked at the same
 * time are read in one statement.
 */
export function embeddedBrokerWrites(db: Database, tenant: string): Promise<string | undefined> {
  let batch = batches.get(db);
  if (!batch) {
    batch = new ReadBatch<string, string>(async (tenants) => {
      const rows = rowsOf<{ name: string; writes: string }>(
        await db.execute(
          sql`SELECT name, writes::text AS writes FROM broker_tenants
               WHERE name = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(tenants)}::jsonb)))`,
        ),
      );
      return new Map(rows.map((r) => [r.name, r.writes]));
    });
    batches.set(db, batch);
  }
  return batch.load(tenant);
}

const batches = new WeakMap<Database, ReadBatch<string, string>>();
