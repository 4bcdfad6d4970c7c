import { writtenInstances, type Change, type ChangeListener } from "./changes.ts";
import type { BrokerDatabase } from "./storage.ts";
import type { HistoryInstance, TemporalStore } from "./temporal-store.ts";

/**
 * The change listener that writes the temporal history: every attribute instance a change wrote
 * (create, append, update, partial update, replace, merge, batch operations) becomes a row of
 * broker_attribute_instances in the transaction of the change, one statement per batch. Deleting
 * an entity or an attribute keeps its history (as Scorpio does); DELETE /temporal/entities/{id}
 * removes it.
 */
export class History implements ChangeListener {
  constructor(private readonly temporal: TemporalStore) {}

  async onChanges(tx: BrokerDatabase, tenant: string, changes: Change[], now: string): Promise<void> {
    const rows: HistoryInstance[] = [];
    const entities = new Map<string, { id: string; types: string[] }>();
    for (const change of changes) {
      const after = change.after;
      if (!after) continue;
      const written = writtenInstances(change);
      const typesChanged = !change.before || change.before.types.join("\n") !== after.types.join("\n");
      if (written.length === 0 && !typesChanged) continue;
      entities.set(after.id, { id: after.id, types: after.types });
      for (const { attribute, instance } of written)
        rows.push({ entityId: after.id, types: after.types, attribute, instance });
    }
    if (entities.size === 0) return;
    await this.temporal.register(tx, tenant, [...entities.values()], now, false);
    await this.temporal.append(tx, tenant, rows);
  }
}
