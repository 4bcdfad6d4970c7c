import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandalone, type StandaloneBroker } from "@orrery/broker/standalone";
import { LIVE_MARK, NOTIFY_PATH } from "../src/live/channels.ts";
import { freshDatabase } from "./broker/receiver.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";
import { driver } from "./support/harness.ts";

// No reader of a subscription list can forge a live update (issue 35). The live channel's
// subscription is readable by every viewer of the workspace (the API's subscription list, and the
// embedded broker's /ngsi-ld/v1/subscriptions for anyone who reads the tenant): whatever a viewer
// finds there must not let them push an entity onto another user's screen.

const ctx = useEmbeddedWorkspace();

interface Endpoint {
  uri?: string;
  receiverInfo?: Array<{ key: string; value: string }>;
}
const endpointOf = (s: Record<string, any>): Endpoint => s.notification?.endpoint ?? {};
const isLive = (s: Record<string, any>) => String(s.description ?? "").startsWith(LIVE_MARK);

/** Reads a Server-Sent Events response as it comes. */
function reader(res: Response) {
  const stream = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    until: async (part: string) => {
      const deadline = Date.now() + 10_000;
      while (!text.includes(part)) {
        if (Date.now() > deadline) throw new Error(`no ${part} in: ${text}`);
        text += (await stream.read()).value ?? "";
      }
      return text;
    },
  };
}

/** A user's stream of a type's changes in a workspace. */
async function stream(path: string, type: string, role: string) {
  const stop = new AbortController();
  const res = await fetch(`${ctx.base}${path}/live/entities?type=${type}`, {
    headers: { accept: "text/event-stream", authorization: `Bearer ${await ctx.t.tokenFor(role)}` },
    signal: stop.signal,
  });
  expect(res.status).toBe(200);
  const events = reader(res);
  await events.until(": open");
  return { events, stop: () => stop.abort() };
}

/** POSTs a notification as a forger would, with whatever receiverInfo headers they found. */
async function forge(
  uri: string,
  subscriptionId: string,
  entityId: string,
  headers: Record<string, string> = {},
) {
  const res = await fetch(uri, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({
      id: "urn:ngsi-ld:Notification:forged",
      type: "Notification",
      subscriptionId,
      notifiedAt: new Date().toISOString(),
      data: [{ id: entityId, type: "Building", name: { type: "Property", value: "Forged" } }],
    }),
  });
  return res.status;
}

const headersOf = (e: Endpoint) => Object.fromEntries((e.receiverInfo ?? []).map((r) => [r.key, r.value]));

