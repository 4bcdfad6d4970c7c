import { describe, expect, it } from "vitest";
import { listen, readBody } from "../../../../test/fakes/http.ts";
import { driver } from "../support/harness.ts";
import { useEmbeddedWorkspace } from "../support/embedded-workspace.ts";

const ctx = useEmbeddedWorkspace();

const subscription = (type: string, extra: Record<string, unknown> = {}) => ({
  type: "Subscription",
  subscriptionName: `${type} changes`,
  description: "",
  entities: [{ type }],
  watchedAttributes: ["temperature"],
  q: "",
  notification: {
    format: "keyValues",
    endpoint: { uri: "http://127.0.0.1:9/notify", accept: "application/json" },
  },
  throttling: 5,
  ...extra,
});

describe(`subscriptions through the API, on the embedded broker (${driver})`, () => {
  it("creates with a generated id and isActive true, omitting empty fields; lists by type; updates; deletes", async () => {
    const ws = await ctx.another();
    const created = await ctx.api("POST", `${ws.path}/subscriptions`, subscription("Building"));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.id).toMatch(/^urn:ngsi-ld:Subscription:[0-9a-f-]{36}$/);
    expect(created.body).toMatchObject({
      subscriptionName: "Building changes",
      isActive: true,
      entities: [{ type: "Building" }],
      watchedAttributes: ["temperature"],
      throttling: 5,
    });
    expect(created.body.description).toBeUndefined();
    expect(created.body.q).toBeUndefined();
    await ctx.api(
      "POST",
      `${ws.path}/subscriptions`,
      subscription("Person", { watchedAttributes: ["name"] }),
    );

    const buildings = await ctx.api("GET", `${ws.path}/subscriptions?type=Building`);
    expect(buildings.body.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    expect((await ctx.api("GET", `${ws.path}/subscriptions`)).body).toHaveLength(2);

    const url = `${ws.path}/subscriptions/${encodeURIComponent(created.body.id)}`;
    const updated = await ctx.api("PUT", url, { isActive: false, subscriptionName: "Paused" });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ isActive: false, subscriptionName: "Paused" });
    expect((await ctx.api("DELETE", url)).status).toBe(204);
    expect((await ctx.api("GET", url)).status).toBe(404);
  });

  it("answers 400 for a missing endpoint, a throttling under 1, and a bad entity selector", async () => {
    const ws = await ctx.another();
    const res = await ctx.api("POST", `${ws.path}/subscriptions`, {
      type: "Subscription",
      entities: [{}],
      throttling: 0,
      notification: { endpoint: {} },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "entities.0",
      "notification",
      "throttling",
    ]);
  });

  it("lists nothing for a workspace whose tenant the broker has never seen", async () => {
    const ws = await ctx.another();
    const res = await ctx.api("GET", `${ws.path}/subscriptions?type=Building`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe(`notifications of a subscription made through the API (${driver})`, () => {
  it("delivers the changed entity to the endpoint, in keyValues with the workspace's short names, and counts it", async () => {
    const received: Array<{ headers: Record<string, unknown>; body: any }> = [];
    const receiver = await listen(async (req, res) => {
      received.push({ headers: req.headers, body: JSON.parse(await readBody(req)) });
      res.writeHead(200).end();
    });
    try {
      const ws = await ctx.another();
      const sub = await ctx.api(
        "POST",
        `${ws.path}/subscriptions`,
        subscription("Building", {
          throttling: undefined,
          notification: { format: "keyValues", endpoint: { uri: `${receiver.url}/notify` } },
        }),
      );
      expect(sub.status, JSON.stringify(sub.body)).toBe(201);
      await ctx.api("POST", `${ws.path}/entities`, {
        id: "urn:ngsi-ld:Building:watched",
        type: "Building",
        temperature: { type: "Property", value: 19 },
      });
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received).toHaveLength(1);
      expect(received[0]!.body).toMatchObject({
        type: "Notification",
        subscriptionId: sub.body.id,
        data: [{ id: "urn:ngsi-ld:Building:watched", type: "Building", temperature: 19 }],
      });
      let status: any;
      for (let i = 0; i < 100; i++) {
        status = (await ctx.api("GET", `${ws.path}/subscriptions/${encodeURIComponent(sub.body.id)}`)).body;
        if (status.notification?.timesSent >= 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status.notification).toMatchObject({ timesSent: 1 });
      expect(Date.parse(status.notification.lastSuccess)).not.toBeNaN();
    } finally {
      await receiver.close();
    }
  });
});
