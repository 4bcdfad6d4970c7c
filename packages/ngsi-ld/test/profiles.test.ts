import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NgsiLdClient,
  NgsiLdError,
  parseContentRange,
  profiles,
  type BrokerProfile,
  type ClientOptions,
} from "../src/index.ts";
import { RecordingBroker } from "./recording-broker.ts";

/**
 * The requests the client makes for each broker profile, checked against a recording fake broker
 * over real HTTP: paths, query parameters, headers, and how answers map to results and errors.
 */
let fake: RecordingBroker;
let mintaka: RecordingBroker;
beforeAll(async () => {
  fake = await new RecordingBroker().start();
  mintaka = await new RecordingBroker().start();
});
afterAll(async () => {
  await fake.stop();
  await mintaka.stop();
});

const CONTEXT = "https://example.org/ctx.jsonld";
const LINK = `<${CONTEXT}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`;
const API = "/ngsi-ld/v1";

const clientFor = (name: BrokerProfile["name"], extra: Partial<ClientOptions> = {}) =>
  new NgsiLdClient({
    baseUrl: fake.url,
    implementationName: name,
    label: `Broker ${name}`,
    tenant: "farm",
    customHeaders: { "X-Gateway-Key": "k1" },
    context: CONTEXT,
    bearer: "service-token",
    extraHeaders: { "Gateway-Authorization": "Bearer siop2" },
    ...extra,
  });

const building = (n: number) => ({
  id: `urn:ngsi-ld:Building:${n}`,
  type: "Building",
  name: { type: "Property", value: `B${n}` },
});

const names = Object.keys(profiles) as BrokerProfile["name"][];

