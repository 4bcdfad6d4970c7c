import { sql } from "drizzle-orm";
import type { Change, ChangeListener } from "./changes.ts";
import { matchChange } from "./matching.ts";
import type { StoredEntity } from "./model.ts";
import type { BrokerDatabase } from "./storage.ts";
import type { SubscriptionStore } from "./subscription-store.ts";

/** An enqueued notification: the entities (stored form) and why; rendered when delivered. */
export interface NotificationPayload {
  triggerReason?: string;
  data: Array<StoredEntity & { deletedAt?: string }>;
}

/** A row of the outbox to write: one per subscription and trigger reason in a transaction. */
export interface Outgoing {
  tenant: string;
  subscriptionId: string;
  payload: NotificationPayload;
}

export async function enqueue(db: BrokerDatabase, rows: Outgoing[], at?: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await db.execute(
      sql`INSERT INTO broker_notifications (tenant, subscription_id, payload, next_attempt_at) VALUES ${sql.join(
        chunk.map(
          (r) =>
            sql`(${r.tenant}, ${r.subscriptionId}, ${JSON.stringify(r.payload)}::jsonb, ${at ?? new Date().toISOString()}::timestamptz)`,
        ),
        sql`, `,
      )}`,
    );
  }
}

/**
 * The change listener that matches every entity change against the tenant's active subscriptions
 * and writes the notifications into broker_notifications in the same transaction (an outbox:
 * nothing is sent for a change that rolls back, nothing is lost when the process stops). After
 * the commit it wakes the delivery worker.
 */
export class Notifier implements ChangeListener {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly wake: () => void,
  ) {}

  async onChanges(tx: BrokerDatabase, tenant: string, changes: Change[], now: string) {
    const subs = await this.subscriptions.matchable(tenant, tx);
    if (subs.length === 0) return;
    const rows: Outgoing[] = [];
    for (const sub of subs) {
      const byReason = new Map<string, NotificationPayload["data"]>();
      for (const change of changes) {
        const reason = matchChange(sub, change);
        if (!reason) continue;
        const entity = change.after ?? { ...change.before!, attrs: {}, deletedAt: now };
        const list = byReason.get(reason) ?? [];
        list.push(entity);
        byReason.set(reason, list);
      }
      for (const [triggerReason, data] of byReason)
        rows.push({ tenant, subscriptionId: sub.id, payload: { triggerReason, data } });
    }
    if (rows.length === 0) return;
    await enqueue(tx, rows, now);
    return this.wake;
  }
}
