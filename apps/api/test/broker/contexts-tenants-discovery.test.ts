import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { CORE, ERR, linkHeader, startBroker, type ngsi } from "./ngsi.ts";

/**
 * @context handling (6.3.5, ETSI suite jsonldContext), multi-tenancy (4.14) and discovery
 * (5.7.5-5.7.10, ETSI suite 022-027), with the FIWARE Entity-Relationships tutorial's user context
 * served over HTTP on loopback, as a data space would host it.
 */
const fixtures = resolve(import.meta.dirname, "../../../../../shared/fixtures/tutorials");
const userContext = readFileSync(resolve(fixtures, "entity-relationships-user-context.jsonld"), "utf8");
const tutorial = JSON.parse(readFileSync(resolve(fixtures, "entity-relationships.json"), "utf8"));

let t: TestApp;
let call: ReturnType<typeof ngsi>;
let server: Server;
let USER: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url === "/user-context.jsonld")
      return void res.setHeader("content-type", "application/ld+json").end(userContext);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  USER = `http://127.0.0.1:${(server.address() as { port: number }).port}/user-context.jsonld`;
  ({ t, call } = await startBroker());
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => server.close(() => r()));
});

const tutorialEntities = (): any[] =>
  Array.isArray(tutorial) ? tutorial : (tutorial.entities ?? Object.values(tutorial).flat());