describe.each(names)("profile %s", (name) => {
  const profile = profiles[name];

  it("sends tenant, Link, custom headers, bearer and Gateway-Authorization on an entity query", async () => {
    fake.answer(() => ({ body: [building(1)], headers: { "NGSILD-Results-Count": "42" } }));
    const result = await clientFor(name).queryEntities({ type: "Building", count: true, limit: 10 });
    expect(result).toEqual({ entities: [building(1)], count: 42 });
    const r = fake.last;
    expect(r.method).toBe("GET");
    expect(r.path).toBe(`${API}/entities`);
    expect(r.query).toEqual({ type: "Building", count: "true", limit: "10" });
    expect(r.headers["ngsild-tenant"]).toBe("farm");
    expect(r.headers.link).toBe(LINK);
    expect(r.headers.accept).toBe("application/json");
    expect(r.headers["x-gateway-key"]).toBe("k1");
    expect(r.headers.authorization).toBe("Bearer service-token");
    expect(r.headers["gateway-authorization"]).toBe("Bearer siop2");
  });

  it(`caps limit to the profile's ${profile.pageSizeCap} and to the broker's paginationMaxLimit`, async () => {
    fake.answer(() => ({ body: [] }));
    await clientFor(name).queryEntities({ type: "Building", limit: 5000 });
    expect(fake.last.query.limit).toBe(String(profile.pageSizeCap));
    await clientFor(name, { paginationMaxLimit: 25 }).queryEntities({ type: "Building", limit: 5000 });
    expect(fake.last.query.limit).toBe("25");
    const c = clientFor(name, { pageSize: 100_000 });
    expect(c.pageSize).toBe(profile.pageSizeCap);
  });

  it(`restricts to local data with ${profile.localParameter}=true, on entity queries only`, async () => {
    fake.answer(() => ({ body: [] }));
    const c = clientFor(name, { localOnly: true });
    await c.queryEntities({ attrs: ["name", "height"], q: "height>3" });
    expect(fake.last.query).toEqual({
      attrs: "name,height",
      q: "height>3",
      [profile.localParameter]: "true",
    });
    await c.types();
    // Stellio answers 501 to local on /types (notes/ngsi-ld.md §1.3).
    expect(fake.last.query).toEqual({ details: "true" });
    await clientFor(name).queryEntities({ type: "Building" });
    expect(fake.last.query).toEqual({ type: "Building" });
  });

  it("pages by offset with the profile's page size, stops on a short page and at max", async () => {
    const total = Math.min(profile.pageSizeCap, 100) * 2 + 3;
    const all = Array.from({ length: total }, (_, i) => building(i));
    fake.answer((r) => {
      const offset = Number(r.query.offset);
      return { body: all.slice(offset, offset + Number(r.query.limit)) };
    });
    const c = clientFor(name, { pageSize: 100 });
    const pages: number[] = [];
    for await (const page of c.entityPages({ type: "Building" })) pages.push(page.length);
    expect(pages).toEqual([100, 100, 3]);
    expect(fake.requests.map((r) => [r.query.offset, r.query.limit])).toEqual([
      ["0", "100"],
      ["100", "100"],
      ["200", "100"],
    ]);

    fake.answer((r) => ({ body: all.slice(Number(r.query.offset), Number(r.query.offset) + 100) }));
    const bounded: number[] = [];
    for await (const page of c.entityPages({ type: "Building" }, { max: 150 })) bounded.push(page.length);
    expect(bounded).toEqual([100, 50]);
    expect(fake.requests.at(-1)!.query.limit).toBe("50");
    expect((await c.entitiesOfType("Building", 120)).length).toBe(120);
  });

  it("discovery and subscription calls carry Link, tenant and bearer but no Gateway-Authorization", async () => {
    fake.answer((r) =>
      r.path.endsWith("/attributes")
        ? { body: [{ id: "name", attributeName: "name", typeNames: ["Building"] }] }
        : r.path.endsWith("/types")
          ? { body: [{ id: "Building", typeName: "Building" }] }
          : { body: [] },
    );
    const c = clientFor(name);
    expect(await c.types()).toEqual([{ id: "Building", typeName: "Building", attributeNames: [] }]);
    expect(await c.attributes()).toEqual([{ id: "name", attributeName: "name", typeNames: ["Building"] }]);
    expect(fake.last.query).toEqual({ details: "true" });
    await c.subscriptions();
    expect(fake.last.path).toBe(`${API}/subscriptions`);
    for (const r of fake.requests) {
      expect(r.headers["gateway-authorization"]).toBeUndefined();
      expect(r.headers.link).toBe(LINK);
      expect(r.headers["ngsild-tenant"]).toBe("farm");
      expect(r.headers.authorization).toBe("Bearer service-token");
    }
  });

  it("merges with PATCH /entities/{id} (merge-patch), or appends attributes when the broker lacks it", async () => {
    fake.answer(() => ({ status: 204 }));
    const fragment = { name: { type: "Property", value: "new" } };
    await clientFor(name).mergeEntity("urn:ngsi-ld:Building:1", fragment);
    expect(profile.mergePatch).toBe(true); // notes/ngsi-ld.md §1.1: all three brokers route it
    expect(fake.last).toMatchObject({
      method: "PATCH",
      path: `${API}/entities/urn:ngsi-ld:Building:1`,
      body: fragment,
      contentType: "application/json",
    });
    expect(fake.last.headers["gateway-authorization"]).toBe("Bearer siop2");
    await clientFor(name, { profileOverrides: { mergePatch: false } }).mergeEntity(
      "urn:ngsi-ld:Building:1",
      fragment,
    );
    expect(fake.last).toMatchObject({
      method: "POST",
      path: `${API}/entities/urn:ngsi-ld:Building:1/attrs`,
      query: {},
      body: fragment,
    });
  });

  it("replaces with PUT /entities/{id}, or a batch upsert with options=replace", async () => {
    fake.answer(() => ({ status: 204 }));
    await clientFor(name).replaceEntity(building(7));
    expect(fake.last).toMatchObject({
      method: "PUT",
      path: `${API}/entities/urn:ngsi-ld:Building:7`,
      body: building(7),
    });
    await clientFor(name, { profileOverrides: { putReplace: false } }).replaceEntity(building(7));
    expect(fake.last).toMatchObject({
      method: "POST",
      path: `${API}/entityOperations/upsert`,
      query: { options: "replace" },
      body: [building(7)],
    });
  });

  it(`reads temporal data from the broker (${profile.temporal} by default) or from Mintaka when configured`, async () => {
    fake.answer(() => ({ body: building(1) }));
    await clientFor(name).temporalEntity("urn:ngsi-ld:Building:1", {
      attrs: ["name"],
      timerel: "after",
      timeAt: "2024-01-01T00:00:00Z",
      lastN: 5,
    });
    expect(fake.last.path).toBe(`${API}/temporal/entities/urn:ngsi-ld:Building:1`);
    expect(fake.last.query).toEqual({
      attrs: "name",
      timerel: "after",
      timeAt: "2024-01-01T00:00:00Z",
      lastN: "5",
    });
    expect(fake.last.headers.authorization).toBe("Bearer service-token");
    expect(fake.last.headers["gateway-authorization"]).toBeUndefined();

    fake.answer(() => ({ body: [] }));
    mintaka.answer(() => ({ body: building(1) }));
    const c = clientFor(name, {
      temporalBaseUrl: `${mintaka.url}/mintaka/ngsi-ld/v1/`,
      temporalBearer: "mintaka-token",
    });
    await c.temporalEntity("urn:ngsi-ld:Building:1", { options: "temporalValues" });
    expect(fake.requests).toHaveLength(0);
    expect(mintaka.last.path).toBe("/mintaka/ngsi-ld/v1/temporal/entities/urn:ngsi-ld:Building:1");
    expect(mintaka.last.query).toEqual({ options: "temporalValues" });
    expect(mintaka.last.headers.authorization).toBe("Bearer mintaka-token");
    expect(mintaka.last.headers["ngsild-tenant"]).toBe("farm");
    expect(mintaka.last.headers.link).toBe(LINK);
    // The broker's custom headers are for the broker's gateway, not for a separate Mintaka host.
    expect(mintaka.last.headers["x-gateway-key"]).toBeUndefined();
  });

  it(
    profile.temporalQueryNeedsTimerel
      ? "queries temporal entities with timerel=before&timeAt=now when none is given (mandatory here)"
      : "queries temporal entities with only the parameters given",
    async () => {
      fake.answer(() => ({ body: [building(1)] }));
      const found = await clientFor(name).queryTemporal({ type: "Building", attrs: ["name"] });
      expect(found).toEqual([building(1)]);
      expect(fake.last.path).toBe(`${API}/temporal/entities`);
      const { timerel, timeAt, ...rest } = fake.last.query;
      expect(rest).toMatchObject({ type: "Building", attrs: "name", offset: "0" });
      if (profile.temporalQueryNeedsTimerel) {
        expect(timerel).toBe("before");
        expect(Math.abs(Date.parse(timeAt!) - Date.now())).toBeLessThan(60_000);
      } else {
        expect(timerel).toBeUndefined();
        expect(timeAt).toBeUndefined();
      }
    },
  );
});