describe(`forged live updates (${driver})`, () => {
  it("on the embedded broker of this process: what a viewer reads in the subscription lists forges nothing, and genuine changes still arrive", async () => {
    const { api, path, t, workspace } = ctx;
    const watcher = await stream(path, "Building", "operator");
    const viewer = await t.tokenFor("viewer");
    // What a viewer reads: the API's list, and the embedded broker's own list of the tenant.
    const listed = await api("GET", `${path}/subscriptions?type=Building`, undefined, {
      authorization: `Bearer ${viewer}`,
    });
    expect(listed.status).toBe(200);
    const fromApi = (listed.body as Array<Record<string, any>>).find(isLive)!;
    expect(fromApi).toBeDefined();
    const raw = await t.app.inject({
      method: "GET",
      url: "/ngsi-ld/v1/subscriptions",
      headers: { authorization: `Bearer ${viewer}`, "ngsild-tenant": String(workspace.contextBrokerTenant) },
    });
    expect(raw.statusCode).toBe(200);
    const fromBroker = (JSON.parse(raw.body) as Array<Record<string, any>>).find(isLive)!;
    const found = endpointOf(fromBroker).uri ?? endpointOf(fromApi).uri;
    expect(found).toContain(NOTIFY_PATH);
    const headers = { ...headersOf(endpointOf(fromBroker)), ...headersOf(endpointOf(fromApi)) };

    expect(await forge(found!, fromBroker.id, "urn:ngsi-ld:Building:forged-here", headers)).toBe(404);
    const genuine = await api("POST", `${path}/entities`, {
      id: "urn:ngsi-ld:Building:genuine-here",
      type: "Building",
      name: { type: "Property", value: "Genuine" },
    });
    expect(genuine.status).toBe(201);
    const text = await watcher.events.until("urn:ngsi-ld:Building:genuine-here");
    expect(text).not.toContain("forged-here");
    watcher.stop();
  });

  describe("on another broker", () => {
    let remote: StandaloneBroker;
    let dir: string;
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let path: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "orrery-live-remote-"));
      db = await freshDatabase();
      remote = await startStandalone({
        port: 0,
        dataDir: dir,
        databaseUrl: db.databaseUrl,
        logLevel: "warn",
      });
      const { api } = ctx;
      const ok = async (method: string, url: string, body?: unknown) => {
        const res = await api(method, url, body);
        if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body;
      };
      const broker = await ok("POST", "/api/context-brokers", {
        name: "Remote",
        scheme: "http",
        host: "127.0.0.1",
        port: Number(new URL(remote.url).port),
        paginationMaxLimit: 1000,
        implementationName: "orrery",
        implementationVersion: "0.1",
      });
      const service = await ok("POST", "/api/services", {
        name: "Remote service",
        hasContextBroker: broker.id,
      });
      const workspace = await ok("POST", "/api/workspaces", {
        name: "On a remote broker",
        dataModelName: "remote-model",
        hasService: service.id,
      });
      path = `/api/workspace/${workspace.id}`;
      const type = await ok("POST", `${path}/types`, { name: "Building" });
      await ok("POST", `${path}/properties`, {
        name: "name",
        hasType: type.id,
        ngsiLdType: "Property",
        propertyNgsiLdValueType: "String",
      });
      await ok("POST", `${path}/data-model/generate`);
    }, 60_000);

    afterAll(async () => {
      await remote?.close();
      await db?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("hides the channel's endpoint from non-admins, and takes only notifications that carry the broker's proof", async () => {
      const { api, t } = ctx;
      const watcher = await stream(path, "Building", "operator");
      const viewer = await t.tokenFor("viewer");
      const asViewer = await api("GET", `${path}/subscriptions?type=Building`, undefined, {
        authorization: `Bearer ${viewer}`,
      });
      const seen = (asViewer.body as Array<Record<string, any>>).find(isLive)!;
      expect(seen).toBeDefined();
      expect(endpointOf(seen).uri).toBeUndefined();
      expect(endpointOf(seen).receiverInfo).toBeUndefined();
      const one = await api("GET", `${path}/subscriptions/${encodeURIComponent(seen.id)}`, undefined, {
        authorization: `Bearer ${viewer}`,
      });
      expect(one.status).toBe(200);
      expect(JSON.stringify(one.body)).not.toContain(NOTIFY_PATH);
      expect(endpointOf(one.body).receiverInfo).toBeUndefined();

      // An administrator sees it; a forger who learnt the address still lacks the proof.
      const asAdmin = (await api("GET", `${path}/subscriptions?type=Building`)).body as Array<
        Record<string, any>
      >;
      const full = endpointOf(asAdmin.find(isLive)!);
      expect(full.uri).toContain(NOTIFY_PATH);
      expect(full.receiverInfo?.length).toBe(1);
      const proof = full.receiverInfo![0]!;
      expect(await forge(full.uri!, seen.id, "urn:ngsi-ld:Building:forged-there")).toBe(404);
      expect(
        await forge(full.uri!, seen.id, "urn:ngsi-ld:Building:forged-there", {
          [proof.key]: `${proof.value.slice(0, -1)}x`,
        }),
      ).toBe(404);

      const genuine = await api("POST", `${path}/entities`, {
        id: "urn:ngsi-ld:Building:genuine-there",
        type: "Building",
        name: { type: "Property", value: "Genuine" },
      });
      expect(genuine.status).toBe(201);
      const text = await watcher.events.until("urn:ngsi-ld:Building:genuine-there");
      expect(text).not.toContain("forged-there");
      watcher.stop();
    });
  });
});
