import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { NgsiLdError, type Entity, type NgsiLdClient, type Subscription } from "@orrery/ngsi-ld";
import { LIVE_MARK, LIVE_SUBSCRIPTION_PREFIX } from "@orrery/model";
import { problem } from "../problems.ts";

/**
 * What a live channel watches in a workspace's broker: one entity, or every entity of a type,
 * optionally only when some attributes change. `caller` keeps apart the channels of callers the
 * broker may answer differently (the digest of a SIOP-2 token); empty when the API's own grant speaks.
 */
export interface Watch {
  workspaceId: string;
  type: string;
  entityId?: string;
  attributes?: string[];
  caller?: string;
}

/** Someone listening on a channel: each notified entity, and the end of the channel when its subscription is lost. */
export interface Listener {
  change(entity: Entity): void;
  end(): void;
}

interface Logger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The marker of the broker subscriptions this API owns: their description starts with it (@orrery/model). */
export { LIVE_MARK };

/**
 * What a watch of whole entities is notified of (NGSI-LD 1.8, 5.2.12 notificationTrigger): the
 * default (attributes created or updated) misses deletions, so a screen would keep a deleted
 * entity, or a deleted attribute, until reloaded. A watch of some attributes (a WoT observation)
 * keeps the default: it only follows values. A broker older than 1.8 that refuses the member
 * (400) is subscribed again without it (deletions then show at the next refresh).
 */
export const ENTITY_TRIGGERS = [
  "entityCreated",
  "attributeCreated",
  "attributeUpdated",
  "attributeDeleted",
  "entityDeleted",
];

/** The path, under the API's address, where brokers deliver a channel's notifications. */
export const NOTIFY_PATH = "/api/live/notify/";

/**
 * The header (a receiverInfo of the channel's subscription, which NGSI-LD brokers send as a header
 * with each notification) that proves a notification comes from the broker: a second secret,
 * hidden from non-admins like the address. The embedded broker of this process is given none: it
 * delivers inside the process (deliverLocal), and the address takes nothing for those channels.
 */
export const PROOF_HEADER = "Orrery-Live-Proof";

export interface ChannelOptions {
  /** How long a channel stays after its last listener left (a long poll comes back, a page is reopened). */
  lingerMs: number;
  /** The subscription's expiresAt from now; renewed at half of it while the channel lives. */
  lifetimeMs: number;
  /**
   * How often a channel that never received a notification asks the broker whether its deliveries
   * fail (a broker that cannot reach the API at notifyBase); default 15 s.
   */
  checkMs?: number;
  /** How long the API then refuses channels on that workspace's broker, so screens poll at once; default 10 min. */
  unreachableMs?: number;
  /** Whether the workspace's broker is this process's embedded broker (own-broker.ts); none: never. */
  ownBroker?: (workspaceId: string) => Promise<boolean>;
}

interface Channel {
  key: string;
  workspaceId: string;
  secret: string;
  /** The second secret other brokers send in PROOF_HEADER. */
  proof: string;
  /** Fed by this process's embedded broker, inside the process only. */
  local: boolean;
  subscriptionId: string;
  client: NgsiLdClient;
  ready: Promise<void>;
  listeners: Set<Listener>;
  linger?: NodeJS.Timeout;
  renewal?: NodeJS.Timeout;
  check?: NodeJS.Timeout;
  /** A notification came: the broker reaches this API. */
  delivered: boolean;
  closed: boolean;
}

const digest = (value: string) => createHash("sha256").update(value).digest("base64url");

/** One channel per workspace, caller, type or entity, and attributes watched: its listeners share one broker subscription. */
export const channelKey = (watch: Watch) =>
  JSON.stringify([
    watch.workspaceId,
    watch.caller ?? "",
    watch.type,
    watch.entityId ?? null,
    [...(watch.attributes ?? [])].sort(),
  ]);

/**
 * The one live channel of the API: a broker subscription per watch, owned by this process, whose
 * notifications come back (inside the process from its own embedded broker, else to
 * `POST /api/live/notify/{secret}` with the channel's proof header) and are fanned out to the listeners
 * (Server-Sent Events of the console, WoT observations and events). A channel is created by its
 * first listener, deleted from the broker a while after its last one left, and expires in the
 * broker unless renewed, so a process that stops leaves nothing for long; its leftovers (marked by
 * the description) are swept when the process first opens a channel on a workspace.
 *
 * Several API processes: each owns its subscriptions and is reached by the brokers at its own
 * address (`notifyBase`): channels live in the memory of the process that opened them.
 */