describe("temporal through Mintaka", () => {
  const mintakaClient = () =>
    new NgsiLdClient({
      baseUrl: fake.url,
      implementationName: "orion-ld",
      temporalBaseUrl: `${mintaka.url}/ngsi-ld/v1`,
      context: CONTEXT,
    });

  it("parses Mintaka's 206 Content-Range (date <from>-<to>/<n>)", async () => {
    mintaka.answer(() => ({
      status: 206,
      headers: { "Content-Range": "date 2024-01-01T00:00:00Z-2024-01-02T12:30:00Z/100" },
      body: building(1),
    }));
    const r = await mintakaClient().temporalEntity("urn:ngsi-ld:Building:1", { lastN: 100 });
    expect(r.entity).toEqual(building(1));
    expect(r.contentRange).toEqual({ from: "2024-01-01T00:00:00Z", to: "2024-01-02T12:30:00Z", size: 100 });
  });

  it("pages entities with pageSize and the Next-Page anchor", async () => {
    mintaka.answer((r) =>
      r.query.pageAnchor === undefined
        ? { body: [building(1), building(2)], headers: { "Next-Page": "anchor-2", "Page-Size": "2" } }
        : { body: [building(3)] },
    );
    const found = await mintakaClient().queryTemporal({
      type: "Building",
      timerel: "between",
      timeAt: "2024-01-01T00:00:00Z",
      endTimeAt: "2024-02-01T00:00:00Z",
    });
    expect(found.map((e) => e.id)).toEqual([1, 2, 3].map((n) => `urn:ngsi-ld:Building:${n}`));
    expect(mintaka.requests.map((r) => r.query.pageAnchor)).toEqual([undefined, "anchor-2"]);
    expect(mintaka.requests[0].query).toMatchObject({ pageSize: "100", timerel: "between" });
    expect(mintaka.requests[0].query.limit).toBeUndefined();
  });

  it("writes instances to the broker itself, never to Mintaka (a read-only service)", async () => {
    fake.answer(() => ({ status: 204 }));
    mintaka.answer(() => ({ status: 500 }));
    await mintakaClient().addTemporalInstances(building(1));
    expect(mintaka.requests).toHaveLength(0);
    expect(fake.last).toMatchObject({ method: "POST", path: `${API}/temporal/entities`, body: building(1) });
  });

  it("reads Stellio's Content-Range form (date-time <from>-<to>/*) and offsets", () => {
    expect(parseContentRange("date-time 2024-05-01T10:00:00.000Z-2024-05-01T11:00:00+02:00/*")).toEqual({
      from: "2024-05-01T10:00:00.000Z",
      to: "2024-05-01T11:00:00+02:00",
    });
    expect(parseContentRange("bytes 0-99/100")).toBeUndefined();
    expect(parseContentRange(null)).toBeUndefined();
  });
});

