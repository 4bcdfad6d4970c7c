import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Servient } from "@node-wot/core";
import { HttpClientFactory } from "@node-wot/binding-http";
import { freePort } from "../../../test/fakes/browser.ts";
import { loadDemoContextData } from "../src/demo/demo-context-data.ts";
import { loadDemoData } from "../src/demo/demo-data.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

// The published thing description of the demo ("Smart shelf" on the Supermarket's shelves) cannot
// be made to lie: every edit that changes what it promises (a WoT property's attribute or range, a
// model property's name or value type, a control's value) is refused with the records built on it
// named, and node-wot still reads, invokes and observes the demo TD after each refused edit.

const shelf = "urn:ngsi-ld:Shelf:unit001";
const ctx = {} as {
  t: TestApp;
  base: string;
  api: ReturnType<typeof client>;
  path: string;
  td: { id: string; name: string };
  stock: Record<string, unknown> & { id: string };
  numberOfItems: Record<string, unknown> & { id: string };
  name: { id: string };
  operator: string;
};

beforeAll(async () => {
  const port = await freePort();
  ctx.base = `http://127.0.0.1:${port}`;
  ctx.t = await startTestApp({ PORT: String(port), PUBLIC_URL: ctx.base });
  await ctx.t.app.listen({ port, host: "127.0.0.1" });
  await loadDemoData(ctx.t.storage.db, ctx.t.records, ctx.t.config);
  await loadDemoContextData(ctx.t.storage.db, ctx.t.records, ctx.t.sessions, ctx.t.config, ctx.t.app.log);
  ctx.api = client(ctx.t, await ctx.t.tokenFor("admin"));
  ctx.operator = await ctx.t.tokenFor("operator");
  const market = (await ctx.api("GET", "/api/workspaces")).body.find(
    (w: { name: string }) => w.name === "Supermarket",
  );
  ctx.path = `/api/workspace/${market.id}`;
  [ctx.td] = (await ctx.api("GET", `${ctx.path}/wot-thing-descriptions`)).body;
  ctx.stock = (await ctx.api("GET", `${ctx.path}/wot-properties`)).body.find(
    (w: { name: string }) => w.name === "stock",
  );
  const shelfType = (await ctx.api("GET", `${ctx.path}/types`)).body.find(
    (t: { name: string }) => t.name === "Shelf",
  );
  const ofShelf = (await ctx.api("GET", `${ctx.path}/properties`)).body.filter(
    (p: { hasType: string; hasProperty?: string }) => p.hasType === shelfType.id && !p.hasProperty,
  );
  ctx.numberOfItems = ofShelf.find((p: { name: string }) => p.name === "numberOfItems");
  ctx.name = ofShelf.find((p: { name: string }) => p.name === "name");
}, 60_000);

afterAll(async () => {
  await ctx.t?.close();
});

/** The record as an update takes it back, with these fields changed. */
async function change(kind: string, id: string, fields: Record<string, unknown>, language = "en") {
  const { id: _id, hasWorkspace: _ws, ...current } = (await ctx.api("GET", `${ctx.path}/${kind}/${id}`)).body;
  return ctx.api(
    "PUT",
    `${ctx.path}/${kind}/${id}`,
    { ...current, ...fields },
    { "accept-language": language },
  );
}

/** The records a 409 names, as "kind name". */
const named = (body: { referrers?: Array<{ kind: string; name: string }> }) =>
  (body.referrers ?? []).map((r) => `${r.kind} ${r.name}`).sort();

/** The public TD of the demo thing, of the shelf. */
async function publicTd() {
  return (
    await fetch(`${ctx.base}/wot-thing-descriptions/${ctx.td.id}?entityId=${encodeURIComponent(shelf)}`)
  ).json();
}

/**
 * node-wot consumes the served TD and, on the shelf, restocks it to `value` while observing "stock"
 * and subscribed to "stockChanged": both see the value, which a read of "stock" then answers.
 */
async function nodeWotStillWorks(value: number) {
  const td = await publicTd();
  expect(td.properties.stock).toMatchObject({ type: "number", minimum: 0, maximum: 100 });
  expect(td.events.stockChanged.data).toMatchObject({ type: "number", minimum: 0, maximum: 100 });
  expect(td.actions.restock.input.properties.numberOfItems).toMatchObject({ type: "number", maximum: 100 });
  const servient = new Servient();
  servient.addClientFactory(new HttpClientFactory());
  servient.addCredentials({ [td.id]: { token: ctx.operator } });
  const wot = await servient.start();
  try {
    const thing = await wot.consume(td);
    const observed: unknown[] = [];
    const events: unknown[] = [];
    const observation = await thing.observeProperty(
      "stock",
      async (o) => void observed.push(await o.value()),
    );
    const subscription = await thing.subscribeEvent(
      "stockChanged",
      async (o) => void events.push(await o.value()),
    );
    await thing.invokeAction("restock", { numberOfItems: value });
    await vi.waitFor(
      () => {
        expect(observed).toContain(value);
        expect(events).toContain(value);
      },
      { timeout: 5_000 },
    );
    expect(await (await thing.readProperty("stock")).value()).toBe(value);
    await observation.stop();
    await subscription.stop();
  } finally {
    await servient.shutdown();
  }
}

