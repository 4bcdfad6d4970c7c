import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NgsiLdClient, NgsiLdError, type ClientOptions, type Entity } from "@orrery/ngsi-ld";
import { startTestApp, type TestApp } from "../support/harness.ts";
import { ERR, uid } from "./ngsi.ts";

/**
 * The NGSI-LD client (packages/ngsi-ld) against the embedded broker over real HTTP, as apps/api
 * uses it for a workspace on the embedded broker. Describe blocks are named after the ETSI NGSI-LD
 * test suite's test purposes they mirror (CE 001 create, RE 018 retrieve, QE 019 query, EA entity
 * attributes, ME/RPE merge/replace, BE 003-006 batch, Sub 028-032 subscriptions, TE 020/021 temporal).
 * Subscriptions and temporal run only when a probe finds them in this broker.
 */
// Top level, so that the probes decide it.skipIf below: an operation this broker lacks is 404
// "no NGSI-LD operation" (packages/broker/src/broker.ts).
const t: TestApp = await startTestApp();
const base = await t.app.listen({ port: 0, host: "127.0.0.1" });
// The broker's policy enforcement point lets an administrator's Orrery token reach every tenant.
const bearer = await t.tokenFor("admin");
const authorization = { authorization: `Bearer ${bearer}` };
const subscriptionsAvailable = (await fetch(`${base}/ngsi-ld/v1/subscriptions`, { headers: authorization }))
  .ok;
const temporalAvailable = (
  await fetch(
    `${base}/ngsi-ld/v1/temporal/entities?type=Probe&timerel=before&timeAt=${new Date().toISOString()}`,
    { headers: authorization },
  )
).ok;
afterAll(() => t?.close());

const clientOf = (extra: Partial<ClientOptions> = {}) =>
  new NgsiLdClient({
    baseUrl: base,
    implementationName: "orrery",
    label: "Embedded broker",
    customHeaders: { "X-Workspace": "w1" },
    bearer,
    extraHeaders: { "Gateway-Authorization": "Bearer siop2" },
    timeoutMs: 10_000,
    ...extra,
  });

/** A type name per test, so tests do not see each other's entities. */
let typeCounter = 0;
const freshType = () => `ClientTest${Date.now().toString(36)}${(typeCounter++).toString(36)}`;

const building = (id: string, type = "Building"): Entity => ({
  id,
  type,
  name: { type: "Property", value: "Farm" },
  height: { type: "Property", value: 12.5, unitCode: "MTR" },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [13.4, 52.5] } },
  owner: { type: "Relationship", object: "urn:ngsi-ld:Person:alice" },
});

const errorOf = async (p: Promise<unknown>): Promise<NgsiLdError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(NgsiLdError);
  return e as NgsiLdError;
};

describe("TP/NGSI-LD/CI/Prov/CE/001 create entity (5.6.1)", () => {
  it("001_01 creates an entity that reads back the same", async () => {
    const client = clientOf();
    const id = uid();
    await client.createEntity(building(id));
    expect(await client.getEntity(id)).toEqual(building(id));
  });

  it("002_01 an existing id is NgsiLdError 409 AlreadyExists with the broker's problem details", async () => {
    const client = clientOf();
    const id = uid();
    await client.createEntity(building(id));
    const e = await errorOf(client.createEntity(building(id)));
    expect(e.status).toBe(409);
    expect(e.problem.type).toBe(ERR("AlreadyExists"));
    expect(e.broker).toBe("Embedded broker");
    expect(e.message).toMatch(/^Embedded broker: /);
  });
});

