import { sql } from "drizzle-orm";
import type { FederationOptions } from "./federation.ts";
import type { StoredRegistration } from "./registration-model.ts";
import type { BrokerDatabase } from "./storage.ts";
import type { DeliveryStatus, StoredSubscription } from "./subscription-model.ts";
import { rowsOf } from "./subscription-store.ts";

/** Reads and writes broker_csource_registrations and broker_csource_subscriptions (migration 0006). */
export interface Stored<T> {
  body: T;
  createdAt: string;
  modifiedAt: string;
}

export interface StoredCsourceSubscription extends Stored<StoredSubscription> {
  delivery: DeliveryStatus;
}

interface Row<T> {
  body: T;
  created_at: string | Date;
  modified_at: string | Date;
  delivery_status?: "ok" | "failed" | null;
  times_sent?: number;
  times_failed?: number;
  last_notification?: string | Date | null;
  last_success?: string | Date | null;
  last_failure?: string | Date | null;
}

const iso = (v: string | Date) => new Date(v).toISOString();
const isoOrUndefined = (v: string | Date | null | undefined) => (v ? iso(v) : undefined);
const stored = <T>(r: Row<T>): Stored<T> => ({
  body: r.body,
  createdAt: iso(r.created_at),
  modifiedAt: iso(r.modified_at),
});

/** One of the two tables: both hold a JSON body by tenant and id, oldest first. */
class BodyTable<T extends { id: string }> {
  constructor(
    protected readonly db: BrokerDatabase,
    private readonly table: "broker_csource_registrations" | "broker_csource_subscriptions",
  ) {}

  protected get name() {
    return sql.raw(this.table);
  }

  /** Inserts; false when the id exists in the tenant. */
  async insert(tenant: string, body: T, now: string): Promise<boolean> {
    const rows = rowsOf(
      await this.db.execute(sql`
        INSERT INTO ${this.name} (tenant, id, body, created_at, modified_at)
        VALUES (${tenant}, ${body.id}, ${JSON.stringify(body)}::jsonb, ${now}::timestamptz, ${now}::timestamptz)
        ON CONFLICT (tenant, id) DO NOTHING RETURNING id`),
    );
    return rows.length > 0;
  }

  protected async rows(tenant: string, id?: string): Promise<Array<Row<T>>> {
    return rowsOf<Row<T>>(
      await this.db.execute(sql`
        SELECT * FROM ${this.name} WHERE tenant = ${tenant}
        ${id === undefined ? sql`` : sql`AND id = ${id}`} ORDER BY created_at, id`),
    );
  }

  async get(tenant: string, id: string): Promise<Stored<T> | undefined> {
    const row = (await this.rows(tenant, id))[0];
    return row && stored(row);
  }

  /** Every row of the tenant, oldest first (a tenant's registrations are matched in memory). */
  async all(tenant: string): Promise<Array<Stored<T>>> {
    return (await this.rows(tenant)).map(stored);
  }

  /** Replaces the body; undefined when absent, else the previous body. */
  async update(tenant: string, body: T, now: string): Promise<T | undefined> {
    const rows = rowsOf<{ body: T }>(
      await this.db.execute(sql`
        UPDATE ${this.name} AS t SET body = ${JSON.stringify(body)}::jsonb, modified_at = ${now}::timestamptz
        FROM (SELECT body FROM ${this.name} WHERE tenant = ${tenant} AND id = ${body.id} FOR UPDATE) AS old
        WHERE t.tenant = ${tenant} AND t.id = ${body.id} RETURNING old.body`),
    );
    return rows[0]?.body;
  }

  /** Deletes; the removed body, or undefined when absent. */
  async remove(tenant: string, id: string): Promise<T | undefined> {
    const rows = rowsOf<{ body: T }>(
      await this.db.execute(
        sql`DELETE FROM ${this.name} WHERE tenant = ${tenant} AND id = ${id} RETURNING body`,
      ),
    );
    return rows[0]?.body;
  }
}

