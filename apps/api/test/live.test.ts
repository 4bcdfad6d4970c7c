import { describe, expect, it, vi } from "vitest";
import { workspaceBroker, workspaceContextUrl } from "../src/context-data/broker-access.ts";
import { LIVE_MARK, LiveChannels, NOTIFY_PATH, type Listener } from "../src/live/channels.ts";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// The API's live channel on the embedded broker: the notification endpoint, the console's stream of
// entity changes, and the life of the broker subscriptions the API owns.

const ctx = useEmbeddedWorkspace();
const quiet = { debug: () => undefined, warn: () => undefined };

/** The broker client of the test workspace, as the API makes it. */
async function broker() {
  const row = await ctx.t.records.requireWorkspace(ctx.workspace.id);
  return workspaceBroker(ctx.t.records, row, { context: workspaceContextUrl(ctx.t.config, row) });
}

const marked = async () =>
  (await (await broker()).subscriptions()).filter((s) => String(s.description ?? "").startsWith(LIVE_MARK));

/** A listener that records what it got. */
function recorder() {
  const got = { changes: [] as unknown[], ended: 0 };
  const listener: Listener = { change: (e) => void got.changes.push(e), end: () => void got.ended++ };
  return { got, listener };
}

/** Reads a Server-Sent Events response until `part` came (or what was read so far satisfies it). */
function reader(res: Response) {
  const stream = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    until: async (part: string | ((text: string) => boolean)) => {
      const done = typeof part === "string" ? (t: string) => t.includes(part) : part;
      while (!done(text)) text += (await stream.read()).value ?? "";
      return text;
    },
  };
}