describe("TP/NGSI-LD/CI/Cons/RE/018 retrieve entity (5.7.1)", () => {
  it("018_01 retrieves with attrs and keyValues", async () => {
    const client = clientOf();
    const id = uid();
    await client.createEntity(building(id));
    expect(await client.getEntity(id, { attrs: ["height"] })).toEqual({
      id,
      type: "Building",
      height: { type: "Property", value: 12.5, unitCode: "MTR" },
    });
    expect(await client.getEntity(id, { options: "keyValues" })).toMatchObject({
      id,
      name: "Farm",
      height: 12.5,
      owner: "urn:ngsi-ld:Person:alice",
    });
  });

  it("018_02 an unknown id is NgsiLdError 404 ResourceNotFound", async () => {
    const e = await errorOf(clientOf().getEntity(uid()));
    expect(e.status).toBe(404);
    expect(e.problem.type).toBe(ERR("ResourceNotFound"));
  });
});

describe("TP/NGSI-LD/CI/Cons/QE/019 query, pagination and count (6.3.10, 6.3.13)", () => {
  let type: string;
  const ids: string[] = [];
  beforeAll(async () => {
    type = freshType();
    for (let i = 0; i < 25; i++) ids.push(`urn:ngsi-ld:${type}:${String(i).padStart(2, "0")}`);
    const result = await clientOf().batchCreate(
      ids.map((id, i) => ({ id, type, floors: { type: "Property", value: i } })),
    );
    expect(result.errors).toEqual([]);
  });

  it("019_07 one page with the total from NGSILD-Results-Count; limit=0 with count", async () => {
    const client = clientOf();
    const page = await client.queryEntities({ type, count: true, limit: 10 });
    expect(page.entities).toHaveLength(10);
    expect(page.count).toBe(25);
    expect(await client.queryEntities({ type, count: true, limit: 0 })).toEqual({ entities: [], count: 25 });
    expect((await client.queryEntities({ type, limit: 10 })).count).toBeUndefined();
  });

  it("a limit above the broker's cap is capped by the client instead of a 403 TooManyResults", async () => {
    const page = await clientOf().queryEntities({ type, limit: 50_000 });
    expect(page.entities).toHaveLength(25);
  });

  it("entityPages walks every page by offset and stops on the short one; max bounds it", async () => {
    const client = clientOf({ pageSize: 10 });
    const sizes: number[] = [];
    const seen: string[] = [];
    for await (const page of client.entityPages({ type })) {
      sizes.push(page.length);
      seen.push(...page.map((e) => e.id));
    }
    expect(sizes).toEqual([10, 10, 5]);
    expect(new Set(seen)).toEqual(new Set(ids));
    let bounded = 0;
    for await (const page of client.entityPages({ type }, { max: 12 })) bounded += page.length;
    expect(bounded).toBe(12);
    expect(await client.entitiesOfType(type, 7)).toHaveLength(7);
  });

  it("q, idPattern, id lists and attrs", async () => {
    const client = clientOf();
    expect((await client.queryEntities({ type, q: "floors>=20", limit: 100 })).entities).toHaveLength(5);
    expect((await client.queryEntities({ type, idPattern: ".*:0[0-4]$", limit: 100 })).entities).toHaveLength(
      5,
    );
    const two = await client.queryEntities({ id: [ids[0], ids[1]], type, attrs: ["floors"] });
    expect(two.entities.map((e) => e.id).sort()).toEqual([ids[0], ids[1]]);
  });

  it("a query without a selector is 400 unless local: localOnly sends this profile's local=true", async () => {
    const e = await errorOf(clientOf().queryEntities({ limit: 1 }));
    expect(e.status).toBe(400);
    expect(e.problem.type).toBe(ERR("BadRequestData"));
    const local = await clientOf({ localOnly: true }).queryEntities({ limit: 1, count: true });
    expect(local.count).toBeGreaterThanOrEqual(25);
  });

  it("geo-queries travel as geometry, georel and JSON coordinates", async () => {
    const client = clientOf();
    const geoType = freshType();
    await client.createEntity(building(`urn:ngsi-ld:${geoType}:berlin`, geoType));
    const near = await client.queryEntities({
      type: geoType,
      geoQ: { geometry: "Point", coordinates: [13.41, 52.5], georel: "near;maxDistance==2000" },
    });
    expect(near.entities.map((e) => e.id)).toEqual([`urn:ngsi-ld:${geoType}:berlin`]);
    const far = await client.queryEntities({
      type: geoType,
      geoQ: { geometry: "Point", coordinates: [2.35, 48.85], georel: "near;maxDistance==2000" },
    });
    expect(far.entities).toEqual([]);
  });
});

