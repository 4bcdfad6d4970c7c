import { writtenInstances, type Change, type ChangeListener } from "./changes.ts";
import type { BrokerDatabase } from "./storage.ts";
import type { HistoryEntity, TemporalStore } from "./temporal-store.ts";

/**
 * The change listener that writes the temporal history: the attribute instances each change wrote
 * (create, append, update, partial update, replace, merge, batch operations) become one row of
 * broker_history_writes per entity, in the transaction of the change, one statement per batch. Deleting
 * an entity or an attribute keeps its history (as Scorpio does); DELETE /temporal/entities/{id}
 * removes it.
 */
export class History implements ChangeListener {
  constructor(private readonly temporal: TemporalStore) {}

  async onChanges(tx: BrokerDatabase, tenant: string, changes: Change[], now: string): Promise<void> {
    const entities: HistoryEntity[] = [];
    for (const change of changes) {
      const after = change.after;
      if (!after) continue;
      const written = writtenInstances(change);
      const typesChanged = !change.before || change.before.types.join("\n") !== after.types.join("\n");
      if (written.length === 0 && !typesChanged) continue;
      entities.push({
        id: after.id,
        types: after.types,
        written: written.map(({ attribute, instance }) => [attribute, instance]),
      });
    }
    await this.temporal.record(tx, tenant, entities, now);
  }
}