export class LiveChannels {
  private readonly channels = new Map<string, Channel>();
  private readonly bySecret = new Map<string, Channel>();
  private readonly swept = new Map<string, Promise<void>>();
  /** Workspaces whose broker failed to deliver to this API, until when channels are refused. */
  private readonly unreachable = new Map<string, number>();

  constructor(
    private readonly notifyBase: string,
    private readonly log: Logger,
    private readonly options: ChannelOptions = { lingerMs: 30_000, lifetimeMs: 10 * 60_000 },
  ) {}

  /** Listens on the channel of a watch, creating its broker subscription first; the returned function stops listening. */
  async listen(watch: Watch, client: NgsiLdClient, listener: Listener): Promise<() => void> {
    const key = channelKey(watch);
    const refusedUntil = this.unreachable.get(watch.workspaceId) ?? 0;
    // 503: the console polls instead (and tries the stream again later).
    if (refusedUntil > Date.now())
      throw problem(503, "live.brokerCannotNotify", { address: this.notifyBase });
    let channel = this.channels.get(key);
    if (!channel) {
      channel = this.open(key, watch, client);
      this.channels.set(key, channel);
    }
    clearTimeout(channel.linger);
    channel.listeners.add(listener);
    const opened = channel;
    try {
      await opened.ready;
    } catch (err) {
      opened.listeners.delete(listener);
      throw err;
    }
    return () => {
      opened.listeners.delete(listener);
      if (opened.listeners.size === 0 && !opened.closed)
        opened.linger = setTimeout(() => void this.close(opened), this.options.lingerMs).unref();
    };
  }

  /**
   * A notification POSTed to a channel's address: taken (true) only when the secret names a
   * channel of this process, the notification names its subscription, and it carries the channel's
   * proof; never for a channel of the embedded broker of this process, which delivers in process.
   */
  notify(secret: string, notification: Notification, proof: string | undefined): boolean {
    const channel = this.bySecret.get(secret);
    if (!channel || channel.local || !sameSecret(proof, channel.proof)) return false;
    return this.fanOut(channel, notification);
  }

  /**
   * A notification the embedded broker of this process delivers to one of its endpoints (the
   * broker's LocalDelivery): undefined when the address is not a live channel's of this process
   * (sent over HTTP); "elsewhere" when it may be another process's channel on the same broker (a
   * live channel's address without a proof, or at this process's address with a secret it does
   * not hold): that process's worker takes it, or the outbox gives up after a while.
   */
  deliverLocal(
    endpoint: string,
    notification: Notification,
    receiverInfo: Record<string, string>,
  ): boolean | "elsewhere" | undefined {
    const mine = `${this.notifyBase}${NOTIFY_PATH}`;
    if (endpoint.startsWith(mine)) {
      const channel = this.bySecret.get(endpoint.slice(mine.length));
      // Unknown here: another process may have been given the same LIVE_NOTIFY_URL (the balancer's).
      return channel ? this.fanOut(channel, notification) : "elsewhere";
    }
    const proven = Object.keys(receiverInfo).some((k) => k.toLowerCase() === PROOF_HEADER.toLowerCase());
    return pathOf(endpoint).startsWith(NOTIFY_PATH) && !proven ? "elsewhere" : undefined;
  }

  /** Hands a channel's notification to its listeners; false when it names another subscription. */
  private fanOut(channel: Channel, notification: Notification): boolean {
    if (channel.closed || notification.subscriptionId !== channel.subscriptionId) return false;
    channel.delivered = true;
    clearInterval(channel.check);
    this.unreachable.delete(channel.workspaceId);
    const entities = Array.isArray(notification.data) ? (notification.data as Entity[]) : [];
    for (const entity of entities)
      for (const listener of channel.listeners) {
        try {
          listener.change(entity);
        } catch (err) {
          this.log.warn({ err }, "a live listener failed");
        }
      }
    return true;
  }