describe("TP/NGSI-LD/CI/Prov/EA entity attributes (5.6.2-5.6.5)", () => {
  it("appends, refuses to overwrite with noOverwrite (207 as an error naming the attribute), updates, deletes", async () => {
    const client = clientOf();
    const id = uid();
    await client.createEntity(building(id));
    await client.appendAttributes(id, { floors: { type: "Property", value: 3 } });
    expect((await client.getEntity(id)).floors).toEqual({ type: "Property", value: 3 });

    const e = await errorOf(
      client.appendAttributes(
        id,
        { floors: { type: "Property", value: 4 }, colour: { type: "Property", value: "red" } },
        { noOverwrite: true },
      ),
    );
    expect(e.status).toBe(207);
    expect(e.problem.notUpdated).toEqual([expect.objectContaining({ attributeName: "floors" })]);
    const after = await client.getEntity(id);
    expect(after.floors).toEqual({ type: "Property", value: 3 });
    expect(after.colour).toEqual({ type: "Property", value: "red" });

    await client.updateAttribute(id, "height", { value: 20 });
    expect((await client.getEntity(id)).height).toEqual({ type: "Property", value: 20, unitCode: "MTR" });

    await client.deleteAttribute(id, "colour");
    expect((await client.getEntity(id)).colour).toBeUndefined();
    expect((await errorOf(client.deleteAttribute(id, "colour"))).status).toBe(404);
  });

  it("deletes one instance of a multi-valued attribute by datasetId, or all of them", async () => {
    const client = clientOf();
    const id = uid();
    await client.createEntity({
      id,
      type: "Building",
      name: [
        { type: "Property", value: "a", datasetId: "urn:ngsi-ld:Dataset:a" },
        { type: "Property", value: "b", datasetId: "urn:ngsi-ld:Dataset:b" },
        { type: "Property", value: "default" },
      ],
    });
    await client.deleteAttribute(id, "name", { datasetId: "urn:ngsi-ld:Dataset:a" });
    const names = (await client.getEntity(id)).name as Array<{ value: string }>;
    expect(names.map((n) => n.value).sort()).toEqual(["b", "default"]);
    await client.deleteAttribute(id, "name", { deleteAll: true });
    expect((await client.getEntity(id)).name).toBeUndefined();
  });
});

describe("TP/NGSI-LD/CI/Prov/ME merge entity (5.6.17) and TP/NGSI-LD/CI/Prov/RPE replace entity (5.6.18)", () => {
  it("merges with PATCH /entities/{id}: sets given attributes, keeps the rest", async () => {
    const client = clientOf();
    const id = uid();
    await client.createEntity(building(id));
    await client.mergeEntity(id, {
      name: { type: "Property", value: "Barn" },
      floors: { type: "Property", value: 2 },
    });
    const e = await client.getEntity(id);
    expect(e.name).toEqual({ type: "Property", value: "Barn" });
    expect(e.floors).toEqual({ type: "Property", value: 2 });
    expect(e.owner).toEqual(building(id).owner);
  });

  it("without merge-patch, merges through POST /entities/{id}/attrs with the same result", async () => {
    const client = clientOf({ profileOverrides: { mergePatch: false } });
    const id = uid();
    await client.createEntity(building(id));
    await client.mergeEntity(id, { id, type: "Building", name: { type: "Property", value: "Barn" } });
    const e = await client.getEntity(id);
    expect(e.name).toEqual({ type: "Property", value: "Barn" });
    expect(e.height).toEqual(building(id).height);
  });

  it("replaces with PUT /entities/{id}, and through an upsert with options=replace where PUT is missing", async () => {
    for (const putReplace of [true, false]) {
      const client = clientOf({ profileOverrides: { putReplace } });
      const id = uid();
      await client.createEntity(building(id));
      await client.replaceEntity({ id, type: "Building", name: { type: "Property", value: "Only" } });
      expect(await client.getEntity(id)).toEqual({
        id,
        type: "Building",
        name: { type: "Property", value: "Only" },
      });
    }
  });

  it("replacing or merging an unknown entity is NgsiLdError 404", async () => {
    expect((await errorOf(clientOf().replaceEntity(building(uid())))).status).toBe(404);
    expect((await errorOf(clientOf().mergeEntity(uid(), { name: { value: "x" } }))).status).toBe(404);
  });
});

