import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { LocalDelivery } from "@orrery/broker";
import { uid } from "./ngsi.ts";
import { eventually, Receiver, startPluginBroker } from "./receiver.ts";

/**
 * The delivery worker's local delivery (notifications.local): endpoints the host serves in its own
 * process get their notifications there, never over HTTP, so that whoever reads a subscription
 * cannot forge one by POSTing to its address. Two brokers on one database stand for two API
 * processes sharing one PostgreSQL (docs/deploy.md).
 */
const fast = { retryBaseMs: 50, retryMaxMs: 200, timeoutMs: 500, pollIntervalMs: 100, maxAttempts: 3 };
const receiver = new Receiver();
const taken: Array<{ by: string; endpoint: string; notification: Record<string, unknown> }> = [];
/** Endpoints of the first "process" start with first.invalid, the second's with second.invalid. */
const localOf = (name: string): LocalDelivery => ({
  deliver(endpoint, notification) {
    const url = new URL(endpoint);
    if (!url.pathname.startsWith("/in-process/")) return undefined;
    if (url.hostname !== `${name}.invalid`) return "elsewhere";
    if (url.pathname.endsWith("/gone")) return false;
    taken.push({ by: name, endpoint, notification });
    return true;
  },
});
let first: Awaited<ReturnType<typeof startPluginBroker>>;
let second: Awaited<ReturnType<typeof startPluginBroker>> | undefined;

beforeAll(async () => {
  await receiver.start();
  first = await startPluginBroker({ notifications: { ...fast, local: localOf("first") } });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await receiver.stop();
});

async function subscribe(uri: string) {
  const id = uid("Subscription");
  const r = await first.call("POST", "/subscriptions", {
    id,
    type: "Subscription",
    entities: [{ type: "Building" }],
    notification: { endpoint: { uri, accept: "application/json" } },
  });
  expect(r.status, r.raw).toBe(201);
  return id;
}
const write = async () => {
  const id = uid("Building");
  expect(
    (await first.call("POST", "/entities", { id, type: "Building", floors: { type: "Property", value: 2 } }))
      .status,
  ).toBe(201);
  return id;
};
const statusOf = async (id: string) =>
  (await first.call("GET", `/subscriptions/${encodeURIComponent(id)}`)).body.notification;
const pending = async (id: string) =>
  (
    (await first.storage.db.execute(
      sql`SELECT count(*)::int AS n FROM broker_notifications WHERE subscription_id = ${id}`,
    )) as unknown as { rows: Array<{ n: number }> }
  ).rows[0]!;

describe("local delivery of notifications", () => {
  it("hands a notification for an endpoint of the host to it in process: nothing goes over HTTP, and it counts as sent", async () => {
    const subscription = await subscribe(`http://first.invalid/in-process/channel`);
    const entity = await write();
    const got = (await eventually(() => taken.find((t) => t.notification.subscriptionId === subscription)))!;
    expect(got.by).toBe("first");
    expect(got.notification).toMatchObject({
      type: "Notification",
      data: [{ id: entity, type: "Building" }],
    });
    expect(receiver.received).toHaveLength(0);
    await eventually(async () => (await statusOf(subscription)).status === "ok");
    expect((await statusOf(subscription)).timesSent).toBe(1);
  });

  it("counts an endpoint of the host with no receiver as a failed delivery", async () => {
    const subscription = await subscribe(`http://first.invalid/in-process/gone`);
    await write();
    await eventually(async () => (await statusOf(subscription)).status === "failed");
  });

  it("sends other endpoints over HTTP as before", async () => {
    const subscription = await subscribe(receiver.url);
    await write();
    const got = await receiver.next();
    expect(got.body.subscriptionId).toBe(subscription);
  });

  it("leaves a notification for another process's in-process receiver to that process's worker", async () => {
    const subscription = await subscribe(`http://second.invalid/in-process/channel`);
    await write();
    // The first process does not send it anywhere, nor count it as failed: it waits.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await pending(subscription)).n).toBe(1);
    expect((await statusOf(subscription)).status).toBeUndefined();
    // The second process starts on the same database: its worker takes it.
    second = await startPluginBroker(
      { notifications: { ...fast, local: localOf("second") } },
      { storage: first.storage, dataDir: first.dataDir },
    );
    const got = (await eventually(() => taken.find((t) => t.notification.subscriptionId === subscription)))!;
    expect(got.by).toBe("second");
    await eventually(async () => (await statusOf(subscription)).status === "ok");
    expect((await pending(subscription)).n).toBe(0);
  });
});