  /**
   * Ends every channel's listeners at once, so that no stream holds the server open, and returns
   * how to delete their subscriptions: after the server closed (the embedded broker is then gone
   * too, and what it keeps is swept at the next start).
   */
  endAll(): () => Promise<void> {
    const ended = [...this.channels.values()];
    for (const channel of ended) {
      this.forget(channel);
      for (const listener of channel.listeners) listener.end();
      channel.listeners.clear();
    }
    return async () => {
      await Promise.all(ended.map((c) => this.deleteSubscription(c)));
    };
  }

  /**
   * Deletes a workspace's leftover subscriptions of this API, once per process: expired ones, and
   * those that notify this process's address under a secret it does not hold (a previous run's).
   */
  sweep(workspaceId: string, client: NgsiLdClient): Promise<void> {
    let done = this.swept.get(workspaceId);
    if (!done) {
      done = this.sweepNow(client).catch((err: unknown) =>
        this.log.debug({ err, workspaceId }, "live channel leftovers not swept"),
      );
      this.swept.set(workspaceId, done);
    }
    return done;
  }

  /** How many channels are open (for tests and the health of the process). */
  get size(): number {
    return this.channels.size;
  }

  private async sweepNow(client: NgsiLdClient): Promise<void> {
    const mine = `${this.notifyBase}${NOTIFY_PATH}`;
    const leftovers = (await client.subscriptions()).filter((s) => {
      if (!String(s.description ?? "").startsWith(LIVE_MARK)) return false;
      const expired = typeof s.expiresAt === "string" && Date.parse(s.expiresAt) <= Date.now();
      const uri = String(endpointOf(s) ?? "");
      return expired || (uri.startsWith(mine) && !this.bySecret.has(uri.slice(mine.length)));
    });
    for (const s of leftovers) await client.deleteSubscription(s.id).catch(() => undefined);
  }

  private open(key: string, watch: Watch, client: NgsiLdClient): Channel {
    const secret = randomBytes(32).toString("base64url");
    const channel: Channel = {
      key,
      workspaceId: watch.workspaceId,
      secret,
      proof: randomBytes(32).toString("base64url"),
      local: false,
      // Named here, so that a notification racing the creation's answer is already recognised.
      subscriptionId: `${LIVE_SUBSCRIPTION_PREFIX}${randomUUID()}`,
      client,
      ready: Promise.resolve(),
      listeners: new Set(),
      delivered: false,
      closed: false,
    };
    this.bySecret.set(secret, channel);
    channel.ready = (async () => {
      await this.sweep(watch.workspaceId, client);
      channel.local = (await this.options.ownBroker?.(watch.workspaceId)) ?? false;
      const uri = `${this.notifyBase}${NOTIFY_PATH}${secret}`;
      const subscription = {
        id: channel.subscriptionId,
        description: `${LIVE_MARK}: ${watch.entityId ?? watch.type}, for the API's listeners (deleted when they leave)`,
        entities: [{ type: watch.type, ...(watch.entityId ? { id: watch.entityId } : {}) }],
        ...(watch.attributes?.length ? { watchedAttributes: watch.attributes } : {}),
        notification: {
          format: "normalized",
          endpoint: channel.local
            ? { uri, accept: "application/json" }
            : {
                uri,
                accept: "application/json",
                receiverInfo: [{ key: PROOF_HEADER, value: channel.proof }],
              },
        },
        expiresAt: this.expiry(),
      };
      if (watch.attributes?.length) await client.createSubscription(subscription);
      else
        await client
          .createSubscription({ ...subscription, notificationTrigger: ENTITY_TRIGGERS })
          .catch((err: unknown) => {
            if (!(err instanceof NgsiLdError) || err.status !== 400) throw err;
            this.log.debug({ err }, "the broker refuses notificationTrigger: live deletions show at refresh");
            return client.createSubscription(subscription);
          });
      channel.renewal = setInterval(() => void this.renew(channel), this.options.lifetimeMs / 2).unref();
      channel.check = setInterval(
        () => void this.checkDelivery(channel),
        this.options.checkMs ?? 15_000,
      ).unref();
    })();
    channel.ready.catch(() => this.forget(channel));
    return channel;
  }