describe(`the live channel (${driver})`, () => {
  it("streams a type's entity changes to the console as Server-Sent Events, fed by one broker subscription", async () => {
    const { base, api, path } = ctx;
    const token = await ctx.t.tokenFor("viewer");
    const stop = new AbortController();
    const res = await fetch(`${base}${path}/live/entities?type=Building`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    const events = reader(res);
    await events.until(": open");
    const subscriptions = await marked();
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({
      entities: [{ type: "Building" }],
      notification: { endpoint: { uri: expect.stringContaining(`${base}${NOTIFY_PATH}`) } },
    });
    expect(Date.parse(String(subscriptions[0]!.expiresAt))).toBeGreaterThan(Date.now());
    const written = Date.now();
    const created = await api("POST", `${path}/entities`, {
      id: "urn:ngsi-ld:Building:live-1",
      type: "Building",
      floors: { type: "Property", value: 2 },
    });
    expect(created.status).toBe(201);
    const text = await events.until("urn:ngsi-ld:Building:live-1");
    expect(Date.now() - written).toBeLessThan(1_000);
    const data = JSON.parse(text.split("data: ")[1]!.split("\n")[0]!);
    expect(data).toMatchObject({ id: "urn:ngsi-ld:Building:live-1", floors: { value: 2 } });
    stop.abort();
  });

  it("tells each change as the API reads the entity, so the console can draw it before reading again", async () => {
    const { base, api, path, types } = ctx;
    const token = await ctx.t.tokenFor("viewer");
    const stop = new AbortController();
    const res = await fetch(`${base}${path}/live/entities?type=Building`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
      signal: stop.signal,
    });
    const events = reader(res);
    await events.until(": open");
    const id = "urn:ngsi-ld:Building:live-shown";
    expect(
      (
        await api("POST", `${path}/entities`, {
          id,
          type: "Building",
          name: { type: "Property", value: "Town hall" },
          floors: { type: "Property", value: 3 },
          location: { type: "GeoProperty", value: { type: "Point", coordinates: [2.35, 48.85] } },
          tags: { type: "Property", value: ["civic", "old"] },
        })
      ).status,
    ).toBe(201);
    const renamed = "Mairie .*+?(|\\ «centre»";
    const put = await api("PUT", `${path}/entities/${encodeURIComponent(id)}/attrs/name`, {
      type: "Property",
      value: renamed,
    });
    expect(put.status).toBe(200);
    const text = await events.until(renamed.replaceAll("\\", "\\\\"));
    const event = text
      .split("data: ")
      .slice(1)
      .map((line) => JSON.parse(line.split("\n")[0]!) as { name?: { value?: unknown } })
      .find((e) => e.name?.value === renamed);
    stop.abort();
    // The entity page's read, and the row of the name-ordered list (livePatch.ts draws both from the event).
    const read = await api("GET", `${path}/entities/${encodeURIComponent(id)}`);
    expect(event).toEqual(read.body);
    const list = await api(
      "GET",
      `${path}/entities?typeId=${encodeURIComponent(types.Building!)}&order=name`,
    );
    expect((list.body as Array<{ id: string }>).find((e) => e.id === id)).toEqual({
      id,
      type: "Building",
      name: (event as { name: unknown }).name,
    });
  });

  it("tells the console's stream of an entity deleted through the API and through NGSI-LD, within a second", async () => {
    const { base, api, path, workspace } = ctx;
    const token = await ctx.t.tokenFor("viewer");
    const stop = new AbortController();
    const res = await fetch(`${base}${path}/live/entities?type=Building`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
      signal: stop.signal,
    });
    const events = reader(res);
    // A deletion that never comes fails the test instead of holding it.
    const giveUp = setTimeout(() => stop.abort(), 8_000);
    await events.until(": open");
    const ids = ["urn:ngsi-ld:Building:gone-1", "urn:ngsi-ld:Building:gone.*+(1)"];
    for (const id of ids)
      expect(
        (
          await api("POST", `${path}/entities`, {
            id,
            type: "Building",
            floors: { type: "Property", value: 1 },
          })
        ).status,
      ).toBe(201);
    await events.until((t) => ids.every((id) => t.includes(JSON.stringify(id))));
    const deletedEvents = (text: string) =>
      text
        .split("data: ")
        .slice(1)
        .map((line) => JSON.parse(line.split("\n")[0]!) as Record<string, unknown>)
        .filter((e) => e.deletedAt);
    let written = Date.now();
    expect((await api("DELETE", `${path}/entities/${encodeURIComponent(ids[0]!)}`)).status).toBe(204);
    let text = await events.until((t) => deletedEvents(t).length === 1);
    expect(Date.now() - written).toBeLessThan(1_000);
    expect(deletedEvents(text)).toEqual([expect.objectContaining({ id: ids[0], type: "Building" })]);
    written = Date.now();
    const viaNgsi = await fetch(`${base}/ngsi-ld/v1/entities/${encodeURIComponent(ids[1]!)}`, {
      method: "DELETE",
      headers: { ...ctx.brokerAuth, "ngsild-tenant": String(workspace.contextBrokerTenant) },
    });
    expect(viaNgsi.status).toBe(204);
    text = await events.until((t) => deletedEvents(t).length === 2);
    expect(Date.now() - written).toBeLessThan(1_000);
    expect(deletedEvents(text)[1]).toMatchObject({ id: ids[1] });
    clearTimeout(giveUp);
    stop.abort();
  });

  it("takes no notification at an unknown address, for another subscription, or over HTTP for a channel of its own broker", async () => {
    const { base, t } = ctx;
    const notify = (secret: string, body: unknown, language = "en") =>
      t.app.inject({
        method: "POST",
        url: `${NOTIFY_PATH}${encodeURIComponent(secret)}`,
        headers: { "accept-language": language },
        payload: body as object,
      });
    const unknown = await notify("guessed", { subscriptionId: "urn:x", data: [] }, "fr");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(unknown.body)).toMatchObject({
      code: "live.unknownChannel",
      detail: "Aucun canal en direct de cette API n’écoute à cette adresse.",
    });
    expect((await notify(".*+?(|\\", { subscriptionId: "urn:x" })).statusCode).toBe(404);
    // A channel's own secret with another subscription's id is refused too.
    const stop = new AbortController();
    const res = await fetch(`${base}${ctx.path}/live/entities?type=Person`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${await t.tokenFor("viewer")}` },
      signal: stop.signal,
    });
    await reader(res).until(": open");
    const channel = (await marked()).find((s) =>
      (s.entities as Array<{ type: string }>).some((e) => e.type === "Person"),
    )!;
    const uri = (channel.notification as { endpoint: { uri: string } }).endpoint.uri;
    const secret = uri.slice(uri.indexOf(NOTIFY_PATH) + NOTIFY_PATH.length);
    expect(secret.length).toBeGreaterThanOrEqual(43); // 256 random bits
    expect(
      (await notify(secret, { subscriptionId: "urn:ngsi-ld:Subscription:other", data: [] })).statusCode,
    ).toBe(404);
    // Even the channel's own secret and subscription: its broker is this process's embedded broker,
    // which delivers inside the process, so the address takes nothing (live-forgery.test.ts).
    expect((await notify(secret, { subscriptionId: channel.id, data: [] })).statusCode).toBe(404);
    stop.abort();
  });

  it("refuses a watch the broker refuses, without a 500, and asks for a type", async () => {
    const { api, path } = ctx;
    const missing = await api("GET", `${path}/live/entities`);
    expect(missing.status).toBe(400);
    const odd = await api(
      "GET",
      `${path}/live/entities?type=Building&id=${encodeURIComponent(".*+?(|\\")}`,
      undefined,
      { accept: "text/event-stream" },
    );
    expect(odd.status).toBe(400);
    expect(odd.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("keeps one subscription per watch, deletes it after its last listener left, and renews it meanwhile", async () => {
    const client = await broker();
    const channels = new LiveChannels("http://127.0.0.1:9", quiet, { lingerMs: 50, lifetimeMs: 1_000 });
    const watch = { workspaceId: ctx.workspace.id, type: "Building", entityId: "urn:ngsi-ld:Building:kept" };
    const before = (await marked()).length;
    const first = recorder();
    const second = recorder();
    const leaveFirst = await channels.listen(watch, client, first.listener);
    const leaveSecond = await channels.listen(watch, client, second.listener);
    const mine = async () =>
      (await marked()).filter((s) => JSON.stringify(s.entities).includes("urn:ngsi-ld:Building:kept"));
    expect(await mine()).toHaveLength(1);
    expect((await marked()).length).toBe(before + 1);
    const expiry = Date.parse(String((await mine())[0]!.expiresAt));
    await vi.waitFor(
      async () => expect(Date.parse(String((await mine())[0]!.expiresAt))).toBeGreaterThan(expiry),
      {
        timeout: 3_000,
      },
    );
    leaveFirst();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await mine()).toHaveLength(1); // one listener left
    leaveSecond();
    await vi.waitFor(async () => expect(await mine()).toHaveLength(0), { timeout: 3_000 });
    expect(channels.size).toBe(0);
  });

  it("ends its listeners when the broker lost the subscription (they subscribe again)", async () => {
    const client = await broker();
    const channels = new LiveChannels("http://127.0.0.1:9", quiet, { lingerMs: 50, lifetimeMs: 400 });
    const watch = { workspaceId: ctx.workspace.id, type: "Building", entityId: "urn:ngsi-ld:Building:lost" };
    const { got, listener } = recorder();
    await channels.listen(watch, client, listener);
    const [lost] = (await marked()).filter((s) => JSON.stringify(s.entities).includes("Building:lost"));
    await client.deleteSubscription(lost!.id);
    await vi.waitFor(() => expect(got.ended).toBe(1), { timeout: 3_000 });
    expect(channels.size).toBe(0);
    // Its deletion (answered 404) is done before the API stops.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it("sweeps a previous run's leftovers at this address and expired ones, not another process's", async () => {
    const client = await broker();
    const here = "http://127.0.0.1:9";
    const leftover = (uri: string, expiresAt: string) =>
      client.createSubscription({
        description: `${LIVE_MARK}: a previous run`,
        entities: [{ type: "Person" }],
        notification: { endpoint: { uri, accept: "application/json" } },
        expiresAt,
      });
    const soon = new Date(Date.now() + 1_000).toISOString();
    const later = new Date(Date.now() + 600_000).toISOString();
    const previousRun = await leftover(`${here}${NOTIFY_PATH}old-secret`, later);
    const otherProcess = await leftover(`http://127.0.0.2:9${NOTIFY_PATH}its-secret`, later);
    const expired = await leftover(`http://127.0.0.2:9${NOTIFY_PATH}gone`, soon);
    const unmarked = await client.createSubscription({
      description: "a user's own",
      entities: [{ type: "Person" }],
      notification: { endpoint: { uri: `${here}${NOTIFY_PATH}x`, accept: "application/json" } },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const channels = new LiveChannels(here, quiet, { lingerMs: 50, lifetimeMs: 60_000 });
    const leave = await channels.listen(
      { workspaceId: ctx.workspace.id, type: "Person" },
      client,
      recorder().listener,
    );
    const ids = (await client.subscriptions()).map((s) => s.id);
    expect(ids).not.toContain(previousRun);
    expect(ids).not.toContain(expired);
    expect(ids).toContain(otherProcess);
    expect(ids).toContain(unmarked);
    leave();
    // The channel goes after its linger: its deletion is done before the API stops.
    const notifyingHere = async () =>
      (await marked()).filter((s) => JSON.stringify(s.notification).includes(`${here}${NOTIFY_PATH}`));
    await vi.waitFor(async () => expect(await notifyingHere()).toEqual([]), { timeout: 3_000 });
    await client.deleteSubscription(otherProcess);
    await client.deleteSubscription(unmarked);
  });
  it("ends a channel whose broker cannot deliver to the API, and refuses others a while: screens poll", async () => {
    const client = await broker();
    // An address the broker cannot reach (nothing listens at port 9).
    const channels = new LiveChannels("http://127.0.0.1:9", quiet, {
      lingerMs: 50,
      lifetimeMs: 60_000,
      checkMs: 100,
    });
    const id = "urn:ngsi-ld:Building:unreachable";
    const watch = { workspaceId: ctx.workspace.id, type: "Building", entityId: id };
    const { got, listener } = recorder();
    await channels.listen(watch, client, listener);
    const written = await ctx.api("POST", `${ctx.path}/entities`, {
      id,
      type: "Building",
      name: { type: "Property", value: "Out of reach" },
    });
    expect(written.status).toBe(201);
    await vi.waitFor(() => expect(got.ended).toBe(1), { timeout: 10_000 });
    expect(got.changes).toEqual([]);
    const refused = await channels.listen(watch, client, recorder().listener).catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 503, said: { detail: { code: "live.brokerCannotNotify" } } });
    await ctx.api("DELETE", `${ctx.path}/entities/${encodeURIComponent(id)}`);
  });
});
