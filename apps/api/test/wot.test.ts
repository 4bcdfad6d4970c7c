import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Servient } from "@node-wot/core";
import { HttpClientFactory } from "@node-wot/binding-http";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// Web of Things on the embedded broker: the rules of the eight kinds, the public W3C WoT Thing
// Description 1.1 validated against the W3C's JSON Schema (wot-thing-description-types), and a
// real consumer (node-wot with its HTTP binding) reading a property and invoking an action.

const require = createRequire(import.meta.url);
const tdSchema = JSON.parse(
  readFileSync(require.resolve("wot-thing-description-types/schema/td-json-schema-validation.json"), "utf8"),
) as Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const ctx = useEmbeddedWorkspace();
const ids: Record<string, string> = {};
const building = "urn:ngsi-ld:Building:wot-hq";

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  const { path, types, properties } = ctx;
  const notification = await ok("POST", "/api/data-actions", { name: "POST:Notification" });
  const get = await ok("POST", "/api/data-actions", { name: "GET" });
  ids.notifying = (
    await ok("POST", `${path}/data-services`, {
      name: "Building changes",
      hasEntityType: types.Building,
      hasProperties: [properties["Building.floors"], properties["Building.name"]],
      hasDataActions: [notification.id],
    })
  ).id;
  ids.silent = (
    await ok("POST", `${path}/data-services`, {
      name: "Building reads",
      hasEntityType: types.Building,
      hasProperties: [properties["Building.floors"]],
      hasDataActions: [get.id],
    })
  ).id;
  await ok("POST", `${path}/entities`, {
    id: building,
    type: "Building",
    name: { type: "Property", value: "Headquarters" },
    floors: { type: "Property", value: 3 },
  });
});

