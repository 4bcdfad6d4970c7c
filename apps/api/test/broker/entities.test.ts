import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { CORE, ERR, startBroker, uid, type ngsi } from "./ngsi.ts";

/**
 * Conformance tests for entity and attribute provision and retrieval, named after the ETSI NGSI-LD
 * test suite's test purposes they follow (TP/NGSI-LD/CI = ContextInformation, Prov = Provision,
 * Cons = Consumption; CE 001 CreateEntity, DE 002 DeleteEntity, EA 010-013 entity attributes,
 * ME merge, RPE replace, RE 018 RetrieveEntity). Written from the spec; no suite code is copied.
 */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

const path = (id: string, rest = "") => `/entities/${encodeURIComponent(id)}${rest}`;
const building = (id: string) => ({
  id,
  type: "Building",
  name: { type: "Property", value: "Farm" },
  height: { type: "Property", value: 12.5, unitCode: "MTR", observedAt: "2024-03-01T10:00:00Z" },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [13.4, 52.5] } },
  owner: {
    type: "Relationship",
    object: "urn:ngsi-ld:Person:alice",
    since: { type: "Property", value: 2019 },
  },
});
const expectProblem = (r: { status: number; body: any; headers: any }, status: number, type: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.type).toBe(ERR(type));
  expect(typeof r.body.title).toBe("string");
  expect(r.body.status).toBe(status);
  expect(String(r.headers["content-type"])).toMatch(/^application\/json/);
};