describe("TP/NGSI-LD/CI/JSONLD @context: expansion, compaction, remote contexts", () => {
  it("JSONLD/001 loads the Entity-Relationships tutorial with its user context and stores expanded names", async () => {
    const entities = tutorialEntities();
    expect(entities.length).toBeGreaterThan(3);
    const r = await call("POST", "/entityOperations/upsert", entities, { link: linkHeader(USER) });
    expect(r.status, r.raw).toBe(201);
    const first = entities[0];
    // Read back with the same context: the names the tutorial uses.
    const same = await call("GET", `/entities/${encodeURIComponent(first.id)}`, undefined, {
      link: linkHeader(USER),
    });
    expect(same.body.type).toBe(first.type);
    expect(Object.keys(same.body).sort()).toEqual(Object.keys(first).sort());
    expect(String(same.headers.link)).toContain(USER);
    // Read back with the core context only: full IRIs from the user context.
    const core = await call("GET", `/entities/${encodeURIComponent(first.id)}`);
    expect(core.body.type).toMatch(/^https?:\/\//);
    expect(Object.keys(core.body).some((k) => k.startsWith("https://"))).toBe(true);
  });

  it("JSONLD/002 two contexts mapping a term to one IRI see the same attribute; query by either name", async () => {
    const id = "urn:ngsi-ld:Building:jsonld002";
    const inline = {
      "@context": [
        { Bldg: "https://smartdatamodels.org/dataModel.Building/Building", label: "https://schema.org/name" },
        CORE,
      ],
    };
    const created = await call(
      "POST",
      "/entities",
      { id, type: "Bldg", label: "Shared", ...inline },
      { "content-type": "application/ld+json" },
    );
    expect(created.status, created.raw).toBe(201);
    const viaUser = await call(
      "GET",
      `/entities?type=Building&q=${encodeURIComponent('name=="Shared"')}`,
      undefined,
      { link: linkHeader(USER) },
    );
    expect(viaUser.body.map((e: any) => e.id)).toContain(id);
    expect(viaUser.body.find((e: any) => e.id === id).name.value).toBe("Shared");
  });

  it("JSONLD/003 answers with @context in the body for Accept: application/ld+json", async () => {
    const entity = tutorialEntities()[0];
    const r = await call("GET", `/entities/${encodeURIComponent(entity.id)}`, undefined, {
      link: linkHeader(USER),
      accept: "application/ld+json",
    });
    expect(String(r.headers["content-type"])).toMatch(/^application\/ld\+json/);
    expect(r.body["@context"]).toBe(USER);
    expect(r.headers.link).toBeUndefined();
  });

  it("JSONLD/004 fetches the remote context once (cached)", async () => {
    const before = requests;
    for (let i = 0; i < 3; i++)
      await call("GET", "/entities?type=Building", undefined, { link: linkHeader(USER) });
    expect(requests - before).toBe(0);
  });

  it("JSONLD/005 an unreachable context is 503 LdContextNotAvailable", async () => {
    const r = await call("GET", "/entities?type=Building", undefined, {
      link: linkHeader(USER.replace("user-context", "missing")),
    });
    expect(r.status).toBe(503);
    expect(r.body.type).toBe(ERR("LdContextNotAvailable"));
    const refused = await call(
      "POST",
      "/entities",
      { id: "urn:x:1", type: "T" },
      { link: linkHeader("http://127.0.0.1:1/none.jsonld") },
    );
    expect(refused.status).toBe(503);
  });

  it("JSONLD/006 a malformed Link header, two context links or an unacceptable Accept are refused", async () => {
    expect((await call("GET", "/entities?type=B", undefined, { link: "not a link" })).status).toBe(400);
    expect(
      (await call("GET", "/entities?type=B", undefined, { link: `${linkHeader(USER)}, ${linkHeader(CORE)}` }))
        .status,
    ).toBe(400);
    expect((await call("GET", "/entities?type=B", undefined, { accept: "text/html" })).status).toBe(406);
  });
});

describe("TP/NGSI-LD/CB/TENANT multi-tenancy (4.14)", () => {
  it("isolates tenants: an entity of one tenant is invisible to another and to the default tenant", async () => {
    const id = "urn:ngsi-ld:Room:tenant1";
    const body = { id, type: "Room", temperature: 20 };
    expect((await call("POST", "/entities", body, { "NGSILD-Tenant": "alpha" })).status).toBe(201);
    expect(
      (await call("POST", "/entities", { ...body, temperature: 30 }, { "NGSILD-Tenant": "beta" })).status,
    ).toBe(201);
    const a = await call("GET", `/entities/${id}`, undefined, { "NGSILD-Tenant": "alpha" });
    const b = await call("GET", `/entities/${id}`, undefined, { "NGSILD-Tenant": "beta" });
    expect(a.body.temperature.value).toBe(20);
    expect(b.body.temperature.value).toBe(30);
    expect((await call("GET", `/entities/${id}`)).status).toBe(404);
    expect((await call("GET", "/entities?type=Room")).body).toEqual([]);
    expect(
      (await call("GET", "/entities?type=Room", undefined, { "NGSILD-Tenant": "alpha" })).body,
    ).toHaveLength(1);
    expect((await call("DELETE", `/entities/${id}`, undefined, { "NGSILD-Tenant": "alpha" })).status).toBe(
      204,
    );
    expect((await call("GET", `/entities/${id}`, undefined, { "NGSILD-Tenant": "beta" })).status).toBe(200);
    expect((await call("GET", "/types", undefined, { "NGSILD-Tenant": "beta" })).body.typeList).toEqual([
      "Room",
    ]);
  });

  it("answers 404 NonexistentTenant for reads on a tenant never written to, and 400 for an invalid name", async () => {
    const r = await call("GET", "/entities/urn:x:1", undefined, { "NGSILD-Tenant": "ghost" });
    expect(r.status).toBe(404);
    expect(r.body.type).toBe(ERR("NonexistentTenant"));
    expect((await call("GET", "/types", undefined, { "NGSILD-Tenant": "ghost" })).body.type).toBe(
      ERR("NonexistentTenant"),
    );
    expect((await call("GET", "/types", undefined, { "NGSILD-Tenant": "bad tenant!" })).status).toBe(400);
  });
});

describe("TP/NGSI-LD/CI/Cons/Discovery types and attributes (5.7.5-5.7.10)", () => {
  const T = { "NGSILD-Tenant": "discovery" };
  beforeAll(async () => {
    const r = await call(
      "POST",
      "/entityOperations/create",
      [
        {
          id: "urn:ngsi-ld:Building:d1",
          type: "Building",
          name: "A",
          owner: { type: "Relationship", object: "urn:ngsi-ld:Person:p" },
        },
        {
          id: "urn:ngsi-ld:Building:d2",
          type: "Building",
          name: "B",
          location: { type: "Point", coordinates: [1, 2] },
        },
        {
          id: "urn:ngsi-ld:Person:p",
          type: "Person",
          name: [
            { type: "Property", value: "P" },
            { type: "Property", value: "Q", datasetId: "urn:ngsi-ld:Dataset:alias" },
          ],
        },
      ],
      T,
    );
    expect(r.status, r.raw).toBe(201);
  });

  it("022 GET /types lists the types (EntityTypeList), compacted with the request's context", async () => {
    const r = await call("GET", "/types", undefined, T);
    expect(r.body).toMatchObject({ type: "EntityTypeList", typeList: ["Building", "Person"] });
    expect(r.body.id).toMatch(/^urn:ngsi-ld:EntityTypeList:/);
  });

  it("023 GET /types?details=true gives EntityType objects with attribute names", async () => {
    const r = await call("GET", "/types?details=true", undefined, T);
    const building = r.body.find((x: any) => x.typeName === "Building");
    expect(building).toEqual({
      id: "https://uri.etsi.org/ngsi-ld/default-context/Building",
      type: "EntityType",
      typeName: "Building",
      attributeNames: ["location", "name", "owner"],
    });
  });

  it("024 GET /types/{type} gives EntityTypeInfo with count and attribute kinds; unknown type 404", async () => {
    const r = await call("GET", "/types/Building", undefined, T);
    expect(r.body).toMatchObject({ type: "EntityTypeInfo", typeName: "Building", entityCount: 2 });
    const kinds = Object.fromEntries(
      r.body.attributeDetails.map((a: any) => [a.attributeName, a.attributeTypes]),
    );
    expect(kinds).toEqual({ name: ["Property"], owner: ["Relationship"], location: ["GeoProperty"] });
    expect((await call("GET", "/types/Nothing", undefined, T)).body.type).toBe(ERR("ResourceNotFound"));
  });

  it("025 GET /attributes (AttributeList) and ?details=true (Attribute objects)", async () => {
    const list = await call("GET", "/attributes", undefined, T);
    expect(list.body).toMatchObject({ type: "AttributeList", attributeList: ["location", "name", "owner"] });
    const details = await call("GET", "/attributes?details=true", undefined, T);
    expect(details.body.find((a: any) => a.attributeName === "name")).toEqual({
      id: "https://uri.etsi.org/ngsi-ld/default-context/name",
      type: "Attribute",
      attributeName: "name",
      typeNames: ["Building", "Person"],
    });
  });

  it("026 GET /attributes/{attr} counts instances; unknown attribute 404", async () => {
    const r = await call("GET", "/attributes/name", undefined, T);
    expect(r.body).toMatchObject({
      type: "Attribute",
      attributeName: "name",
      attributeCount: 4,
      attributeTypes: ["Property"],
      typeNames: ["Building", "Person"],
    });
    expect((await call("GET", "/attributes/nothing", undefined, T)).status).toBe(404);
  });
});