describe(`the demo thing description under edits (${driver})`, () => {
  it("refuses pointing the WoT property stock at the text attribute name, naming what depends on a number", async () => {
    const pointed = await change("wot-properties", ctx.stock.id, { hasProperty: ctx.name.id });
    expect(pointed.status).toBe(400);
    expect(pointed.body.errors[0]).toMatchObject({
      path: "hasProperty",
      code: "wot.capacityOfProperty",
      message:
        'must be a property whose values the capacity [0, 100] (Range) can describe: "name" holds string values',
    });
    const french = await change("wot-properties", ctx.stock.id, { hasProperty: ctx.name.id }, "fr");
    expect(french.body.errors[0].message).toBe(
      "doit être une propriété dont la capacité [0, 100] (Range) peut décrire les valeurs\u00a0: «\u00a0name\u00a0» contient des valeurs de type string",
    );
    // Free text on the name: restock's input would write numberOfItems unchecked by any capacity.
    const freed = await change("wot-properties", ctx.stock.id, {
      hasProperty: ctx.name.id,
      capacityType: "FreeText",
      capacityValue: "any",
    });
    expect(freed.status, JSON.stringify(freed.body)).toBe(409);
    expect(freed.body.code).toBe("record.dependents");
    expect(named(freed.body)).toEqual(["wot-action-input-properties numberOfItems"]);
    expect(freed.body.referrers[0].refs).toMatchObject({ hasWoTAction: expect.any(String) });
    expect((await ctx.api("GET", `${ctx.path}/wot-properties/${ctx.stock.id}`)).body).toMatchObject({
      hasProperty: ctx.numberOfItems.id,
      capacityType: "Range",
    });
    await nodeWotStillWorks(41);
  });

  it("refuses restock with 500 where the TD says maximum 100, through the API and node-wot", async () => {
    const execute = await ctx.api(
      "POST",
      `${ctx.path}/wot-actions/${(await publicTd()).actions.restock.forms[0].href.match(/wot-actions\/([^/]+)/)[1]}/execute?entityId=${encodeURIComponent(shelf)}`,
      { numberOfItems: 500 },
    );
    expect(execute.status).toBe(400);
    const td = await publicTd();
    const servient = new Servient();
    servient.addClientFactory(new HttpClientFactory());
    servient.addCredentials({ [td.id]: { token: ctx.operator } });
    const thing = await (await servient.start()).consume(td);
    try {
      await expect(thing.invokeAction("restock", { numberOfItems: 500 })).rejects.toThrow();
      expect(await (await thing.readProperty("stock")).value()).toBe(41);
    } finally {
      await servient.shutdown();
    }
  });

  it("refuses renaming numberOfItems while the WoT property stock reads it from the entities", async () => {
    const shelves = (await ctx.api("GET", `${ctx.path}/entities?type=Shelf&limit=1000`)).body as Array<
      Record<string, unknown>
    >;
    const carrying = shelves.filter((e) => e.numberOfItems !== undefined).length;
    expect(carrying).toBeGreaterThan(0);
    const renamed = await change("properties", ctx.numberOfItems.id, { name: "itemCount" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(409);
    expect(renamed.body).toMatchObject({ code: "wot.attributeRenamed", entities: carrying });
    expect(named(renamed.body)).toEqual(["wot-properties stock"]);
    expect(renamed.body.referrers[0].refs).toMatchObject({ hasWoTThingDescription: ctx.td.id });
    expect(renamed.body.detail).toBe(
      `numberOfItems cannot be renamed while WoT properties read it (“stock”): ${carrying} entities of its type carry the attribute numberOfItems, and the thing description would find no value on them.`,
    );
    const french = await change("properties", ctx.numberOfItems.id, { name: "itemCount" }, "fr");
    expect(french.body.detail).toMatch(
      /^numberOfItems ne peut pas être renommée tant que des propriétés WoT la lisent \(« stock »\)\u00a0: \d+ entités/,
    );
    expect((await ctx.api("GET", `${ctx.path}/properties/${ctx.numberOfItems.id}`)).body.name).toBe(
      "numberOfItems",
    );
    await nodeWotStillWorks(42);
  });

  it("refuses the value type String for numberOfItems under the Range [0, 100], naming the records built on it", async () => {
    const retyped = await change("properties", ctx.numberOfItems.id, { propertyNgsiLdValueType: "String" });
    expect(retyped.status, JSON.stringify(retyped.body)).toBe(409);
    expect(named(retyped.body)).toEqual(
      expect.arrayContaining([
        "wot-properties stock",
        "wot-events stockChanged",
        "wot-action-input-properties numberOfItems",
      ]),
    );
    const french = await change(
      "properties",
      ctx.numberOfItems.id,
      { propertyNgsiLdValueType: "String" },
      "fr",
    );
    expect(french.body.detail).toMatch(/^Le changement de son champ « .+ » casserait ces enregistrements/);
    await nodeWotStillWorks(43);
  });

  it("refuses a range the routing's controls leave, takes one they fit, and refuses a control's value out of it", async () => {
    const narrowed = await change("wot-properties", ctx.stock.id, { capacityValue: "[0, 40]" });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(409);
    expect(named(narrowed.body).map((n) => n.split(" ")[0])).toEqual([
      "routing-operation-controls",
      "routing-operation-controls",
    ]);
    const widened = await change("wot-properties", ctx.stock.id, {
      capacityValue: "[0, 100]",
      description: "Items",
    });
    expect(widened.status, JSON.stringify(widened.body)).toBe(200);
    const [control] = (await ctx.api("GET", `${ctx.path}/routing-operation-controls`)).body;
    for (const [value, code] of [
      ["500", "wot.outsideCapacity"],
      ["lots", "wot.controlType"],
      [".*+?(|\\", "wot.controlType"],
    ]) {
      const set = await change("routing-operation-controls", control.id, { woTPropertyValue: value });
      expect(set.status, value).toBe(400);
      expect(set.body.errors[0]).toMatchObject({ path: "woTPropertyValue", code });
    }
    expect((await change("routing-operation-controls", control.id, { woTPropertyValue: "60" })).status).toBe(
      200,
    );
    await nodeWotStillWorks(44);
  });
});
