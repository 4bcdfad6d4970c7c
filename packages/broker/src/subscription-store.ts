import { sql } from "drizzle-orm";
import type { BrokerDatabase } from "./storage.ts";
import type { DeliveryStatus, StoredSubscription } from "./subscription-model.ts";

/** Reads and writes broker_subscriptions (see migrations.ts). */
export interface SubscriptionRow {
  tenant: string;
  subscription: StoredSubscription;
  delivery: DeliveryStatus;
  createdAt: string;
  modifiedAt: string;
}

interface Row {
  tenant: string;
  body: StoredSubscription;
  delivery_status: "ok" | "failed" | null;
  times_sent: number;
  times_failed: number;
  last_notification: string | Date | null;
  last_success: string | Date | null;
  last_failure: string | Date | null;
  created_at: string | Date;
  modified_at: string | Date;
}

const iso = (v: string | Date) => new Date(v).toISOString();
const isoOrUndefined = (v: string | Date | null) => (v === null ? undefined : iso(v));
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const columns = sql`tenant, body, delivery_status, times_sent, times_failed, last_notification, last_success, last_failure, created_at, modified_at`;

function toRow(r: Row): SubscriptionRow {
  return {
    tenant: r.tenant,
    subscription: r.body,
    delivery: {
      status: r.delivery_status ?? undefined,
      timesSent: Number(r.times_sent),
      timesFailed: Number(r.times_failed),
      lastNotification: isoOrUndefined(r.last_notification),
      lastSuccess: isoOrUndefined(r.last_success),
      lastFailure: isoOrUndefined(r.last_failure),
    },
    createdAt: iso(r.created_at),
    modifiedAt: iso(r.modified_at),
  };
}

/** The scheduling columns derived from the definition. */
const derived = (s: StoredSubscription) => ({
  isActive: s.isActive,
  expiresAt: s.expiresAt ?? null,
  throttling: s.throttling ?? null,
  timeInterval: s.timeInterval ?? null,
});

export class SubscriptionStore {
  constructor(private readonly db: BrokerDatabase) {}

  /** Inserts; false when the id exists in the tenant. */
  async insert(tenant: string, s: StoredSubscription, now: string): Promise<boolean> {
    const d = derived(s);
    const rows = rowsOf(
      await this.db.execute(sql`
        INSERT INTO broker_subscriptions (tenant, id, body, is_active, expires_at, throttling, time_interval, created_at, modified_at)
        VALUES (${tenant}, ${s.id}, ${JSON.stringify(s)}::jsonb, ${d.isActive}, ${d.expiresAt}::timestamptz,
                ${d.throttling}::double precision, ${d.timeInterval}::double precision, ${now}::timestamptz, ${now}::timestamptz)
        ON CONFLICT (tenant, id) DO NOTHING RETURNING id`),
    );
    return rows.length > 0;
  }

  async get(tenant: string, id: string): Promise<SubscriptionRow | undefined> {
    const rows = rowsOf<Row>(
      await this.db.execute(
        sql`SELECT ${columns} FROM broker_subscriptions WHERE tenant = ${tenant} AND id = ${id}`,
      ),
    );
    return rows[0] && toRow(rows[0]);
  }

  async list(tenant: string, limit: number, offset: number): Promise<SubscriptionRow[]> {
    const rows = rowsOf<Row>(
      await this.db.execute(
        sql`SELECT ${columns} FROM broker_subscriptions WHERE tenant = ${tenant} ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`,
      ),
    );
    return rows.map(toRow);
  }

  async count(tenant: string): Promise<number> {
    const rows = rowsOf<{ n: number }>(
      await this.db.execute(
        sql`SELECT count(*)::int AS n FROM broker_subscriptions WHERE tenant = ${tenant}`,
      ),
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Replaces the definition; a changed timeInterval restarts the periodic schedule. False when absent. */
  async update(tenant: string, s: StoredSubscription, now: string): Promise<boolean> {
    const d = derived(s);
    const rows = rowsOf(
      await this.db.execute(sql`
        UPDATE broker_subscriptions SET body = ${JSON.stringify(s)}::jsonb, is_active = ${d.isActive},
          expires_at = ${d.expiresAt}::timestamptz, throttling = ${d.throttling}::double precision,
          time_interval = ${d.timeInterval}::double precision, next_periodic_at = NULL,
          modified_at = ${now}::timestamptz
        WHERE tenant = ${tenant} AND id = ${s.id} RETURNING id`),
    );
    return rows.length > 0;
  }

  /** Deletes the subscription and its pending notifications; false when absent. */
  async remove(tenant: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = rowsOf(
        await tx.execute(
          sql`DELETE FROM broker_subscriptions WHERE tenant = ${tenant} AND id = ${id} RETURNING id`,
        ),
      );
      await tx.execute(
        sql`DELETE FROM broker_notifications WHERE tenant = ${tenant} AND subscription_id = ${id}`,
      );
      return rows.length > 0;
    });
  }

  /** Active, unexpired, change-triggered subscriptions of a tenant (read inside the writing transaction). */
  async matchable(tenant: string, db: BrokerDatabase = this.db): Promise<StoredSubscription[]> {
    const rows = rowsOf<{ body: StoredSubscription }>(
      await db.execute(sql`
        SELECT body FROM broker_subscriptions
        WHERE tenant = ${tenant} AND is_active AND time_interval IS NULL
          AND (expires_at IS NULL OR expires_at > now())`),
    );
    return rows.map((r) => r.body);
  }
}