  private expiry(): string {
    return new Date(Date.now() + this.options.lifetimeMs).toISOString();
  }

  /** Moves the subscription's expiry on; a subscription the broker lost ends the channel (its listeners subscribe again). */
  private async renew(channel: Channel): Promise<void> {
    try {
      await channel.client.updateSubscription(channel.subscriptionId, { expiresAt: this.expiry() });
    } catch (err) {
      this.log.warn({ err, subscription: channel.subscriptionId }, "live channel subscription not renewed");
      await this.close(channel);
    }
  }

  /**
   * Until a first notification arrives, asks the broker how its deliveries went: failures (the
   * broker cannot reach notifyBase: another network, LIVE_NOTIFY_URL unset) end the channel, and
   * the workspace's channels are refused for a while, so that screens poll instead of waiting.
   */
  private async checkDelivery(channel: Channel): Promise<void> {
    if (channel.delivered || channel.closed) return;
    try {
      const subscription = await channel.client.getSubscription(channel.subscriptionId);
      const notification = subscription.notification as
        { status?: unknown; lastFailure?: unknown } | undefined;
      if (notification?.status !== "failed" && !notification?.lastFailure) return;
    } catch {
      return; // the renewal tells of a lost subscription
    }
    if (channel.delivered) return;
    this.log.warn(
      { subscription: channel.subscriptionId, notifyBase: this.notifyBase },
      "the broker cannot deliver live notifications to this API: screens poll (set LIVE_NOTIFY_URL to an address the broker reaches)",
    );
    this.unreachable.set(channel.workspaceId, Date.now() + (this.options.unreachableMs ?? 10 * 60_000));
    await this.close(channel);
  }

  private forget(channel: Channel): void {
    channel.closed = true;
    clearTimeout(channel.linger);
    clearInterval(channel.renewal);
    clearInterval(channel.check);
    if (this.channels.get(channel.key) === channel) this.channels.delete(channel.key);
    this.bySecret.delete(channel.secret);
  }

  private async close(channel: Channel): Promise<void> {
    if (channel.closed) return;
    this.forget(channel);
    for (const listener of channel.listeners) listener.end();
    channel.listeners.clear();
    await this.deleteSubscription(channel);
  }

  private async deleteSubscription(channel: Channel): Promise<void> {
    try {
      await channel.ready;
      await channel.client.deleteSubscription(channel.subscriptionId);
    } catch (err) {
      this.log.debug({ err, subscription: channel.subscriptionId }, "live channel subscription not deleted");
    }
  }
}

const endpointOf = (s: Subscription) =>
  (s.notification as { endpoint?: { uri?: unknown } } | undefined)?.endpoint?.uri;

type Notification = { subscriptionId?: unknown; data?: unknown };

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
};

/** Compares in constant time (the digests have one length whatever was sent). */
const sameSecret = (given: string | undefined, expected: string) =>
  given !== undefined &&
  timingSafeEqual(
    createHash("sha256").update(given).digest(),
    createHash("sha256").update(expected).digest(),
  );

/** Whether a subscription is a live channel's (of this API or another process of it). */
export const isLiveChannel = (s: Record<string, unknown>) =>
  String(s.description ?? "").startsWith(LIVE_MARK) ||
  pathOf(String(endpointOf(s as Subscription) ?? "")).startsWith(NOTIFY_PATH);

/**
 * A live channel's subscription as a non-admin may read it: without its address and receiverInfo
 * (the proof), which would let the reader post notifications to the channel.
 */
export function withoutLiveEndpoint<T extends Record<string, unknown>>(s: T): T {
  if (!isLiveChannel(s)) return s;
  const notification = s.notification as { endpoint?: Record<string, unknown> } | undefined;
  if (!notification?.endpoint) return s;
  const {
    uri: _uri,
    receiverInfo: _receiverInfo,
    notifierInfo: _notifierInfo,
    ...endpoint
  } = notification.endpoint;
  return { ...s, notification: { ...notification, endpoint } };
}

/** The `caller` of a watch: the digest of the SIOP-2 token the broker reads, if any. */
export const callerOf = (gatewayAuthorization: string | undefined) =>
  gatewayAuthorization ? digest(gatewayAuthorization) : undefined;
