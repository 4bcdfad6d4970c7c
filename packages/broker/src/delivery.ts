import { fetchOnce } from "./outgoing.ts";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { ContextResolver } from "./contexts.ts";
import type { NotificationPayload } from "./notifier.ts";
import { renderEntity, renderOptions } from "./representation.ts";
import type { BrokerDatabase } from "./storage.ts";
import type { StoredSubscription } from "./subscription-model.ts";
import { rowsOf } from "./subscription-store.ts";

/**
 * The delivery worker: takes due rows from the broker_notifications outbox and POSTs them to
 * their subscription's endpoint (ETSI GS CIM 009 v1.8, 5.3 Notification data type, 6.3.x binding).
 *
 * - Claiming: one UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED) moves a batch's
 *   next_attempt_at forward by a lease, so that several processes on one PostgreSQL never take
 *   the same row; a process that dies mid-delivery leaves rows that come due again after the lease.
 * - Failure (timeout, refused, non-2xx): retried with exponential back-off until maxAttempts, then
 *   dropped; the subscription's delivery status says so either way.
 * - Throttling: an atomic UPDATE of last_notification is the gate; rows that arrive inside the
 *   window wait until its end and are then coalesced into one notification (latest state per entity).
 * - Periodic subscriptions (timeInterval): their next_periodic_at is claimed the same way and a
 *   notification with the current matching entities is enqueued (see periodic.ts).
 * - Latency: the writer wakes the worker after its commit; otherwise it polls.
 */
export interface DeliveryOptions {
  /** Poll interval when nothing woke the worker. Default 1000 ms. */
  pollIntervalMs: number;
  /** Time allowed to an endpoint to answer. Default 5000 ms. */
  timeoutMs: number;
  /** Attempts before a notification is dropped. Default 5. */
  maxAttempts: number;
  /** First retry delay, doubled per attempt up to retryMaxMs. Defaults 1000 / 60000 ms. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Rows claimed per round. Default 50. */
  batchSize: number;
  /** Endpoints the host serves in its own process, delivered there without HTTP (none by default). */
  local?: LocalDelivery;
}

/**
 * What the host that mounts the broker takes in its own process (the API's live channel): a
 * notification to one of its own endpoints never travels over HTTP, so nobody who can read the
 * subscription (and its endpoint) can forge one by POSTing to that address.
 */
export interface LocalDelivery {
  /**
   * Offered each notification before it is sent: `undefined`, not a local endpoint (sent over
   * HTTP); `true`, taken; `false`, a local endpoint with no receiver (a failed delivery);
   * `"elsewhere"`, the receiver is another process of the host sharing this database, whose own
   * worker takes it (given back to the outbox, due again at once; a failure after many tries).
   */
  deliver(
    endpoint: string,
    notification: Record<string, unknown>,
    receiverInfo: Record<string, string>,
  ): boolean | "elsewhere" | undefined;
}

/**
 * A notification for another process of the host is due again this soon, so that its worker takes
 * it; after this many tries (an address no process owns) it is a failed delivery.
 */
const handOverDelayMs = 200;
const handOverAttempts = 50;

export const defaultDeliveryOptions: DeliveryOptions = {
  pollIntervalMs: 1000,
  timeoutMs: 5000,
  maxAttempts: 5,
  retryBaseMs: 1000,
  retryMaxMs: 60_000,
  batchSize: 50,
};

interface SubscriptionState {
  body: StoredSubscription;
  throttling: number | null;
  is_active: boolean;
  expires_at: string | Date | null;
}

/** A claimed row, with its subscription's state (none when the subscription was deleted). */
type Claimed = {
  id: string;
  tenant: string;
  subscription_id: string;
  payload: NotificationPayload;
  attempts: number;
} & (SubscriptionState | { [K in keyof SubscriptionState]: null });

interface Logger {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

const CONTEXT_REL = "http://www.w3.org/ns/json-ld#context";
const ms = (v: string | Date) => new Date(v).getTime();
const idList = (rows: Claimed[]) => sql`${`{${rows.map((r) => r.id).join(",")}}`}::bigint[]`;

export class DeliveryWorker {
  private running = false;
  private loop?: Promise<void>;
  private woken = false;
  private wakeUp?: () => void;
  private readonly stopping = new AbortController();
  /** Extra work per round (periodic subscriptions); returns whether it did something. */
  periodic?: (now: Date) => Promise<boolean>;