export class RegistrationStore extends BodyTable<StoredRegistration> {
  /**
   * The tenant's registrations as the federation hooks read them on every query and retrieval, kept
   * for a second: this process's own writes clear it at once, another process's (several brokers on
   * one PostgreSQL) are seen within the second. Saves a round trip on every read.
   */
  private readonly recent = new Map<string, { until: number; rows: Promise<StoredRegistration[]> }>();

  constructor(db: BrokerDatabase) {
    super(db, "broker_csource_registrations");
  }

  override async insert(tenant: string, body: StoredRegistration, now: string): Promise<boolean> {
    this.recent.delete(tenant);
    return super.insert(tenant, body, now);
  }

  override async update(tenant: string, body: StoredRegistration, now: string) {
    this.recent.delete(tenant);
    return super.update(tenant, body, now);
  }

  override async remove(tenant: string, id: string) {
    this.recent.delete(tenant);
    return super.remove(tenant, id);
  }

  /** all(), from the last second's read when there is one. */
  forReads(tenant: string): Promise<StoredRegistration[]> {
    const now = Date.now();
    const hit = this.recent.get(tenant);
    if (hit && hit.until > now) return hit.rows;
    const rows = this.all(tenant).then((list) => list.map((r) => r.body));
    rows.catch(() => this.recent.delete(tenant));
    if (this.recent.size > 1000) this.recent.clear();
    this.recent.set(tenant, { until: now + 1000, rows });
    return rows;
  }
}

export class CsourceSubscriptionStore extends BodyTable<StoredSubscription> {
  constructor(db: BrokerDatabase) {
    super(db, "broker_csource_subscriptions");
  }

  async getWithDelivery(tenant: string, id: string): Promise<StoredCsourceSubscription | undefined> {
    const row = (await this.rows(tenant, id))[0];
    return row && withDelivery(row);
  }

  async allWithDelivery(tenant: string): Promise<StoredCsourceSubscription[]> {
    return (await this.rows(tenant)).map(withDelivery);
  }

  /** Records one delivery attempt's outcome (5.2.12 NotificationParams status members). */
  async delivered(tenant: string, id: string, ok: boolean, at: string): Promise<void> {
    await this.db.execute(sql`
      UPDATE broker_csource_subscriptions SET
        delivery_status = ${ok ? "ok" : "failed"},
        times_sent = times_sent + 1,
        times_failed = times_failed + ${ok ? 0 : 1},
        last_notification = ${at}::timestamptz,
        last_success = ${ok ? sql`${at}::timestamptz` : sql`last_success`},
        last_failure = ${ok ? sql`last_failure` : sql`${at}::timestamptz`}
      WHERE tenant = ${tenant} AND id = ${id}`);
  }
}

function withDelivery(r: Row<StoredSubscription>): StoredCsourceSubscription {
  return {
    ...stored(r),
    delivery: {
      status: r.delivery_status ?? undefined,
      timesSent: Number(r.times_sent ?? 0),
      timesFailed: Number(r.times_failed ?? 0),
      lastNotification: isoOrUndefined(r.last_notification),
      lastSuccess: isoOrUndefined(r.last_success),
      lastFailure: isoOrUndefined(r.last_failure),
    },
  };
}

/**
 * What registrations add to a broker, kept beside it (not in the Broker record, which the other
 * route modules share) and found by the federation hooks of queries and retrievals.
 */
export interface ContextSources {
  registrations: RegistrationStore;
  csourceSubscriptions: CsourceSubscriptionStore;
  /** This broker's name in Via headers (loop detection), one per broker instance. */
  identity: string;
  /** The bounds of distributed reads (federation.ts). */
  federation: FederationOptions;
  /** How long a registration subscription's endpoint may take to answer. */
  notificationTimeoutMs: number;
}

const attached = new WeakMap<object, ContextSources>();

export function attachContextSources(broker: object, sources: ContextSources): void {
  attached.set(broker, sources);
}

/** The broker's registrations; undefined for a broker mounted without them. */
export const contextSourcesOf = (broker: object): ContextSources | undefined => attached.get(broker);