describe("TP/NGSI-LD/CI/Prov/DE/002 delete entity (5.6.6)", () => {
  it("deletes, then the entity is 404 and a second delete is 404", async () => {
    const client = clientOf();
    const id = uid();
    await client.createEntity(building(id));
    await client.deleteEntity(id);
    expect((await errorOf(client.getEntity(id))).status).toBe(404);
    expect((await errorOf(client.deleteEntity(id))).status).toBe(404);
  });
});

describe("TP/NGSI-LD/CI/Prov/BE/003-006 batch operations (5.6.7-5.6.10)", () => {
  it("003 batch create: 201 is all success; 207 lists the failures with problem details", async () => {
    const client = clientOf();
    const [a, b] = [uid(), uid()];
    expect(await client.batchCreate([building(a), building(b)])).toEqual({ success: [a, b], errors: [] });
    const c = uid();
    const result = await client.batchCreate([building(a), building(c)]);
    expect(result.success).toEqual([c]);
    expect(result.errors).toEqual([
      { entityId: a, error: expect.objectContaining({ type: ERR("AlreadyExists"), status: 409 }) },
    ]);
  });

  it("004 batch upsert: replace by default, update keeps attributes not given", async () => {
    const client = clientOf();
    const [a, b] = [uid(), uid()];
    await client.createEntity(building(a));
    const result = await client.batchUpsert([
      { id: a, type: "Building", floors: { type: "Property", value: 1 } },
      building(b),
    ]);
    expect(result).toEqual({ success: [a, b], errors: [] });
    expect(await client.getEntity(a)).toEqual({
      id: a,
      type: "Building",
      floors: { type: "Property", value: 1 },
    });
    await client.batchUpsert([{ id: b, type: "Building", floors: { type: "Property", value: 9 } }], {
      mode: "update",
    });
    expect(await client.getEntity(b)).toMatchObject({ name: building(b).name, floors: { value: 9 } });
  });

  it("005 batch update: noOverwrite keeps existing values; unknown entities are errors", async () => {
    const client = clientOf();
    const a = uid();
    const missing = uid();
    await client.createEntity(building(a));
    const result = await client.batchUpdate(
      [
        {
          id: a,
          type: "Building",
          name: { type: "Property", value: "New" },
          floors: { type: "Property", value: 5 },
        },
        { id: missing, type: "Building", name: { type: "Property", value: "x" } },
      ],
      { noOverwrite: true },
    );
    expect(result.success).toEqual([a]);
    expect(result.errors.map((e) => [e.entityId, e.error.status])).toEqual([[missing, 404]]);
    expect(await client.getEntity(a)).toMatchObject({ name: { value: "Farm" }, floors: { value: 5 } });
  });

  it("006 batch delete: 204 is all success; unknown ids are reported; a whole-request failure throws", async () => {
    const client = clientOf();
    const [a, b] = [uid(), uid()];
    await client.batchCreate([building(a), building(b)]);
    expect(await client.batchDelete([a])).toEqual({ success: [a], errors: [] });
    const result = await client.batchDelete([b, a]);
    expect(result.success).toEqual([b]);
    expect(result.errors).toEqual([{ entityId: a, error: expect.objectContaining({ status: 404 }) }]);
    // An entity that does not parse is that entity's error; a bad tenant name refuses the whole request.
    const bad = await client.batchCreate([{ id: "not a uri", type: "Building" }]);
    expect(bad.errors.map((x) => x.error.status)).toEqual([400]);
    expect((await errorOf(clientOf({ tenant: "bad tenant!" }).batchDelete([b]))).status).toBe(400);
    expect(await client.batchDelete([])).toEqual({ success: [], errors: [] });
  });

  it("chunks a batch above the profile's batchMax into several requests with one result", async () => {
    const client = clientOf({ profileOverrides: { batchMax: 3 } });
    const type = freshType();
    const ids = Array.from({ length: 7 }, (_, i) => `urn:ngsi-ld:${type}:${i}`);
    expect((await client.batchUpsert(ids.map((id) => ({ id, type })))).success).toEqual(ids);
    expect((await client.queryEntities({ type, count: true, limit: 0 })).count).toBe(7);
    expect((await client.batchDelete(ids)).success).toEqual(ids);
  });
});