describe(`Web of Things records (${driver})`, () => {
  it("keep a WoT property to the thing description's type and a capacity value of its type", async () => {
    const { api, path, types, properties } = ctx;
    ids.td = (
      await ok("POST", `${path}/wot-thing-descriptions`, { name: "Building", hasType: types.Building })
    ).id;
    ids.otherTd = (
      await ok("POST", `${path}/wot-thing-descriptions`, { name: "Person", hasType: types.Person })
    ).id;
    const property = (extra: Record<string, unknown>) =>
      api("POST", `${path}/wot-properties`, {
        name: "floors",
        hasProperty: properties["Building.floors"],
        capacityType: "Range",
        capacityValue: "[0, 50]",
        hasWoTThingDescription: ids.td,
        ...extra,
      });
    const otherType = await property({ hasProperty: properties["Person.name"] });
    expect(otherType.body.errors[0]).toMatchObject({ path: "hasProperty", code: "wot.propertyOfType" });
    for (const capacityValue of ["[0", "[5, 1]", "[1, 2, 3]", '["a", 2]'])
      expect((await property({ capacityValue })).body.errors[0]).toMatchObject({
        path: "capacityValue",
        code: "wot.capacity.range",
      });
    const list = await property({ capacityType: "ListOfValues", capacityValue: "low, high" });
    expect(list.body.errors[0].code).toBe("wot.capacity.list");
    const made = await property({});
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    ids.floors = made.body.id;
    const twin = await property({});
    expect(twin.status).toBe(409);
    expect(twin.body.errors[0]).toMatchObject({ path: "name", code: "conflict.wotPropertyName" });
    ids.name = (
      await ok("POST", `${path}/wot-properties`, {
        name: "label",
        hasProperty: properties["Building.name"],
        capacityType: "ListOfValues",
        capacityValue: '["Headquarters", "Annex"]',
        hasWoTThingDescription: ids.td,
      })
    ).id;
  });

  it("give input properties bounds and an enum of their type, inside the action's thing description", async () => {
    const { api, path } = ctx;
    ids.renovate = (
      await ok("POST", `${path}/wot-actions`, {
        name: "renovate",
        description: "Rebuild",
        hasWoTThingDescription: ids.td,
      })
    ).id;
    ids.otherAction = (
      await ok("POST", `${path}/wot-actions`, { name: "move", hasWoTThingDescription: ids.otherTd })
    ).id;
    const input = (extra: Record<string, unknown>) =>
      api("POST", `${path}/wot-action-input-properties`, {
        name: "floors",
        propertyType: "number",
        minimum: 0,
        maximum: 100,
        required: true,
        hasWoTAction: ids.renovate,
        hasWoTThingDescription: ids.td,
        ...extra,
      });
    expect((await input({ minimum: 10, maximum: 5 })).body.errors[0].path).toBe("maximum");
    expect((await input({ enum: ["a"] })).body.errors[0].code).toBe("wot.enumNumbers");
    expect((await input({ enum: [1, 500] })).body.errors[0].code).toBe("wot.enumOutside");
    expect((await input({ hasWoTAction: ids.otherAction })).body.errors[0]).toMatchObject({
      path: "hasWoTAction",
      code: "field.outsideOf",
    });
    const floors = await input({});
    expect(floors.status, JSON.stringify(floors.body)).toBe(201);
    // A boolean keeps neither bounds nor enum; a string keeps its enum.
    const flag = await input({ name: "urgent", propertyType: "boolean", required: false, enum: [1] });
    expect(flag.status, JSON.stringify(flag.body)).toBe(201);
    expect(flag.body).not.toHaveProperty("minimum");
    expect(flag.body).not.toHaveProperty("enum");
    const label = await input({
      name: "name",
      propertyType: "string",
      required: false,
      enum: ["Headquarters", "Annex", "Depot"],
    });
    expect(label.body).toMatchObject({ enum: ["Headquarters", "Annex", "Depot"] });
    expect(label.body).not.toHaveProperty("maximum");
  });

  it("take an event's capacity type from its WoT property, on a notifying data service exposing it", async () => {
    const { api, path } = ctx;
    const event = (extra: Record<string, unknown>) =>
      api("POST", `${path}/wot-events`, {
        name: "floorsChanged",
        hasDataService: ids.notifying,
        hasWoTProperty: ids.floors,
        capacityValue: "[0, 10]",
        hasWoTThingDescription: ids.td,
        ...extra,
      });
    expect((await event({ hasDataService: ids.silent })).body.errors[0].code).toBe("wot.notNotifying");
    expect((await event({ capacityValue: "ten" })).body.errors[0].code).toBe("wot.capacity.range");
    // The capacity type is the server's, copied from the WoT property whatever the client says.
    const created = await event({ capacityType: "FreeText" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids.floorsChanged = created.body.id;
    expect(created.body.capacityType).toBe("Range");
  });

  it("keep operations and controls to the routing's thing description, and refuse deleting what has children", async () => {
    const { api, path } = ctx;
    ids.routing = (
      await ok("POST", `${path}/routings`, { name: "Night works", hasWoTThingDescription: ids.td })
    ).id;
    const operation = (extra: Record<string, unknown>) =>
      api("POST", `${path}/routing-operations`, {
        sequenceNumber: 1,
        timerBefore: 0,
        timerAfter: 30,
        hasWoTAction: ids.renovate,
        hasRouting: ids.routing,
        ...extra,
      });
    expect((await operation({ hasWoTAction: ids.otherAction })).body.errors[0].code).toBe("field.outsideOf");
    expect((await operation({ sequenceNumber: -1 })).status).toBe(400);
    expect((await operation({ timerAfter: 1.5 })).status).toBe(400);
    ids.operation = (await operation({})).body.id;
    await ok("POST", `${path}/routing-operations`, {
      sequenceNumber: 2,
      timerBefore: 5,
      timerAfter: 0,
      hasWoTAction: ids.renovate,
      hasRouting: ids.routing,
    });
    ids.control = (
      await ok("POST", `${path}/routing-operation-controls`, {
        hasWoTProperty: ids.floors,
        woTPropertyValue: "4",
        hasRoutingOperation: ids.operation,
      })
    ).id;

    const td = await api("DELETE", `${path}/wot-thing-descriptions/${ids.td}`);
    expect(td.status).toBe(409);
    expect(td.body.referrers.map((r: { kind: string }) => r.kind)).toEqual(
      expect.arrayContaining(["wot-properties", "wot-actions", "routings"]),
    );
    expect((await api("DELETE", `${path}/routing-operations/${ids.operation}`)).status).toBe(409);
    expect((await api("DELETE", `${path}/routing-operation-controls/${ids.control}`)).status).toBe(204);
    expect((await api("DELETE", `${path}/routing-operations/${ids.operation}`)).status).toBe(204);
  });
});

describe(`the public thing description (${driver})`, () => {
  it("is a valid W3C WoT TD 1.1, served without a login, with forms for every affordance", async () => {
    const { t } = ctx;
    const res = await t.app.inject({ method: "GET", url: `/wot-thing-descriptions/${ids.td}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/td\+json/);
    const td = JSON.parse(res.body);
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const validate = ajv.compile(tdSchema);
    expect(validate(td), JSON.stringify(validate.errors)).toBe(true);
    expect(td.properties.floors).toMatchObject({ type: "number", minimum: 0, maximum: 50, readOnly: true });
    expect(td.properties.floors).not.toHaveProperty("min");
    expect(td.properties.label).toMatchObject({ type: "string", enum: ["Headquarters", "Annex"] });
    expect(td.actions.renovate.input).toMatchObject({
      type: "object",
      required: ["floors"],
      properties: { floors: { type: "number", minimum: 0, maximum: 100 }, urgent: { type: "boolean" } },
    });
    // Events and observations are the API's live channel, in the two forms of the WoT HTTP binding.
    for (const forms of [td.events.floorsChanged.forms, td.properties.floors.forms.slice(1)])
      expect(forms.map((f: { subprotocol: string }) => f.subprotocol)).toEqual(["longpoll", "sse"]);
    expect(td.events.floorsChanged.forms[0]).toMatchObject({
      op: ["subscribeevent", "unsubscribeevent"],
      href: expect.stringMatching(/\/wot-events\/[^/]+\/changes\{\?entityId\}$/),
    });
    expect(td.properties.floors).toMatchObject({ observable: true });
    expect(td.properties.floors.forms[1].op).toEqual(["observeproperty", "unobserveproperty"]);
    // All properties at once: in the TD of one entity, which this one links to (see "reads all properties").
    expect(td).not.toHaveProperty("forms");
    expect(td.links).toEqual([
      {
        rel: "item",
        href: `wot-thing-descriptions/${encodeURIComponent(ids.td!)}{?entityId}`,
        type: "application/td+json",
      },
    ]);
    for (const affordance of [
      ...Object.values(td.properties),
      ...Object.values(td.actions),
      ...Object.values(td.events),
    ] as Array<{ forms: Array<{ href: string }> }>)
      for (const form of affordance.forms) expect(form.href).toMatch(/\{\?entityId\}$/);
    // The thing description of one entity: the same, every form naming the entity, no URI variables.
    const one = await t.app.inject({
      method: "GET",
      url: `/wot-thing-descriptions/${ids.td}?entityId=${encodeURIComponent(building)}`,
    });
    const oneTd = JSON.parse(one.body);
    expect(validate(oneTd), JSON.stringify(validate.errors)).toBe(true);
    expect(JSON.stringify(oneTd)).not.toMatch(/uriVariables|\{[?&]entityId\}/);
    for (const form of [
      ...oneTd.forms,
      ...[
        ...Object.values(oneTd.properties),
        ...Object.values(oneTd.actions),
        ...Object.values(oneTd.events),
      ].flatMap((a) => (a as { forms: unknown[] }).forms),
    ] as Array<{ href: string }>)
      expect(form.href).toContain(`?entityId=${encodeURIComponent(building)}`);
    // Fetched with a bearer token, the TD also offers Server-Sent Events with a stream token (stream_sc).
    const mine = JSON.parse(
      (
        await t.app.inject({
          method: "GET",
          url: `/wot-thing-descriptions/${ids.td}`,
          headers: { authorization: `Bearer ${await t.tokenFor("viewer")}` },
        })
      ).body,
    );
    expect(validate(mine), JSON.stringify(validate.errors)).toBe(true);
    expect(mine.securityDefinitions.stream_sc).toMatchObject({
      scheme: "apikey",
      in: "query",
      name: "stream_token",
    });
    expect(mine.properties.floors.forms[1]).toMatchObject({
      subprotocol: "sse",
      href: expect.stringMatching(/\/changes\?stream_token=[^{&]+\{&entityId\}$/),
    });
    expect(
      (await t.app.inject({ method: "GET", url: "/wot-thing-descriptions/urn:ngsi-ld:X:1" })).statusCode,
    ).toBe(404);
  });

  it("is consumed by node-wot: a property read and an action invoked change the entity in the broker", async () => {
    const { base, api, path, t } = ctx;
    const td = await (await fetch(`${base}/wot-thing-descriptions/${ids.td}`)).json();
    const servient = new Servient();
    servient.addClientFactory(new HttpClientFactory());
    servient.addCredentials({ [td.id]: { token: await t.tokenFor("operator") } });
    const wot = await servient.start();
    try {
      const thing = await wot.consume(td);
      const uriVariables = { entityId: building };
      expect(await (await thing.readProperty("floors", { uriVariables })).value()).toBe(3);
      expect(await (await thing.readProperty("label", { uriVariables })).value()).toBe("Headquarters");
      await thing.invokeAction("renovate", { floors: 7, name: "Annex" }, { uriVariables });
      const entity = (await api("GET", `${path}/entities/${encodeURIComponent(building)}`)).body;
      expect(entity.floors.value).toBe(7);
      expect(entity.name.value).toBe("Annex");
      expect(await (await thing.readProperty("floors", { uriVariables })).value()).toBe(7);
      // Outside the WoT property's Range [0, 50] (though within the input's 0..100): refused.
      await expect(thing.invokeAction("renovate", { floors: 70 }, { uriVariables })).rejects.toThrow();
      // The run is in the audit trail, with the entity it wrote; the refused one is not.
      const trail = await api(
        "GET",
        `/api/audit?action=wot.execute&record=${encodeURIComponent(ids.renovate!)}`,
      );
      expect(trail.status, JSON.stringify(trail.body)).toBe(200);
      expect(trail.body.items).toHaveLength(1);
      expect(trail.body.items[0]).toMatchObject({
        action: "wot.execute",
        kind: "wot-actions",
        detail: { entityId: building },
      });
    } finally {
      await servient.shutdown();
    }
  });

  it("refuses action input outside a capacity, not in a list, of the wrong type, or for no entity of the type", async () => {
    const { api, path } = ctx;
    const execute = (body: unknown, entityId = building) =>
      api(
        "POST",
        `${path}/wot-actions/${ids.renovate}/execute?entityId=${encodeURIComponent(entityId)}`,
        body,
      );
    const range = await execute({ floors: 70 });
    expect(range.status).toBe(400);
    expect(range.body.errors[0]).toMatchObject({ path: "floors", code: "wot.outsideCapacity" });
    const list = await execute({ floors: 2, name: "Depot" });
    expect(list.body.errors[0]).toMatchObject({ path: "name", code: "wot.outsideCapacity" });
    expect((await execute({ floors: "2" })).body.errors[0].code).toBe("field.type.number");
    expect((await execute({ name: "Annex" })).body.errors[0]).toMatchObject({
      path: "floors",
      code: "field.required",
    });
    expect((await execute({ floors: 2, height: 3 })).body.errors[0].code).toBe("field.unknownFields");
    const stranger = await execute({ floors: 2 }, "urn:ngsi-ld:Person:nobody");
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe("wot.entityNotFound");
    const entity = (await api("GET", `${path}/entities/${encodeURIComponent(building)}`)).body;
    expect(entity.floors.value).toBe(7); // nothing written by the refused calls
    const viewer = await ctx.t.tokenFor("viewer");
    const refused = await ctx.t.app.inject({
      method: "POST",
      url: `${path}/wot-actions/${ids.renovate}/execute?entityId=${encodeURIComponent(building)}`,
      headers: { authorization: `Bearer ${viewer}` },
      payload: { floors: 2 },
    });
    expect(refused.statusCode).toBe(403);
  });
});

/** A form's href with its entityId variable given, against the TD's base. */
const expand = (td: { base: string }, href: string, entityId = building) =>
  new URL(href.replace("{?entityId}", `?entityId=${encodeURIComponent(entityId)}`), td.base).toString();

describe(`a WoT consumer of the whole thing description (${driver})`, () => {
  let operator: string;
  beforeAll(async () => {
    operator = await ctx.t.tokenFor("operator");
  });

  /** node-wot consuming the TD at `url`, with the operator's token. */
  async function consume(url: string) {
    const td = await (await fetch(url)).json();
    const servient = new Servient();
    servient.addClientFactory(new HttpClientFactory());
    servient.addCredentials({ [td.id]: { token: operator } });
    const wot = await servient.start();
    return { thing: await wot.consume(td), servient, td };
  }

  /** Another client (the console, through the API) writes the entity's floors in the broker. */
  const setFloors = (value: number) =>
    ok("PUT", `${ctx.path}/entities/${encodeURIComponent(building)}/attrs/floors`, {
      type: "Property",
      value,
    });

  it("reads all properties: node-wot on the TD of one entity, which the TD for every entity links to and names", async () => {
    const url = `${ctx.base}/wot-thing-descriptions/${ids.td}`;
    const generic = await (await fetch(url)).json();
    // node-wot 0.9.2 reads all properties one by one, without the URI variables it is given
    // (ConsumedThing._readProperties): on the TD for every entity no form names the entity, so the
    // TD offers no Thing-level form there and says where to read them all.
    const everyEntity = await consume(url);
    try {
      await expect(
        everyEntity.thing.readAllProperties({ uriVariables: { entityId: building } }),
      ).rejects.toThrow(/Bad Request/);
    } finally {
      await everyEntity.servient.shutdown();
    }
    expect(generic).not.toHaveProperty("forms");
    expect(generic.uriVariables.entityId.description).toMatch(
      /To read all properties at once \(readallproperties\), consume the TD of one entity: this TD's address with \?entityId=, its link of relation item\./,
    );
    const link = generic.links.find((l: { rel: string }) => l.rel === "item");
    const { thing, servient, td } = await consume(expand(generic, link.href));
    try {
      const values = await thing.readAllProperties();
      expect(await values.get("floors")!.value()).toBe(7);
      expect(await values.get("label")!.value()).toBe("Annex");
      const some = await thing.readMultipleProperties(["label"]);
      expect(await some.get("label")!.value()).toBe("Annex");
      expect(td.forms[0].op).toEqual(["readallproperties"]);
      const direct = await fetch(new URL(td.forms[0].href, td.base), {
        headers: { authorization: `Bearer ${operator}` },
      });
      expect(await direct.json()).toEqual({ floors: 7, label: "Annex" });
      expect(new URL(td.links[0].href, td.base).pathname).toBe(
        `/wot-thing-descriptions/${encodeURIComponent(ids.td!)}`,
      );
    } finally {
      await servient.shutdown();
    }
    const stranger = await ctx.api(
      "GET",
      `${ctx.path}/wot-thing-descriptions/${ids.td}/property-values?entityId=${encodeURIComponent("urn:ngsi-ld:Building:nobody")}`,
    );
    expect(stranger.status, JSON.stringify(stranger.body)).toBe(404);
    expect(stranger.body.code).toBe("wot.entityNotFound");
  });

  it("answers a form without an entity with a 400 that says how to name it, in English and French", async () => {
    const { path } = ctx;
    const en = await ctx.api("GET", `${path}/wot-thing-descriptions/${ids.td}/property-values`);
    expect(en.status, JSON.stringify(en.body)).toBe(400);
    expect(en.body.detail).toBe(
      "Name the Building entity to read or act on: add ?entityId= and its id (urn:ngsi-ld:Building:...) to this address, " +
        `or consume the thing description of that entity (/wot-thing-descriptions/${ids.td}?entityId=...), whose forms all name it.`,
    );
    const fr = await ctx.api("GET", `${path}/wot-properties/${ids.floors}/value?entityId=`, undefined, {
      "accept-language": "fr",
    });
    expect(fr.status, JSON.stringify(fr.body)).toBe(400);
    expect(fr.body.detail).toMatch(
      /^Nommez l’entité Building à lire ou sur laquelle agir\u00a0: ajoutez \?entityId=/,
    );
    // An action without an entity writes nothing; its input is checked first, as before.
    const action = await ctx.api("POST", `${path}/wot-actions/${ids.renovate}/execute`, { floors: 3 });
    expect(action.status, JSON.stringify(action.body)).toBe(400);
    expect(action.body.code).toBe("wot.entityMissing");
    const changes = await ctx.api("GET", `${path}/wot-events/${ids.floorsChanged}/changes`);
    expect([changes.status, changes.body.code]).toEqual([400, "wot.entityMissing"]);
    const entity = await ctx.api("GET", `${path}/entities/${encodeURIComponent(building)}`);
    expect(entity.body.floors.value).toBe(7);
    // Hostile bytes are no entity id: the broker's readable 400, never a 500.
    const hostile = await ctx.api(
      "GET",
      `${path}/wot-thing-descriptions/${ids.td}/property-values?entityId=${encodeURIComponent(".*+?(|\\")}`,
    );
    expect(hostile.status).toBe(400);
    expect(hostile.body.detail).toMatch(/refused: .*entity id "\.\*\+\?\(\|\\\\" is not a URI$/);
  });

  it("observes a property: node-wot receives within a second the change another client makes in the broker", async () => {
    const { thing, servient } = await consume(`${ctx.base}/wot-thing-descriptions/${ids.td}`);
    const options = { uriVariables: { entityId: building } };
    try {
      const seen: Array<{ value: unknown; at: number }> = [];
      const observation = await thing.observeProperty(
        "floors",
        async (output) => void seen.push({ value: await output.value(), at: Date.now() }),
        undefined,
        options,
      );
      const written = Date.now();
      await setFloors(8);
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 3_000 });
      expect(seen[0]!.value).toBe(8);
      expect(seen[0]!.at - written).toBeLessThan(1_000);
      // Another attribute's change (the entity replaced, floors written again as it was) is no new
      // value of floors; the next change of floors is.
      await ok("PUT", `${ctx.path}/entities/${encodeURIComponent(building)}/attrs/name`, {
        type: "Property",
        value: "Headquarters",
      });
      await setFloors(9);
      await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 3_000 });
      expect(seen.map((s) => s.value)).toEqual([8, 9]);
      await observation.stop(options);
    } finally {
      await servient.shutdown();
    }
  });

  it("subscribes to an event: the new values of its WoT property within the event's capacity", async () => {
    const { thing, servient } = await consume(`${ctx.base}/wot-thing-descriptions/${ids.td}`);
    const options = { uriVariables: { entityId: building } };
    try {
      const seen: unknown[] = [];
      const subscription = await thing.subscribeEvent(
        "floorsChanged",
        async (output) => void seen.push(await output.value()),
        undefined,
        options,
      );
      await setFloors(20); // outside the event's capacity [0, 10]
      await setFloors(4);
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 3_000 });
      expect(seen).toEqual([4]);
      await subscription.stop(options);
    } finally {
      await servient.shutdown();
    }
  });

  it("keeps a long-poll client's changes between two polls, from its handshake on", async () => {
    const td = await (await fetch(`${ctx.base}/wot-thing-descriptions/${ids.td}`)).json();
    const url = expand(td, td.properties.floors.forms[1].href);
    // A client of its own: long-poll mailboxes are a caller's (its token's).
    const headers = { authorization: `Bearer ${await ctx.t.tokenFor("operator")}` };
    expect((await fetch(url, { method: "HEAD", headers })).status).toBe(200);
    await setFloors(1);
    await setFloors(2);
    for (const expected of [1, 2]) {
      const poll = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
      expect(poll.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await poll.json()).toBe(expected);
    }
  });

  it("streams the changes as Server-Sent Events to a client with a token allowed on the served path", async () => {
    const td = await (await fetch(`${ctx.base}/wot-thing-descriptions/${ids.td}`)).json();
    const form = td.properties.floors.forms.find((f: { subprotocol?: string }) => f.subprotocol === "sse");
    const url = expand(td, form.href);
    const accept = "text/event-stream";
    // Without a token (as node-wot 0.9 and EventSource open it), and with one that may read values only.
    const refused = await fetch(url, { headers: { accept } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe("auth.unauthenticated");
    const valuesOnly = await ctx.t.tokenWith([
      { action: "GET", resource: "^/api/workspace/[^/]+/wot-properties/[^/]+/value$" },
    ]);
    const forbidden = await fetch(url, { headers: { accept, authorization: `Bearer ${valuesOnly}` } });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).code).toBe("auth.forbidden");
    const viewer = await ctx.t.tokenFor("viewer");
    const stop = new AbortController();
    const res = await fetch(url, {
      headers: { accept, authorization: `Bearer ${viewer}` },
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const until = async (part: string) => {
      while (!text.includes(part)) text += (await reader.read()).value ?? "";
    };
    await until(": open");
    await setFloors(6);
    await until("data: 6\n\n");
    stop.abort();
  });

  it("observes over Server-Sent Events with the stream token of a TD fetched with a bearer token: node-wot, not long polling", async () => {
    const url = `${ctx.base}/wot-thing-descriptions/${ids.td}?entityId=${encodeURIComponent(building)}`;
    const td = await (await fetch(url, { headers: { authorization: `Bearer ${operator}` } })).json();
    expect(td.properties.floors.forms[1]).toMatchObject({
      subprotocol: "sse",
      op: ["observeproperty", "unobserveproperty"],
    });
    expect(td.events.floorsChanged.forms[0].subprotocol).toBe("sse");
    // node-wot's own credential is worthless: a long poll (its Authorization header) would be refused.
    const servient = new Servient();
    servient.addClientFactory(new HttpClientFactory());
    servient.addCredentials({ [td.id]: { token: "not-a-token" } });
    const wot = await servient.start();
    try {
      const thing = await wot.consume(td);
      const observed: unknown[] = [];
      const events: unknown[] = [];
      const observation = await thing.observeProperty(
        "floors",
        async (o) => void observed.push(await o.value()),
      );
      const subscription = await thing.subscribeEvent(
        "floorsChanged",
        async (o) => void events.push(await o.value()),
      );
      await setFloors(5);
      await vi.waitFor(() => expect(observed).toEqual([5]), { timeout: 3_000 });
      await vi.waitFor(() => expect(events).toEqual([5]), { timeout: 3_000 });
      await setFloors(40); // outside the event's capacity [0, 10]
      await setFloors(2);
      await vi.waitFor(() => expect(observed).toEqual([5, 40, 2]), { timeout: 3_000 });
      await vi.waitFor(() => expect(events).toEqual([5, 2]), { timeout: 3_000 });
      await observation.stop();
      await subscription.stop();
    } finally {
      await servient.shutdown();
    }
    // The token never reaches a log line.
    const token = new URL(td.properties.floors.forms[1].href, td.base).searchParams.get("stream_token")!;
    expect(ctx.t.logs.join("\n")).not.toContain(token);
    expect(ctx.t.logs.join("\n")).not.toContain(encodeURIComponent(token));
  });

  it("keeps a stream token to Server-Sent Events of the thing's observations its holder may open, for a quarter of an hour", async () => {
    const { t, path, api, properties } = ctx;
    const td = await (
      await fetch(`${ctx.base}/wot-thing-descriptions/${ids.td}`, {
        headers: { authorization: `Bearer ${operator}` },
      })
    ).json();
    const token = new URL(
      td.properties.floors.forms[1].href.replace("{&entityId}", ""),
      td.base,
    ).searchParams.get("stream_token")!;
    const entity = `entityId=${encodeURIComponent(building)}`;
    const sse = { accept: "text/event-stream" };
    /** The status a GET of the address answers (a stream, once open, is closed). */
    const open = async (url: string, headers: Record<string, string> = sse) => {
      const stop = new AbortController();
      const res = await fetch(`${ctx.base}${url}`, { headers, signal: stop.signal });
      stop.abort();
      return { statusCode: res.status };
    };
    const changes = (kind: string, id: string, query = `stream_token=${encodeURIComponent(token)}`) =>
      `${path}/${kind}/${id}/changes?${query}&${entity}`;
    // Opens the thing's event stream...
    expect((await open(changes("wot-events", ids.floorsChanged!))).statusCode).toBe(200);
    // ...but no long poll, no value read, no other thing's observation, no forged or expired token.
    expect((await open(changes("wot-properties", ids.floors!), {})).statusCode).toBe(401);
    expect(
      (
        await open(
          `${path}/wot-properties/${ids.floors}/value?stream_token=${encodeURIComponent(token)}&${entity}`,
        )
      ).statusCode,
    ).toBe(401);
    const other = await api("POST", `${path}/wot-properties`, {
      name: "visitor",
      hasProperty: properties["Person.name"],
      capacityType: "FreeText",
      capacityValue: "any",
      hasWoTThingDescription: ids.otherTd,
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const foreign = await open(changes("wot-properties", other.body.id));
    expect(foreign.statusCode).toBe(403);
    const forged = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    for (const bad of [forged, ".*+?(|\\", "v1.x.y.z"])
      expect(
        (await open(changes("wot-properties", ids.floors!, `stream_token=${encodeURIComponent(bad)}`)))
          .statusCode,
      ).toBe(401);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 16 * 60_000 });
    try {
      expect((await open(changes("wot-properties", ids.floors!))).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    // A caller who may only read values, and an anonymous one, get no stream token.
    const valuesOnly = await t.tokenWith([
      { action: "GET", resource: "^/api/workspace/[^/]+/wot-properties/[^/]+/value$" },
    ]);
    for (const headers of [{ authorization: `Bearer ${valuesOnly}` }, {}] as Array<Record<string, string>>) {
      const res = await fetch(`${ctx.base}/wot-thing-descriptions/${ids.td}`, { headers });
      expect(await res.text()).not.toContain("stream_token=");
    }
  });
  it("ends a stream token with the session that issued it: its open stream closes at sign-out, and it opens no other", async () => {
    const { t, path } = ctx;
    const session = await t.tokenFor("operator");
    const td = await (
      await fetch(`${ctx.base}/wot-thing-descriptions/${ids.td}`, {
        headers: { authorization: `Bearer ${session}` },
      })
    ).json();
    const token = new URL(
      td.properties.floors.forms[1].href.replace("{&entityId}", ""),
      td.base,
    ).searchParams.get("stream_token")!;
    const url = `${ctx.base}${path}/wot-properties/${ids.floors}/changes?stream_token=${encodeURIComponent(
      token,
    )}&entityId=${encodeURIComponent(building)}`;
    const res = await fetch(url, { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes(": open")) text += (await reader.read()).value ?? "";
    const signOut = await fetch(`${ctx.base}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
    });
    expect(signOut.status).toBe(204);
    // The open stream ends (EventSource would see it closed), without another value.
    const ended = await Promise.race([
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return true;
          text += value;
        }
      })(),
      new Promise((resolve) => setTimeout(() => resolve(false), 3_000)),
    ]);
    expect(ended).toBe(true);
    expect(text).not.toContain("data:");
    // And the token opens nothing more, as the session's bearer token does not.
    const again = new AbortController();
    const refused = await fetch(url, { headers: { accept: "text/event-stream" }, signal: again.signal });
    expect(refused.status).toBe(401);
    again.abort();
  });
});
