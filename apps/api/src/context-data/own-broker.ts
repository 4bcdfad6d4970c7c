import type { EntityReader } from "@orrery/broker";
import { ReadBatch } from "../storage/read-batch.ts";

/** The embedded broker of this process, read in-process once it is registered (app.ts). */
export interface OwnBroker {
  reader?: EntityReader;
}

/**
 * How many entity writes of a tenant of the embedded broker have committed, as its reader tells
 * (EntityReader.writes): what was read from the tenant's entities at a count still holds while the
 * count is the same. Undefined for a tenant never written to. The tenants asked at the same time
 * are read in one statement.
 */
export function ownBrokerWrites(reader: EntityReader, tenant: string): Promise<string | undefined> {
  let batch = batches.get(reader);
  if (!batch) {
    batch = new ReadBatch<string, string>((tenants) => reader.writes(tenants));
    batches.set(reader, batch);
  }
  return batch.load(tenant);
}

const batches = new WeakMap<EntityReader, ReadBatch<string, string>>();