describe("TP/NGSI-LD/CI/Cons/Discovery types and attributes (5.7.5-5.7.10)", () => {
  it("lists types with attribute names and attributes with their types", async () => {
    const client = clientOf();
    const type = freshType();
    await client.createEntity(building(`urn:ngsi-ld:${type}:1`, type));
    const types = await client.types();
    expect(types.find((x) => x.typeName === type)?.attributeNames.sort()).toEqual(
      ["height", "location", "name", "owner"].sort(),
    );
    const attributes = await client.attributes();
    expect(attributes.find((a) => a.attributeName === "owner")?.typeNames).toContain(type);
  });
});

describe("TP/NGSI-LD/CI/JSONLD the workspace @context travels as a Link header (6.3.5)", () => {
  const contextServer = createServer((req, res) => {
    if (req.url !== "/ctx.jsonld") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/ld+json" });
    res.end(JSON.stringify({ "@context": { storeys: "https://example.org/vocab#storeys" } }));
  });
  let context: string;
  beforeAll(async () => {
    await new Promise<void>((r) => contextServer.listen(0, "127.0.0.1", r));
    context = `http://127.0.0.1:${(contextServer.address() as { port: number }).port}/ctx.jsonld`;
  });
  afterAll(() => new Promise<void>((r) => contextServer.close(() => r())));

  it("names are expanded with the context on write and compacted with it on read", async () => {
    const withContext = clientOf({ context });
    const id = uid();
    await withContext.createEntity({ id, type: "Building", storeys: { type: "Property", value: 4 } });
    expect((await withContext.getEntity(id)).storeys).toEqual({ type: "Property", value: 4 });
    const plain = await clientOf().getEntity(id);
    expect(plain.storeys).toBeUndefined();
    expect(plain["https://example.org/vocab#storeys"]).toEqual({ type: "Property", value: 4 });
    // A full URI as attribute name is one path segment.
    await clientOf().updateAttribute(id, "https://example.org/vocab#storeys", { value: 5 });
    expect((await withContext.getEntity(id)).storeys).toEqual({ type: "Property", value: 5 });
    expect(
      (await withContext.queryEntities({ type: "Building", q: "storeys==5", id })).entities,
    ).toHaveLength(1);
  });
});

describe("TP/NGSI-LD/CB/TENANT multi-tenancy (4.14) through the client", () => {
  it("entities written with a tenant are visible only with that tenant", async () => {
    const tenant = `t${Date.now().toString(36)}`;
    const inTenant = clientOf({ tenant });
    const id = uid();
    await inTenant.createEntity(building(id));
    expect((await inTenant.getEntity(id)).id).toBe(id);
    expect((await errorOf(clientOf().getEntity(id))).status).toBe(404);
  });
});