describe("TP/NGSI-LD/CI/Prov/CE create entity (5.6.1)", () => {
  it("TP/NGSI-LD/CI/Prov/CE/001_01 creates an entity: 201, Location, empty body", async () => {
    const id = uid();
    const r = await call("POST", "/entities", building(id));
    expect(r.status).toBe(201);
    expect(r.headers.location).toBe(`/ngsi-ld/v1/entities/${id}`);
    expect(r.raw).toBe("");
    const back = await call("GET", path(id));
    expect(back.body).toEqual(building(id));
  });

  it("TP/NGSI-LD/CI/Prov/CE/001_02 creates from application/ld+json with @context in the body", async () => {
    const id = uid();
    const r = await call(
      "POST",
      "/entities",
      { ...building(id), "@context": CORE },
      { "content-type": "application/ld+json" },
    );
    expect(r.status).toBe(201);
  });

  it("TP/NGSI-LD/CI/Prov/CE/001_03 accepts the concise form and infers attribute types", async () => {
    const id = uid();
    const r = await call("POST", "/entities", {
      id,
      type: "Building",
      name: "Barn",
      floors: 2,
      location: { type: "Point", coordinates: [1, 2] },
      owner: { object: "urn:ngsi-ld:Person:bob" },
      info: { value: { nested: true }, observedAt: "2024-01-01T00:00:00Z" },
    });
    expect(r.status, r.raw).toBe(201);
    const back = (await call("GET", path(id))).body;
    expect(back.name).toEqual({ type: "Property", value: "Barn" });
    expect(back.location.type).toBe("GeoProperty");
    expect(back.owner).toEqual({ type: "Relationship", object: "urn:ngsi-ld:Person:bob" });
    expect(back.info.observedAt).toBe("2024-01-01T00:00:00Z");
  });

  it("TP/NGSI-LD/CI/Prov/CE/002_01 refuses an existing id with 409 AlreadyExists", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    expectProblem(await call("POST", "/entities", building(id)), 409, "AlreadyExists");
  });

  it.each([
    ["an id that is not a URI", { id: "not a uri", type: "Building" }],
    ["no id", { type: "Building" }],
    ["no type", { id: "urn:ngsi-ld:Building:x" }],
    ["a type with a forbidden character", { id: "urn:ngsi-ld:Building:x", type: "Buil(ding" }],
    ["an attribute name with a forbidden character", { id: "urn:ngsi-ld:Building:x", type: "B", "na=me": 1 }],
    ["a Property without value", { id: "urn:ngsi-ld:B:x", type: "B", a: { type: "Property" } }],
    [
      "a Relationship whose object is not a URI",
      { id: "urn:ngsi-ld:B:x", type: "B", a: { type: "Relationship", object: "nope" } },
    ],
    ["an unknown attribute type", { id: "urn:ngsi-ld:B:x", type: "B", a: { type: "Propertee", value: 1 } }],
    [
      "an invalid GeoJSON value",
      {
        id: "urn:ngsi-ld:B:x",
        type: "B",
        location: { type: "GeoProperty", value: { type: "Point", coordinates: [500, 1] } },
      },
    ],
    [
      "location that is not a GeoProperty",
      { id: "urn:ngsi-ld:B:x", type: "B", location: { type: "Property", value: 3 } },
    ],
    [
      "an invalid observedAt",
      { id: "urn:ngsi-ld:B:x", type: "B", a: { type: "Property", value: 1, observedAt: "yesterday" } },
    ],
    [
      "a datasetId that is not a URI",
      { id: "urn:ngsi-ld:B:x", type: "B", a: { type: "Property", value: 1, datasetId: "one" } },
    ],
    [
      "two default instances",
      {
        id: "urn:ngsi-ld:B:x",
        type: "B",
        a: [
          { type: "Property", value: 1 },
          { type: "Property", value: 2 },
        ],
      },
    ],
    ["a body that is an array", [{ id: "urn:ngsi-ld:B:x", type: "B" }]],
  ])("TP/NGSI-LD/CI/Prov/CE/003 refuses %s with 400 BadRequestData", async (_what, body) => {
    expectProblem(await call("POST", "/entities", body), 400, "BadRequestData");
  });

  it("TP/NGSI-LD/CI/Prov/CE/004 refuses @context in an application/json body and a Link header with ld+json", async () => {
    expectProblem(
      await call("POST", "/entities", { id: uid(), type: "B", "@context": CORE }),
      400,
      "BadRequestData",
    );
    const withLink = await call(
      "POST",
      "/entities",
      { id: uid(), type: "B", "@context": CORE },
      {
        "content-type": "application/ld+json",
        link: `<${CORE}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
      },
    );
    expectProblem(withLink, 400, "BadRequestData");
    expectProblem(
      await call("POST", "/entities", { id: uid(), type: "B" }, { "content-type": "application/ld+json" }),
      400,
      "BadRequestData",
    );
  });

  it("TP/NGSI-LD/CI/Prov/CE/005 stores multi-valued attributes by datasetId", async () => {
    const id = uid();
    const r = await call("POST", "/entities", {
      id,
      type: "Sensor",
      temperature: [
        { type: "Property", value: 20 },
        { type: "Property", value: 21, datasetId: "urn:ngsi-ld:Dataset:b" },
      ],
    });
    expect(r.status, r.raw).toBe(201);
    const back = (await call("GET", path(id))).body;
    expect(back.temperature).toEqual([
      { type: "Property", value: 20 },
      { type: "Property", value: 21, datasetId: "urn:ngsi-ld:Dataset:b" },
    ]);
  });
});

describe("TP/NGSI-LD/CI/Cons/RE retrieve entity (5.7.1)", () => {
  const id = uid();
  beforeAll(async () => void (await call("POST", "/entities", building(id))));

  it("TP/NGSI-LD/CI/Cons/RE/018_01 returns the normalized entity with a context Link header", async () => {
    const r = await call("GET", path(id));
    expect(r.status).toBe(200);
    expect(String(r.headers["content-type"])).toMatch(/^application\/json/);
    expect(String(r.headers.link)).toContain(`<${CORE}>; rel="http://www.w3.org/ns/json-ld#context"`);
    expect(r.body).toEqual(building(id));
  });

  it("TP/NGSI-LD/CI/Cons/RE/018_02 answers application/ld+json with @context when asked", async () => {
    const r = await call("GET", path(id), undefined, { accept: "application/ld+json" });
    expect(String(r.headers["content-type"])).toMatch(/^application\/ld\+json/);
    expect(r.body["@context"]).toBe(CORE);
  });

  it("TP/NGSI-LD/CI/Cons/RE/018_03 options=keyValues gives the simplified representation", async () => {
    const r = await call("GET", path(id, "?options=keyValues"));
    expect(r.body).toEqual({
      id,
      type: "Building",
      name: "Farm",
      height: 12.5,
      location: { type: "Point", coordinates: [13.4, 52.5] },
      owner: "urn:ngsi-ld:Person:alice",
    });
    expect((await call("GET", path(id, "?format=simplified"))).body).toEqual(r.body);
  });

  it("TP/NGSI-LD/CI/Cons/RE/018_04 options=concise drops redundant types", async () => {
    const r = await call("GET", path(id, "?options=concise"));
    expect(r.body.name).toBe("Farm");
    expect(r.body.height).toEqual({ value: 12.5, unitCode: "MTR", observedAt: "2024-03-01T10:00:00Z" });
    expect(r.body.location).toEqual({ type: "Point", coordinates: [13.4, 52.5] });
    expect(r.body.owner).toEqual({ object: "urn:ngsi-ld:Person:alice", since: 2019 });
  });

  it("TP/NGSI-LD/CI/Cons/RE/018_05 options=sysAttrs adds createdAt and modifiedAt", async () => {
    const r = await call("GET", path(id, "?options=sysAttrs"));
    expect(Date.parse(r.body.createdAt)).not.toBeNaN();
    expect(Date.parse(r.body.modifiedAt)).not.toBeNaN();
    expect(Date.parse(r.body.name.createdAt)).not.toBeNaN();
    expect(Date.parse(r.body.owner.since.modifiedAt)).not.toBeNaN();
  });

  it("TP/NGSI-LD/CI/Cons/RE/018_06 attrs limits the attributes shown", async () => {
    const r = await call("GET", path(id, "?attrs=name,owner"));
    expect(Object.keys(r.body).sort()).toEqual(["id", "name", "owner", "type"]);
  });

  it("TP/NGSI-LD/CI/Cons/RE/018_07 404 ResourceNotFound for an unknown id or unknown attrs, 400 for a bad id", async () => {
    expectProblem(await call("GET", path("urn:ngsi-ld:Building:unknown")), 404, "ResourceNotFound");
    expectProblem(await call("GET", path(id, "?attrs=nothingLikeThis")), 404, "ResourceNotFound");
    expectProblem(await call("GET", "/entities/not%20a%20uri"), 400, "BadRequestData");
    expectProblem(await call("GET", path(id, "?options=fancy")), 400, "BadRequestData");
    expectProblem(await call("GET", path(id, "?colour=red")), 400, "BadRequestData");
  });
});

describe("TP/NGSI-LD/CI/Prov/DE delete entity (5.6.6)", () => {
  it("TP/NGSI-LD/CI/Prov/DE/002_01 deletes: 204, then 404", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    expect((await call("DELETE", path(id))).status).toBe(204);
    expectProblem(await call("GET", path(id)), 404, "ResourceNotFound");
    expectProblem(await call("DELETE", path(id)), 404, "ResourceNotFound");
  });
});

describe("TP/NGSI-LD/CI/Prov/EA entity attributes (5.6.2-5.6.5)", () => {
  it("TP/NGSI-LD/CI/Prov/EA/010_01 append adds and overwrites attributes, keeping createdAt", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    const before = (await call("GET", path(id, "?options=sysAttrs"))).body;
    const r = await call("POST", path(id, "/attrs"), {
      name: { type: "Property", value: "Renamed" },
      floors: { type: "Property", value: 3 },
    });
    expect(r.status, r.raw).toBe(204);
    const after = (await call("GET", path(id, "?options=sysAttrs"))).body;
    expect(after.name.value).toBe("Renamed");
    expect(after.floors.value).toBe(3);
    expect(after.name.createdAt).toBe(before.name.createdAt);
    expect(Date.parse(after.modifiedAt)).toBeGreaterThanOrEqual(Date.parse(before.modifiedAt));
  });

  it("TP/NGSI-LD/CI/Prov/EA/010_02 append with noOverwrite keeps existing values and answers 207", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    const r = await call("POST", path(id, "/attrs?options=noOverwrite"), {
      name: { type: "Property", value: "X" },
      floors: 4,
    });
    expect(r.status).toBe(207);
    expect(r.body.updated).toEqual(["floors"]);
    expect(r.body.notUpdated[0].attributeName).toBe("name");
    expect((await call("GET", path(id))).body.name.value).toBe("Farm");
  });

  it("TP/NGSI-LD/CI/Prov/EA/010_03 append to an unknown entity is 404, a bad option 400", async () => {
    expectProblem(
      await call("POST", path("urn:ngsi-ld:B:none", "/attrs"), { a: 1 }),
      404,
      "ResourceNotFound",
    );
    expectProblem(
      await call("POST", path("urn:ngsi-ld:B:none", "/attrs?options=always"), { a: 1 }),
      400,
      "BadRequestData",
    );
  });

  it("TP/NGSI-LD/CI/Prov/EA/011_01 update changes existing attributes only: 204, or 207 naming the others", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    expect(
      (await call("PATCH", path(id, "/attrs"), { name: { type: "Property", value: "New" } })).status,
    ).toBe(204);
    const r = await call("PATCH", path(id, "/attrs"), {
      name: { type: "Property", value: "Newer" },
      colour: { type: "Property", value: "red" },
    });
    expect(r.status).toBe(207);
    expect(r.body).toEqual({
      updated: ["name"],
      notUpdated: [{ attributeName: "colour", reason: "the attribute does not exist" }],
    });
    const back = (await call("GET", path(id))).body;
    expect(back.name.value).toBe("Newer");
    expect(back.colour).toBeUndefined();
  });

  it("TP/NGSI-LD/CI/Prov/EA/012_01 partial attribute update merges into the attribute", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    const r = await call("PATCH", path(id, "/attrs/height"), {
      value: 14,
      observedAt: "2024-04-01T00:00:00Z",
    });
    expect(r.status, r.raw).toBe(204);
    const back = (await call("GET", path(id))).body;
    expect(back.height).toEqual({
      type: "Property",
      value: 14,
      unitCode: "MTR",
      observedAt: "2024-04-01T00:00:00Z",
    });
    const sub = await call("PATCH", path(id, "/attrs/owner"), { since: { type: "Property", value: 2020 } });
    expect(sub.status).toBe(204);
    expect((await call("GET", path(id))).body.owner).toEqual({
      type: "Relationship",
      object: "urn:ngsi-ld:Person:alice",
      since: { type: "Property", value: 2020 },
    });
    expectProblem(await call("PATCH", path(id, "/attrs/nothing"), { value: 1 }), 404, "ResourceNotFound");
    expectProblem(
      await call("PATCH", path(id, "/attrs/height"), { type: "Relationship", object: "urn:x:y" }),
      400,
      "BadRequestData",
    );
  });

  it("TP/NGSI-LD/CI/Prov/EA/012_02 partial update of one datasetId instance", async () => {
    const id = uid();
    await call("POST", "/entities", {
      id,
      type: "Sensor",
      temperature: [
        { type: "Property", value: 1 },
        { type: "Property", value: 2, datasetId: "urn:ngsi-ld:Dataset:b" },
      ],
    });
    expect(
      (await call("PATCH", path(id, "/attrs/temperature"), { value: 5, datasetId: "urn:ngsi-ld:Dataset:b" }))
        .status,
    ).toBe(204);
    const back = (await call("GET", path(id))).body;
    expect(back.temperature).toEqual([
      { type: "Property", value: 1 },
      { type: "Property", value: 5, datasetId: "urn:ngsi-ld:Dataset:b" },
    ]);
  });

  it("TP/NGSI-LD/CI/Prov/EA/013_01 deletes an attribute: default instance, datasetId, deleteAll", async () => {
    const id = uid();
    await call("POST", "/entities", {
      id,
      type: "Sensor",
      name: "s",
      temperature: [
        { type: "Property", value: 1 },
        { type: "Property", value: 2, datasetId: "urn:ngsi-ld:Dataset:b" },
        { type: "Property", value: 3, datasetId: "urn:ngsi-ld:Dataset:c" },
      ],
    });
    expect((await call("DELETE", path(id, "/attrs/name"))).status).toBe(204);
    expect(
      (await call("DELETE", path(id, "/attrs/temperature?datasetId=urn:ngsi-ld:Dataset:b"))).status,
    ).toBe(204);
    expectProblem(
      await call("DELETE", path(id, "/attrs/temperature?datasetId=urn:ngsi-ld:Dataset:b")),
      404,
      "ResourceNotFound",
    );
    let back = (await call("GET", path(id))).body;
    expect(back.name).toBeUndefined();
    expect(back.temperature.map((i: any) => i.value)).toEqual([1, 3]);
    expect((await call("DELETE", path(id, "/attrs/temperature"))).status).toBe(204);
    back = (await call("GET", path(id))).body;
    expect(back.temperature).toEqual({ type: "Property", value: 3, datasetId: "urn:ngsi-ld:Dataset:c" });
    expect((await call("DELETE", path(id, "/attrs/temperature?deleteAll=true"))).status).toBe(204);
    expect((await call("GET", path(id))).body.temperature).toBeUndefined();
    expectProblem(await call("DELETE", path(id, "/attrs/temperature")), 404, "ResourceNotFound");
  });
});

describe("TP/NGSI-LD/CI/Prov/ME merge entity (5.6.17) and TP/NGSI-LD/CI/Prov/RPE replace entity (5.6.18)", () => {
  it("TP/NGSI-LD/CI/Prov/ME/001 merges values, sub-attributes and new attributes; urn:ngsi-ld:null deletes", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    const r = await call(
      "PATCH",
      path(id),
      {
        height: { value: 13 },
        owner: { since: { type: "Property", value: 2021 } },
        colour: "blue",
        name: "urn:ngsi-ld:null",
      },
      { "content-type": "application/merge-patch+json" },
    );
    expect(r.status, r.raw).toBe(204);
    const back = (await call("GET", path(id))).body;
    expect(back.height).toEqual({
      type: "Property",
      value: 13,
      unitCode: "MTR",
      observedAt: "2024-03-01T10:00:00Z",
    });
    expect(back.owner.since.value).toBe(2021);
    expect(back.owner.object).toBe("urn:ngsi-ld:Person:alice");
    expect(back.colour).toEqual({ type: "Property", value: "blue" });
    expect(back.name).toBeUndefined();
    expectProblem(await call("PATCH", path("urn:ngsi-ld:B:none"), { a: 1 }), 404, "ResourceNotFound");
    expectProblem(await call("PATCH", path(id), { id: "urn:ngsi-ld:Other:1" }), 400, "BadRequestData");
  });

  it("TP/NGSI-LD/CI/Prov/RPE/001 replaces every attribute and keeps createdAt", async () => {
    const id = uid();
    await call("POST", "/entities", building(id));
    const created = (await call("GET", path(id, "?options=sysAttrs"))).body.createdAt;
    const r = await call("PUT", path(id), { type: "Warehouse", size: { type: "Property", value: 100 } });
    expect(r.status, r.raw).toBe(204);
    const back = (await call("GET", path(id, "?options=sysAttrs"))).body;
    expect(back.type).toBe("Warehouse");
    expect(Object.keys(back).sort()).toEqual(["createdAt", "id", "modifiedAt", "size", "type"]);
    expect(back.createdAt).toBe(created);
    expectProblem(await call("PUT", path("urn:ngsi-ld:B:none"), { type: "B" }), 404, "ResourceNotFound");
  });
});

describe("other attribute kinds (4.5)", () => {
  it("stores LanguageProperty, VocabProperty (expanded and compacted back), JsonProperty and ListProperty", async () => {
    const id = uid();
    const body = {
      id,
      type: "Thing",
      title: { type: "LanguageProperty", languageMap: { en: "Farm", fr: "Ferme" } },
      category: { type: "VocabProperty", vocab: "Building" },
      config: { type: "JsonProperty", json: { type: "free", value: [1, 2] } },
      readings: { type: "ListProperty", valueList: [1, 2, 3] },
    };
    expect((await call("POST", "/entities", body)).status).toBe(201);
    expect((await call("GET", path(id))).body).toEqual(body);
    const kv = (await call("GET", path(id, "?options=keyValues"))).body;
    expect(kv.category).toBe("Building");
    expect(kv.readings).toEqual([1, 2, 3]);
  });
});
