import { sql, type SQL } from "drizzle-orm";
import { filterMatches } from "./matching.ts";
import { enqueue } from "./notifier.ts";
import type { BrokerDatabase, EntityStore } from "./storage.ts";
import type { StoredSubscription } from "./subscription-model.ts";
import { rowsOf } from "./subscription-store.ts";

/** Most entities one periodic notification carries. */
const MAX_ENTITIES = 1000;

/**
 * Periodic subscriptions (timeInterval, 5.8.1): each round claims the subscriptions whose
 * next_periodic_at has come (moving it one interval on, in the same statement, so that one
 * process only takes each), and enqueues a notification with the entities that match now.
 */
export function periodicNotifications(db: BrokerDatabase, store: EntityStore) {
  return async (now: Date): Promise<boolean> => {
    const at = now.toISOString();
    const due = rowsOf<{ tenant: string; body: StoredSubscription }>(
      await db.execute(sql`
        UPDATE broker_subscriptions SET next_periodic_at = ${at}::timestamptz + time_interval * interval '1 second'
        WHERE (tenant, id) IN (
          SELECT tenant, id FROM broker_subscriptions
          WHERE time_interval IS NOT NULL AND is_active AND (expires_at IS NULL OR expires_at > ${at}::timestamptz)
            AND (next_periodic_at IS NULL OR next_periodic_at <= ${at}::timestamptz)
          LIMIT 20 FOR UPDATE SKIP LOCKED)
        RETURNING tenant, body`),
    );
    for (const { tenant, body: sub } of due) {
      const selectors: SQL[] = (sub.entities ?? []).map((s) => {
        const parts = [sql`types @> ARRAY[${s.type}]::text[]`];
        if (s.id !== undefined) parts.push(sql`id = ${s.id}`);
        else if (s.idPattern !== undefined) parts.push(sql`id ~ ${s.idPattern}`);
        return sql`(${sql.join(parts, sql` AND `)})`;
      });
      const where = selectors.length ? [sql`(${sql.join(selectors, sql` OR `)})`] : [];
      const candidates = await store.select(tenant, {
        where,
        limit: sub.q || sub.geoQ ? undefined : MAX_ENTITIES,
      });
      const data = candidates.filter((e) => filterMatches(sub, e)).slice(0, MAX_ENTITIES);
      if (data.length) await enqueue(db, [{ tenant, subscriptionId: sub.id, payload: { data } }], at);
    }
    return due.length > 0;
  };
}