describe("unreachable broker", () => {
  it("a closed port is NgsiLdError 504 'could not be reached'", async () => {
    const e = await errorOf(
      new NgsiLdClient({
        baseUrl: "http://127.0.0.1:9",
        implementationName: "orrery",
        label: "Nowhere",
      }).types(),
    );
    expect(e.status).toBe(504);
    expect(e.problem.title).toMatch(/^The context broker Nowhere could not be reached/);
    expect(e.failure).toMatchObject({ kind: "unreachable" });
  });

  it("a body nested too deep to be written as JSON is NgsiLdError 400, and nothing is sent", async () => {
    let calls = 0;
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 100_000; i++) at = at.x = {} as Record<string, unknown>;
    const e = await errorOf(
      clientOf({
        fetch: (() => {
          calls++;
          throw new Error("must not be called");
        }) as typeof fetch,
      }).createEntity({ id: uid(), type: "Building", deep: { type: "Property", value: deep } }),
    );
    expect(e.status).toBe(400);
    expect(e.failure).toMatchObject({ kind: "unwritable" });
    expect(calls).toBe(0);
  });
});

describe("TP/NGSI-LD/CI/Sub 028-032 subscriptions (5.8.1-5.8.5)", () => {
  const subscription = (extra: Record<string, unknown> = {}) => ({
    type: "Subscription",
    subscriptionName: "Tall buildings",
    entities: [{ type: "Building" }],
    watchedAttributes: ["height"],
    q: "height>30",
    notification: {
      attributes: ["height"],
      format: "keyValues",
      endpoint: { uri: "http://127.0.0.1:9/notify", accept: "application/json" },
    },
    ...extra,
  });

  it.skipIf(!subscriptionsAvailable)(
    "028/030 creates (id from Location, or the one given) and retrieves",
    async () => {
      const client = clientOf();
      const id = await client.createSubscription(subscription());
      expect(id).toMatch(/^urn:/);
      expect(await client.getSubscription(id)).toMatchObject({ id, subscriptionName: "Tall buildings" });
      const given = uid("Subscription");
      expect(await client.createSubscription(subscription({ id: given }))).toBe(given);
    },
  );

  it.skipIf(!subscriptionsAvailable)("031 lists every subscription across pages", async () => {
    const client = clientOf({ pageSize: 2, tenant: `s${Date.now().toString(36)}` });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push(await client.createSubscription(subscription()));
    const all = await client.subscriptions();
    expect(all.map((s) => s.id).sort()).toEqual(created.sort());
    expect(await client.subscriptions({ max: 3 })).toHaveLength(3);
  });

  it.skipIf(!subscriptionsAvailable)("029 updates and 032 deletes; then 404", async () => {
    const client = clientOf();
    const id = await client.createSubscription(subscription());
    await client.updateSubscription(id, { subscriptionName: "Renamed", isActive: false });
    expect(await client.getSubscription(id)).toMatchObject({ subscriptionName: "Renamed", isActive: false });
    await client.deleteSubscription(id);
    expect((await errorOf(client.getSubscription(id))).status).toBe(404);
  });

  it.skipIf(!subscriptionsAvailable)(
    "an invalid subscription is NgsiLdError 400 with problem details",
    async () => {
      const e = await errorOf(clientOf().createSubscription({ type: "Subscription", entities: [] }));
      expect(e.status).toBe(400);
      expect(e.problem.type).toMatch(/^https:\/\/uri\.etsi\.org\/ngsi-ld\/errors\//);
    },
  );
});

describe("TP/NGSI-LD/CI/Prov/TE, Cons/TER/020 and Cons/TEQ/021 temporal (5.6.11, 5.7.3, 5.7.4)", () => {
  const instances = (n: number, start = Date.UTC(2024, 0, 1, 10)) =>
    Array.from({ length: n }, (_, i) => ({
      type: "Property",
      value: 20 + i,
      observedAt: new Date(start + i * 3600_000).toISOString(),
    }));

  it.skipIf(!temporalAvailable)(
    "TE/001 + 020_02 adds instances, then reads them for one entity: timerel, lastN, temporalValues",
    async () => {
      const client = clientOf();
      const type = freshType();
      const id = `urn:ngsi-ld:${type}:t1`;
      await client.addTemporalInstances({ id, type, temperature: instances(3) });
      const all = await client.temporalEntity(id, { attrs: ["temperature"] });
      expect(all.entity.id).toBe(id);
      expect(all.contentRange).toBeUndefined();
      expect((all.entity.temperature as Array<{ value: number }>).map((i) => i.value)).toEqual([20, 21, 22]);

      const after = await client.temporalEntity(id, {
        attrs: ["temperature"],
        timerel: "after",
        timeAt: "2024-01-01T10:30:00Z",
      });
      expect((after.entity.temperature as Array<{ value: number }>).map((i) => i.value)).toEqual([21, 22]);

      const between = await client.temporalEntity(id, {
        attrs: ["temperature"],
        timerel: "between",
        timeAt: "2024-01-01T10:30:00Z",
        endTimeAt: "2024-01-01T11:30:00Z",
      });
      expect((between.entity.temperature as Array<{ value: number }>).map((i) => i.value)).toEqual([21]);

      const simplified = await client.temporalEntity(id, {
        attrs: ["temperature"],
        options: "temporalValues",
      });
      expect(simplified.entity.temperature).toEqual({
        type: "Property",
        values: [
          [20, "2024-01-01T10:00:00.000Z"],
          [21, "2024-01-01T11:00:00.000Z"],
          [22, "2024-01-01T12:00:00.000Z"],
        ],
      });

      const last = await client.temporalEntity(id, { attrs: ["temperature"], lastN: 1 });
      expect(last.entity.temperature).toMatchObject([{ value: 22 }]);
    },
  );

  it.skipIf(!temporalAvailable)(
    "020_06 more instances than the broker's cap: 206 and its Content-Range parsed",
    async () => {
      const client = clientOf();
      const type = freshType();
      const id = `urn:ngsi-ld:${type}:many`;
      // The embedded broker's cap is 1000 instances per attribute (packages/broker/src/broker.ts).
      const many = instances(1003, Date.UTC(2024, 0, 1));
      await client.addTemporalInstances({ id, type, temperature: many });
      const r = await client.temporalEntity(id, { attrs: ["temperature"] });
      expect(r.entity.temperature).toHaveLength(1000);
      expect(r.contentRange).toEqual({
        from: "2024-01-01T00:00:00.000Z",
        to: many[999].observedAt,
      });
    },
  );

  it.skipIf(!temporalAvailable)(
    "021_01 queryTemporal pages by limit/offset over every matching entity; entity writes are recorded",
    async () => {
      const client = clientOf({ pageSize: 2 });
      const type = freshType();
      const ids = [1, 2, 3, 4, 5].map((n) => `urn:ngsi-ld:${type}:${n}`);
      // Ordinary entity operations write history too (the broker records every change).
      await client.batchCreate(ids.map((id, i) => ({ id, type, level: { type: "Property", value: i } })));
      await client.mergeEntity(ids[0], { level: { type: "Property", value: 10 } });
      const found = await client.queryTemporal({ type, attrs: ["level"] });
      expect(found.map((e) => e.id).sort()).toEqual([...ids].sort());
      const first = found.find((e) => e.id === ids[0])!;
      expect((first.level as Array<{ value: number }>).map((i) => i.value)).toEqual([0, 10]);
      expect(await client.queryTemporal({ type, max: 3 })).toHaveLength(3);
      const before = await client.queryTemporal({ type, timerel: "before", timeAt: "2000-01-01T00:00:00Z" });
      expect(before.every((e) => e.level === undefined)).toBe(true);
    },
  );

  it.skipIf(!temporalAvailable)("020_05 an unknown entity is NgsiLdError 404", async () => {
    const e = await errorOf(clientOf().temporalEntity(uid()));
    expect(e.status).toBe(404);
    expect(e.problem.type).toBe(ERR("ResourceNotFound"));
  });
});
