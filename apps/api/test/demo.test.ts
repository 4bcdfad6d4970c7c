import { describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { freePort } from "../../../test/fakes/browser.ts";
import { loadDemoContextData } from "../src/demo/demo-context-data.ts";
import { loadDemoData } from "../src/demo/demo-data.ts";
import { client, driver, startTestApp, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

describe(`demo data (${driver})`, () => {
  it("loads a small consistent platform once, and never again", async () => {
    const { t } = ctx;
    expect(await loadDemoData(t.storage.db, t.records, t.config)).toBe(true);
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          platformKinds.map(async (k) => [k.kind, (await ctx.api("GET", `/api/${k.kind}`)).body.length]),
        ),
      );
    const first = await counts();
    expect(first).toMatchObject({
      "context-brokers": 1,
      services: 2,
      "temporal-services": 1,
      // The example Keyrock, and the development identity manager with its password grant.
      "identity-managers": 2,
      "identity-manager-grants": 2,
    });

    const broker = (await ctx.api("GET", "/api/context-brokers")).body[0];
    expect(broker).toMatchObject({ name: "Embedded broker", host: new URL(t.config.publicUrl).hostname });
    await ctx.api("DELETE", `/api/data-actions/${(await ctx.api("GET", "/api/data-actions")).body[0].id}`);

    expect(await loadDemoData(t.storage.db, t.records, t.config)).toBe(false);
    expect(await counts()).toEqual({ ...first, "data-actions": first["data-actions"] - 1 });
  });
});

describe(`demo context data (${driver})`, () => {
  it("loads three workspaces on the embedded broker, with discovered models and an hour of history, once", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t = await startTestApp({ PORT: String(port), PUBLIC_URL: base });
    try {
      await t.app.listen({ port, host: "127.0.0.1" });
      await loadDemoData(t.storage.db, t.records, t.config);
      expect(await loadDemoContextData(t.storage.db, t.records, t.sessions, t.config, t.app.log)).toBe(true);
      const api = client(t, await t.tokenFor("viewer"));
      const workspaces = (await api("GET", "/api/workspaces")).body;
      expect(workspaces.map((w: { name: string }) => w.name)).toEqual(["Farm", "Smart city", "Supermarket"]);
      const market = workspaces.find((w: { name: string }) => w.name === "Supermarket");
      expect(market).toMatchObject({ dataModelUpToDate: true, dataModelVersion: 2 });
      const path = `/api/workspace/${market.id}`;
      const types = (await api("GET", `${path}/types`)).body;
      expect(types.map((t: { name: string }) => t.name)).toEqual([
        "Building",
        "Product",
        "Shelf",
        "StockOrder",
      ]);
      const shelves = await api("GET", `${path}/entities?type=Shelf&count=true`);
      expect(shelves.headers["x-total-count"]).toBe("10");
      const located = (await api("GET", `${path}/properties`)).body.find(
        (p: { name: string; hasProperty?: string }) => p.name === "locatedIn" && !p.hasProperty,
      );
      expect(located.relationshipType).toBe(types.find((t: { name: string }) => t.name === "Building").id);
      // A contract over a store, with a detail scoped to one of its shelves and one without a scope.
      const [contract] = (await api("GET", `${path}/contracts`)).body;
      expect(contract).toMatchObject({
        stakeholderName: "Fresh Foods Logistics",
        scopeEntity: "urn:ngsi-ld:Building:store001",
      });
      const details = (await api("GET", `${path}/contract-details`)).body;
      expect(details.map((d: { roleScopeName: string }) => d.roleScopeName).sort()).toEqual([
        "freshfoods-stock-analyst",
        "freshfoods-store001-shelf001",
      ]);
      // A thing description on shelves, served publicly, with a property, an action, an event and a routing.
      const [thing] = (await api("GET", `${path}/wot-thing-descriptions`)).body;
      const td = JSON.parse(
        (await t.app.inject({ method: "GET", url: `/wot-thing-descriptions/${thing.id}` })).body,
      );
      expect(Object.keys(td.properties)).toEqual(["label", "stock"]);
      expect(Object.keys(td.actions)).toEqual(["restock"]);
      expect(Object.keys(td.events)).toEqual(["stockChanged"]);
      expect((await api("GET", `${path}/routing-operation-controls`)).body).toHaveLength(2);
      // The users panel: the demo users of the development identity manager.
      const users = await api("GET", `${path}/users`);
      expect(users.status, JSON.stringify(users.body)).toBe(200);
      expect(users.body.map((u: { username: string }) => u.username)).toContain("operator");
      expect(await loadDemoContextData(t.storage.db, t.records, t.sessions, t.config, t.app.log)).toBe(false);
    } finally {
      await t.close();
    }
  });
});