describe("entity operations", () => {
  const c = () => clientFor("orrery");

  it("creates with POST /entities as application/json, or as application/ld+json without Link", async () => {
    fake.answer(() => ({ status: 201, headers: { Location: `${API}/entities/urn:ngsi-ld:Building:1` } }));
    await c().createEntity(building(1));
    expect(fake.last).toMatchObject({ method: "POST", path: `${API}/entities`, body: building(1) });
    expect(fake.last.contentType).toBe("application/json");
    expect(fake.last.headers.link).toBe(LINK);
    const ld = { ...building(2), "@context": CONTEXT };
    await c().createEntity(ld);
    expect(fake.last.contentType).toBe("application/ld+json");
    expect(fake.last.headers.link).toBeUndefined();
  });

  it("gets one entity with attrs, type and options; encodes the id as one path segment", async () => {
    fake.answer(() => ({ body: building(1) }));
    const id = "urn:ngsi-ld:Building:a/b c";
    expect(await c().getEntity(id, { attrs: ["name", "height"], options: "keyValues" })).toEqual(building(1));
    expect(fake.last.path).toBe(`${API}/entities/urn:ngsi-ld:Building:a%2Fb%20c`);
    expect(fake.last.query).toEqual({ attrs: "name,height", options: "keyValues" });
  });

  it("maps a 404 to NgsiLdError 404 with the broker's problem details", async () => {
    const problem = {
      type: "https://uri.etsi.org/ngsi-ld/errors/ResourceNotFound",
      title: "Entity not found",
      detail: "urn:ngsi-ld:Building:9",
      status: 404,
    };
    fake.answer(() => ({ status: 404, body: problem }));
    const error = await c()
      .getEntity("urn:ngsi-ld:Building:9")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NgsiLdError);
    expect(error).toMatchObject({ status: 404, problem, broker: "Broker orrery" });
    expect((error as Error).message).toBe("Broker orrery: Entity not found (urn:ngsi-ld:Building:9)");
  });

  it("keeps a status and a title when the error body is not problem details (the page is the detail)", async () => {
    fake.answer(() => ({ status: 502, body: "<html>Bad gateway</html>" }));
    await expect(c().deleteEntity("urn:ngsi-ld:Building:1")).rejects.toMatchObject({
      status: 502,
      problem: { title: "502 Bad Gateway", detail: "<html>Bad gateway</html>" },
    });
    fake.answer(() => ({ status: 503 }));
    await expect(c().deleteEntity("urn:ngsi-ld:Building:1")).rejects.toMatchObject({
      status: 503,
      problem: { title: "503 Service Unavailable" },
    });
    expect(fake.last).toMatchObject({ method: "DELETE", path: `${API}/entities/urn:ngsi-ld:Building:1` });
  });

  it("appends attributes (noOverwrite) and turns a 207 into an error naming what was not updated", async () => {
    fake.answer(() => ({ status: 204 }));
    await c().appendAttributes("urn:ngsi-ld:Building:1", { height: { type: "Property", value: 3 } });
    expect(fake.last).toMatchObject({
      method: "POST",
      path: `${API}/entities/urn:ngsi-ld:Building:1/attrs`,
      query: {},
    });
    fake.answer(() => ({
      status: 207,
      body: { updated: ["height"], notUpdated: [{ attributeName: "name", reason: "attribute exists" }] },
    }));
    const error = await c()
      .appendAttributes("urn:ngsi-ld:Building:1", { name: {}, height: {} }, { noOverwrite: true })
      .catch((e: unknown) => e);
    expect(fake.last.query).toEqual({ options: "noOverwrite" });
    expect(error).toBeInstanceOf(NgsiLdError);
    expect(error).toMatchObject({
      status: 207,
      problem: { detail: "name: attribute exists", notUpdated: [{ attributeName: "name" }] },
    });
  });

  it("updates and deletes one attribute (datasetId, deleteAll)", async () => {
    fake.answer(() => ({ status: 204 }));
    await c().updateAttribute("urn:ngsi-ld:Building:1", "name", { value: "x" });
    expect(fake.last).toMatchObject({
      method: "PATCH",
      path: `${API}/entities/urn:ngsi-ld:Building:1/attrs/name`,
      body: { value: "x" },
    });
    await c().deleteAttribute("urn:ngsi-ld:Building:1", "name", { datasetId: "urn:ngsi-ld:Dataset:a" });
    expect(fake.last).toMatchObject({ method: "DELETE", query: { datasetId: "urn:ngsi-ld:Dataset:a" } });
    await c().deleteAttribute("urn:ngsi-ld:Building:1", "name", { deleteAll: true });
    expect(fake.last.query).toEqual({ deleteAll: "true" });
  });

  it("sends geo-queries as geometry, georel and JSON coordinates", async () => {
    fake.answer(() => ({ body: [] }));
    await c().queryEntities({
      type: "Building",
      id: ["urn:a", "urn:b"],
      geoQ: { geometry: "Point", coordinates: [13.4, 52.5], georel: "near;maxDistance==2000" },
    });
    expect(fake.last.query).toEqual({
      type: "Building",
      id: "urn:a,urn:b",
      geometry: "Point",
      coordinates: "[13.4,52.5]",
      georel: "near;maxDistance==2000",
    });
  });
});