  constructor(
    private readonly db: BrokerDatabase,
    private readonly contexts: ContextResolver,
    private readonly options: DeliveryOptions,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the current round; deliveries in flight are aborted and their rows released. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping.abort();
    this.wake();
    await this.loop;
  }

  wake = (): void => {
    this.woken = true;
    this.wakeUp?.();
  };

  private async run(): Promise<void> {
    while (this.running) {
      let busy = false;
      try {
        this.woken = false;
        const now = new Date();
        // What is due first (a write's notification, woken by its commit): the periodic
        // subscriptions' notifications go out at the next round, which comes at once.
        const delivered = await this.round(now);
        const periodic = this.periodic ? await this.periodic(now) : false;
        busy = delivered || periodic;
      } catch (error) {
        if (!this.running) break;
        this.log.warn({ err: error }, "NGSI-LD notification worker round failed; retrying");
      }
      if (!busy && this.running && !this.woken) await this.idle();
    }
  }

  /** Sleeps until woken, the next row is due, or the poll interval has passed. */
  private async idle(): Promise<void> {
    let wait = this.options.pollIntervalMs;
    try {
      const [next] = rowsOf<{ due: string | Date | null }>(
        await this.db.execute(sql`
          SELECT least((SELECT min(next_attempt_at) FROM broker_notifications),
                       (SELECT min(next_periodic_at) FROM broker_subscriptions WHERE time_interval IS NOT NULL AND is_active)) AS due`),
      );
      if (next?.due) wait = Math.max(0, Math.min(wait, ms(next.due) - Date.now() + 1));
    } catch {
      // the database is closing or failing: wait the poll interval
    }
    if (wait === 0 || this.woken || !this.running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
    this.wakeUp = undefined;
  }

  /** Claims a batch of due rows and delivers them; whether there was any. */
  private async round(now: Date): Promise<boolean> {
    const lease = new Date(now.getTime() + this.options.timeoutMs + 30_000).toISOString();
    // The subscriptions' state comes with the rows: one statement between a write's commit and
    // its notification (bench/live).
    const claimed = rowsOf<Claimed>(
      await this.db.execute(sql`
        WITH claimed AS (
          UPDATE broker_notifications SET attempts = attempts + 1, next_attempt_at = ${lease}::timestamptz
          WHERE id IN (SELECT id FROM broker_notifications WHERE next_attempt_at <= ${now.toISOString()}::timestamptz
                       ORDER BY next_attempt_at, id LIMIT ${this.options.batchSize} FOR UPDATE SKIP LOCKED)
          RETURNING id, tenant, subscription_id, payload, attempts)
        SELECT c.id::text AS id, c.tenant, c.subscription_id, c.payload, c.attempts,
               s.body, s.throttling, s.is_active, s.expires_at
        FROM claimed c LEFT JOIN broker_subscriptions s ON s.tenant = c.tenant AND s.id = c.subscription_id`),
    );
    if (claimed.length === 0) return false;
    const groups = new Map<string, Claimed[]>();
    for (const row of claimed.sort((a, b) => Number(a.id) - Number(b.id))) {
      const key = JSON.stringify([row.tenant, row.subscription_id]);
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    await Promise.all([...groups.values()].map((rows) => this.deliverGroup(rows)));
    return true;
  }

  private async deliverGroup(rows: Claimed[]): Promise<void> {
    const { tenant, subscription_id: id } = rows[0]!;
    const state = rows[0]!.body === null ? undefined : (rows[0] as SubscriptionState);
    try {
      if (!state || !state.is_active || (state.expires_at && ms(state.expires_at) <= Date.now())) {
        // Deleted, paused or expired since: what was pending is not sent.
        await this.db.execute(sql`DELETE FROM broker_notifications WHERE id = ANY(${idList(rows)})`);
        return;
      }
      if (state.throttling) {
        const now = new Date();
        const opened = rowsOf<{ last: string | Date | null }>(
          await this.db.execute(sql`
            UPDATE broker_subscriptions SET last_notification = ${now.toISOString()}::timestamptz
            WHERE tenant = ${tenant} AND id = ${id}
              AND (last_notification IS NULL OR last_notification + ${state.throttling} * interval '1 second' <= ${now.toISOString()}::timestamptz)
            RETURNING last_notification AS last`),
        );
        if (opened.length === 0) {
          const [current] = rowsOf<{ next: string | Date }>(
            await this.db.execute(sql`
              SELECT last_notification + ${state.throttling} * interval '1 second' AS next
              FROM broker_subscriptions WHERE tenant = ${tenant} AND id = ${id}`),
          );
          await this.db.execute(sql`
            UPDATE broker_notifications SET attempts = attempts - 1,
              next_attempt_at = ${new Date(current ? ms(current.next) : Date.now() + 1000).toISOString()}::timestamptz
            WHERE id = ANY(${idList(rows)})`);
          return;
        }
        await this.deliver(state.body, tenant, rows, coalesce(rows));
        return;
      }
      for (const [i, row] of rows.entries()) {
        if (!this.running) return this.release(rows.slice(i));
        await this.deliver(state.body, tenant, [row], row.payload);
      }
    } catch (error) {
      if (!this.running) return this.release(rows).catch(() => undefined);
      this.log.warn({ err: error, subscription: id }, "NGSI-LD notification delivery failed");
      await this.failed(rows, id, tenant, String(error)).catch(() => undefined);
    }
  }

  /** Sends one notification for the rows; records the outcome. */
  private async deliver(
    sub: StoredSubscription,
    tenant: string,
    rows: Claimed[],
    payload: NotificationPayload,
  ): Promise<void> {
    let problem: string | undefined;
    // One controller per delivery, aborted by a plain timer or by stop(): with AbortSignal.any over
    // AbortSignal.timeout, a delivery to a silent endpoint once hung past its timeout on Node 20.
    const abort = new AbortController();
    const timer = patientTimer(this.options.timeoutMs, () =>
      abort.abort(new Error(`no answer within ${this.options.timeoutMs} ms`)),
    );
    const onStop = () => abort.abort(new Error("the broker is stopping"));
    this.stopping.signal.addEventListener("abort", onStop);
    try {
      const { body, headers, notification } = await this.render(sub, tenant, payload);
      const receiverInfo = Object.fromEntries(
        (sub.notification.endpoint.receiverInfo ?? []).map(({ key, value }) => [key, value]),
      );
      const taken = this.options.local?.deliver(sub.notification.endpoint.uri, notification, receiverInfo);
      if (taken === "elsewhere") return await this.handOver(rows, sub.id, tenant);
      if (taken === false) throw new Error("no receiver of this process listens at this address");
      if (taken === true) return await this.succeeded(rows, sub, tenant);
      const status = await fetchOnce(
        sub.notification.endpoint.uri,
        { method: "POST", headers, body, redirect: "manual", signal: abort.signal },
        async (response) => {
          await response.arrayBuffer().catch(() => undefined);
          return response.status;
        },
      );
      if (status < 200 || status > 299) problem = `the endpoint answered ${status}`;
    } catch (error) {
      if (this.stopping.signal.aborted) return this.release(rows);
      problem = error instanceof Error ? `${error.message}${causeOf(error)}` : String(error);
    } finally {
      timer.clear();
      this.stopping.signal.removeEventListener("abort", onStop);
    }
    if (problem === undefined) return this.succeeded(rows, sub, tenant);
    this.log.debug({ subscription: sub.id, problem }, "NGSI-LD notification not delivered");
    await this.failed(rows, sub.id, tenant, problem);
  }

  private async succeeded(rows: Claimed[], sub: StoredSubscription, tenant: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db.execute(sql`DELETE FROM broker_notifications WHERE id = ANY(${idList(rows)})`);
    await this.db.execute(sql`
      UPDATE broker_subscriptions SET times_sent = times_sent + 1, last_notification = ${now}::timestamptz,
        last_success = ${now}::timestamptz, delivery_status = 'ok'
      WHERE tenant = ${tenant} AND id = ${sub.id}`);
  }

  private async failed(rows: Claimed[], id: string, tenant: string, _problem: string): Promise<void> {
    const now = new Date();
    const attempts = Math.max(...rows.map((r) => r.attempts));
    if (attempts >= this.options.maxAttempts)
      await this.db.execute(sql`DELETE FROM broker_notifications WHERE id = ANY(${idList(rows)})`);
    else {
      const delay = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** (attempts - 1));
      await this.db.execute(sql`
        UPDATE broker_notifications SET next_attempt_at = ${new Date(now.getTime() + delay).toISOString()}::timestamptz
        WHERE id = ANY(${idList(rows)})`);
    }
    await this.db.execute(sql`
      UPDATE broker_subscriptions SET times_sent = times_sent + 1, times_failed = times_failed + 1,
        last_notification = ${now.toISOString()}::timestamptz, last_failure = ${now.toISOString()}::timestamptz,
        delivery_status = 'failed'
      WHERE tenant = ${tenant} AND id = ${id}`);
  }

  /** Gives claimed rows back (the process is stopping): due at once, the attempt not counted. */
  private async release(rows: Claimed[]): Promise<void> {
    await this.db.execute(sql`
      UPDATE broker_notifications SET attempts = greatest(0, attempts - 1), next_attempt_at = ${new Date().toISOString()}::timestamptz
      WHERE id = ANY(${idList(rows)})`);
  }

  /** Leaves rows to the worker of another process of the host (LocalDelivery "elsewhere"). */
  private async handOver(rows: Claimed[], id: string, tenant: string): Promise<void> {
    if (Math.max(...rows.map((r) => r.attempts)) >= handOverAttempts)
      return this.failed(rows, id, tenant, "no process of the host took it");
    await this.db.execute(sql`
      UPDATE broker_notifications SET next_attempt_at = ${new Date(Date.now() + handOverDelayMs).toISOString()}::timestamptz
      WHERE id = ANY(${idList(rows)})`);
  }

  /** The Notification (5.3) body and headers, compacted with the subscription's context. */
  private async render(sub: StoredSubscription, tenant: string, payload: NotificationPayload) {
    const contextValue = sub.jsonldContext ?? sub.context;
    const ctx = await this.contexts.compile(contextValue);
    const n = sub.notification;
    const options = renderOptions(
      n.sysAttrs ? "sysAttrs" : undefined,
      n.format,
      n.attributes ? new Set(n.attributes) : undefined,
    );
    const data = payload.data.map((e) => {
      if (e.deletedAt) {
        const types = e.types.map((t) => ctx.compact(t));
        return { id: e.id, type: types.length === 1 ? types[0] : types, deletedAt: e.deletedAt };
      }
      return renderEntity(e, ctx, options);
    });
    const notification: Record<string, unknown> = {
      id: `urn:ngsi-ld:Notification:${randomUUID()}`,
      type: "Notification",
      subscriptionId: sub.id,
      notifiedAt: new Date().toISOString(),
      data,
    };
    if (payload.triggerReason) notification.triggerReason = payload.triggerReason;
    const headers: Record<string, string> = {};
    for (const { key, value } of n.endpoint.receiverInfo ?? []) headers[key] = value;
    if (tenant) headers["NGSILD-Tenant"] = tenant;
    if (n.endpoint.accept === "application/ld+json") {
      headers["content-type"] = "application/ld+json";
      const context = ctx.value ?? ctx.linkUrl;
      notification["@context"] = context;
      // Each entity is a JSON-LD document of its own to the receiver (as the ETSI suite reads 5.3.1).
      for (const entity of data) (entity as Record<string, unknown>)["@context"] = context;
    } else {
      headers["content-type"] = "application/json";
      headers.link = `<${ctx.linkUrl}>; rel="${CONTEXT_REL}"; type="application/ld+json"`;
    }
    return { body: JSON.stringify(notification), headers, notification };
  }
}

/** Lateness of a timer past which the process is taken to have been held (not merely busy). */
const HELD_MS = 50;

/**
 * A timeout that counts the time this process could read an answer, not the time it was held: a
 * timer that fires late (the event loop held by in-process PGlite queries, a long GC) fires before
 * the answer already waiting in the socket is read, and a notification the endpoint took would be
 * sent again. When it fires late, the time it was held is given again (up to `ms` each time, four
 * times the timeout in all), so the answer is read first; a silent endpoint still times out.
 */
function patientTimer(ms: number, fire: () => void): { clear(): void } {
  const start = performance.now();
  let deadline = start + ms;
  let timer: ReturnType<typeof setTimeout>;
  const check = () => {
    const now = performance.now();
    const late = now - deadline;
    if (late > HELD_MS && now - start < 4 * ms) {
      deadline = now + Math.min(late, ms);
      timer = setTimeout(check, deadline - now);
      return;
    }
    fire();
  };
  timer = setTimeout(check, ms);
  return { clear: () => clearTimeout(timer) };
}

/** Rows held back by throttling, as one notification: the latest state of each entity. */
function coalesce(rows: Claimed[]): NotificationPayload {
  const latest = new Map<string, NotificationPayload["data"][number]>();
  for (const row of rows) for (const e of row.payload.data) latest.set(e.id, e);
  const reasons = new Set(rows.map((r) => r.payload.triggerReason));
  return {
    triggerReason: reasons.size === 1 ? rows[0]!.payload.triggerReason : undefined,
    data: [...latest.values()],
  };
}

function causeOf(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? ` (${cause.message})` : "";
}