describe("discovery answers without details", () => {
  it("reads an EntityTypeList and an AttributeList when the broker ignores details=true", async () => {
    fake.answer((r) =>
      r.path.endsWith("/types")
        ? { body: { id: "urn:x", type: "EntityTypeList", typeList: ["Building", "Shelf"] } }
        : { body: { id: "urn:y", type: "AttributeList", attributeList: ["name"] } },
    );
    const c = clientFor("scorpio");
    expect(await c.types()).toEqual([
      { id: "Building", typeName: "Building", attributeNames: [] },
      { id: "Shelf", typeName: "Shelf", attributeNames: [] },
    ]);
    expect(await c.attributes()).toEqual([{ id: "name", attributeName: "name" }]);
  });
});

describe("batch operations", () => {
  const c = (extra: Partial<ClientOptions> = {}) => clientFor("stellio", extra);

  it("maps 201, 204 and 207 to one BatchResult; options per operation", async () => {
    fake.answer(() => ({ status: 201, body: ["urn:ngsi-ld:Building:1"] }));
    expect(await c().batchCreate([building(1), building(2)])).toEqual({
      success: ["urn:ngsi-ld:Building:1", "urn:ngsi-ld:Building:2"],
      errors: [],
    });
    expect(fake.last).toMatchObject({ path: `${API}/entityOperations/create`, query: {} });
    expect(fake.last.headers["gateway-authorization"]).toBe("Bearer siop2");

    fake.answer(() => ({ status: 204 }));
    expect((await c().batchUpsert([building(1)], { mode: "update" })).success).toEqual([
      "urn:ngsi-ld:Building:1",
    ]);
    expect(fake.last).toMatchObject({ path: `${API}/entityOperations/upsert`, query: { options: "update" } });
    await c().batchUpdate([building(1)], { noOverwrite: true });
    expect(fake.last).toMatchObject({
      path: `${API}/entityOperations/update`,
      query: { options: "noOverwrite" },
    });

    const problem = {
      type: "https://uri.etsi.org/ngsi-ld/errors/ResourceNotFound",
      title: "not found",
      status: 404,
    };
    fake.answer(() => ({
      status: 207,
      body: {
        success: ["urn:ngsi-ld:Building:1"],
        errors: [{ entityId: "urn:ngsi-ld:Building:2", error: problem }],
      },
    }));
    expect(await c().batchDelete(["urn:ngsi-ld:Building:1", "urn:ngsi-ld:Building:2"])).toEqual({
      success: ["urn:ngsi-ld:Building:1"],
      errors: [{ entityId: "urn:ngsi-ld:Building:2", error: problem }],
    });
    expect(fake.last).toMatchObject({
      path: `${API}/entityOperations/delete`,
      body: ["urn:ngsi-ld:Building:1", "urn:ngsi-ld:Building:2"],
    });
  });

  it("throws on a whole-request failure, and chunks to the profile's batchMax", async () => {
    fake.answer(() => ({ status: 400, body: { title: "Bad request", detail: "not an array" } }));
    await expect(c().batchCreate([building(1)])).rejects.toMatchObject({ status: 400 });
    fake.answer(() => ({ status: 204 }));
    const result = await c({ profileOverrides: { batchMax: 2 } }).batchUpsert([1, 2, 3, 4, 5].map(building));
    expect(fake.requests.map((r) => (r.body as unknown[]).length)).toEqual([2, 2, 1]);
    expect(result.success).toHaveLength(5);
  });

  it("a replace through upsert (no PUT) throws the entity's own error", async () => {
    fake.answer(() => ({
      status: 207,
      body: {
        success: [],
        errors: [{ entityId: "urn:ngsi-ld:Building:1", error: { title: "Bad attribute", status: 400 } }],
      },
    }));
    await expect(
      c({ profileOverrides: { putReplace: false } }).replaceEntity(building(1)),
    ).rejects.toMatchObject({ status: 400, problem: { title: "Bad attribute" } });
  });
});

describe("subscriptions", () => {
  const c = () => clientFor("scorpio", { pageSize: 2 });

  it("lists every page, reads, creates (id from Location or body), patches and deletes", async () => {
    const subs = [1, 2, 3].map((n) => ({ id: `urn:ngsi-ld:Subscription:${n}`, type: "Subscription" }));
    fake.answer((r) => ({
      body: subs.slice(Number(r.query.offset), Number(r.query.offset) + Number(r.query.limit)),
    }));
    expect(await c().subscriptions()).toEqual(subs);
    expect(fake.requests.map((r) => r.query)).toEqual([
      { limit: "2", offset: "0" },
      { limit: "2", offset: "2" },
    ]);

    fake.answer(() => ({
      status: 201,
      headers: { Location: `${API}/subscriptions/urn:ngsi-ld:Subscription:new` },
    }));
    const sub = { type: "Subscription" as const, entities: [{ type: "Building" }], notification: {} };
    expect(await c().createSubscription(sub)).toBe("urn:ngsi-ld:Subscription:new");
    expect(fake.last).toMatchObject({ method: "POST", path: `${API}/subscriptions`, body: sub });
    expect(fake.last.headers["gateway-authorization"]).toBeUndefined();
    fake.answer(() => ({ status: 201, body: { id: "urn:ngsi-ld:Subscription:b" } }));
    expect(await c().createSubscription(sub)).toBe("urn:ngsi-ld:Subscription:b");

    fake.answer(() => ({ body: subs[0] }));
    expect(await c().getSubscription(subs[0].id)).toEqual(subs[0]);
    expect(fake.last.path).toBe(`${API}/subscriptions/urn:ngsi-ld:Subscription:1`);
    fake.answer(() => ({ status: 204 }));
    await c().updateSubscription(subs[0].id, { isActive: false });
    expect(fake.last).toMatchObject({ method: "PATCH", body: { isActive: false } });
    await c().deleteSubscription(subs[0].id);
    expect(fake.last).toMatchObject({
      method: "DELETE",
      path: `${API}/subscriptions/urn:ngsi-ld:Subscription:1`,
    });
  });
});

describe("unreachable and silent brokers", () => {
  it("a broker that never answers is a 504 'did not answer in time' within the timeout", async () => {
    fake.answer(() => "hang");
    const started = Date.now();
    const error = await clientFor("orion-ld", { timeoutMs: 150 })
      .queryEntities({ type: "Building" })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(NgsiLdError);
    expect(error).toMatchObject({
      status: 504,
      problem: { title: "The context broker Broker orion-ld did not answer in time" },
    });
  });

  it("a broker that stalls in the middle of its body is also a 504 within the timeout", async () => {
    fake.answer(() => ({ status: 200, body: [building(1)], stall: true }));
    const started = Date.now();
    const error = await clientFor("stellio", { timeoutMs: 150 })
      .queryEntities({ type: "Building" })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({
      status: 504,
      problem: { title: "The context broker Broker stellio did not answer in time" },
    });
  });

  it("a closed port is a 504 'could not be reached'", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const error = await new NgsiLdClient({
      baseUrl: `http://127.0.0.1:${port}`,
      implementationName: "scorpio",
      label: "Closed",
    })
      .types()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504 });
    expect((error as NgsiLdError).problem.title).toMatch(
      /^The context broker Closed could not be reached \(.+\)$/,
    );
  });

  it("uses the fetch given in the options", async () => {
    const seen: string[] = [];
    const fetchImpl: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response(JSON.stringify([]), { status: 200 });
    };
    await new NgsiLdClient({
      baseUrl: "http://broker.invalid/",
      implementationName: "stellio",
      fetch: fetchImpl,
    }).types();
    expect(seen).toEqual(["http://broker.invalid/ngsi-ld/v1/types?details=true"]);
  });
});

describe("profile values (notes/ngsi-ld.md §2)", () => {
  it("page caps, local flag, temporal home, batch merge", () => {
    expect(profiles["orion-ld"]).toMatchObject({
      pageSizeCap: 1000,
      localParameter: "local",
      temporal: "mintaka",
      batchMerge: false,
    });
    expect(profiles.scorpio).toMatchObject({
      pageSizeCap: 1000,
      localParameter: "localOnly",
      temporal: "native",
    });
    expect(profiles.stellio).toMatchObject({
      pageSizeCap: 100,
      localParameter: "local",
      temporalQueryNeedsTimerel: true,
    });
    expect(new NgsiLdClient({ baseUrl: "http://x", implementationName: "unknown" }).profile.name).toBe(
      "orion-ld",
    );
  });
});
