import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { CORE, ERR, startBroker, uid, type ngsi } from "./ngsi.ts";

/** TP/NGSI-LD/CI/Prov/BE: batch entity operations (5.6.7-5.6.10; ETSI suite BatchEntities 003-006). */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

const get = (id: string) => call("GET", `/entities/${encodeURIComponent(id)}`);
const e = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "Vehicle",
  speed: { type: "Property", value: 10 },
  ...extra,
});
const expectErrors = (body: any, expected: Array<[string, string]>) =>
  expect(body.errors.map((x: any) => [x.entityId, x.error.type])).toEqual(
    expected.map(([id, type]) => [id, ERR(type)]),
  );

describe("TP/NGSI-LD/CI/Prov/BE/003 batch create", () => {
  it("003_01 creates all: 201 with the ids", async () => {
    const a = uid("Vehicle");
    const b = uid("Vehicle");
    const r = await call("POST", "/entityOperations/create", [e(a), e(b)]);
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toEqual([a, b]);
    expect((await get(b)).status).toBe(200);
  });

  it("003_02 reports existing, duplicate and invalid entities in a 207 BatchOperationResult", async () => {
    const existing = uid("Vehicle");
    await call("POST", "/entities", e(existing));
    const fresh = uid("Vehicle");
    const r = await call("POST", "/entityOperations/create", [
      e(fresh),
      e(existing),
      e(fresh),
      { id: "bad id", type: "Vehicle" },
      { id: uid("Vehicle") },
    ]);
    expect(r.status).toBe(207);
    expect(r.body.success).toEqual([fresh]);
    expect(r.body.errors).toHaveLength(4);
    expect(r.body.errors[0].error).toMatchObject({
      type: ERR("BadRequestData"),
      status: 400,
      title: expect.any(String),
      detail: expect.any(String),
    });
    expect(r.body.errors.map((x: any) => x.error.type).sort()).toEqual([
      ERR("AlreadyExists"),
      ERR("AlreadyExists"),
      ERR("BadRequestData"),
      ERR("BadRequestData"),
    ]);
    expect(String(r.headers["content-type"])).toMatch(/^application\/json/);
  });

  it("003_03 takes each entity's own @context with application/ld+json", async () => {
    const a = uid("Vehicle");
    const r = await call(
      "POST",
      "/entityOperations/create",
      [{ ...e(a), "@context": [{ speed: "https://example.org/speed" }, CORE] }],
      {
        "content-type": "application/ld+json",
      },
    );
    expect(r.status, r.raw).toBe(201);
    // With the default context the attribute is the full IRI.
    expect((await get(a)).body["https://example.org/speed"].value).toBe(10);
  });

  it("003_04 refuses a body that is not a non-empty array", async () => {
    for (const body of [{ id: "urn:x:y" }, [], "text"]) {
      const r = await call("POST", "/entityOperations/create", body);
      expect(r.status).toBe(400);
      expect(r.body.type).toBe(ERR(typeof body === "string" ? "InvalidRequest" : "BadRequestData"));
    }
  });
});

describe("TP/NGSI-LD/CI/Prov/BE/004 batch upsert", () => {
  it("004_01 creates new ones (201 with their ids) and replaces existing ones", async () => {
    const existing = uid("Vehicle");
    await call("POST", "/entities", e(existing, { colour: "red" }));
    const fresh = uid("Vehicle");
    const r = await call("POST", "/entityOperations/upsert", [
      e(existing, { speed: { type: "Property", value: 50 } }),
      e(fresh),
    ]);
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toEqual([fresh]);
    const back = (await get(existing)).body;
    expect(back.speed.value).toBe(50);
    expect(back.colour).toBeUndefined(); // replace is the default
  });

  it("004_02 options=update merges into existing entities; only updates give 204", async () => {
    const existing = uid("Vehicle");
    await call("POST", "/entities", e(existing, { colour: "red" }));
    const r = await call("POST", "/entityOperations/upsert?options=update", [
      { id: existing, type: "Vehicle", speed: 70 },
    ]);
    expect(r.status, r.raw).toBe(204);
    const back = (await get(existing)).body;
    expect(back.speed.value).toBe(70);
    expect(back.colour.value).toBe("red");
  });

  it("004_03 207 with per-entity errors; valid entities are still written", async () => {
    const fresh = uid("Vehicle");
    const r = await call("POST", "/entityOperations/upsert", [
      e(fresh),
      { id: fresh.replace("Vehicle", "Bad"), type: "Vehicle", speed: { type: "Property" } },
    ]);
    expect(r.status).toBe(207);
    expect(r.body.success).toEqual([fresh]);
    expectErrors(r.body, [[fresh.replace("Vehicle", "Bad"), "BadRequestData"]]);
    expect((await get(fresh)).status).toBe(200);
    expect((await call("POST", "/entityOperations/upsert?options=merge", [e(fresh)])).status).toBe(400);
  });
});

describe("TP/NGSI-LD/CI/Prov/BE/005 batch update", () => {
  it("005_01 appends attributes to existing entities: 204; unknown entities in a 207", async () => {
    const a = uid("Vehicle");
    await call("POST", "/entities", e(a));
    const missing = uid("Vehicle");
    expect(
      (await call("POST", "/entityOperations/update", [{ id: a, speed: 99, colour: "green" }])).status,
    ).toBe(204);
    expect((await get(a)).body.speed.value).toBe(99);
    const r = await call("POST", "/entityOperations/update", [
      { id: a, speed: 1 },
      { id: missing, speed: 1 },
    ]);
    expect(r.status).toBe(207);
    expect(r.body.success).toEqual([a]);
    expectErrors(r.body, [[missing, "ResourceNotFound"]]);
  });

  it("005_02 options=noOverwrite keeps existing attributes", async () => {
    const a = uid("Vehicle");
    await call("POST", "/entities", e(a));
    expect(
      (
        await call("POST", "/entityOperations/update?options=noOverwrite", [
          { id: a, speed: 5, colour: "blue" },
        ])
      ).status,
    ).toBe(204);
    const back = (await get(a)).body;
    expect(back.speed.value).toBe(10);
    expect(back.colour.value).toBe("blue");
  });
});

describe("TP/NGSI-LD/CI/Prov/BE/006 batch delete", () => {
  it("006_01 deletes: 204; unknown or invalid ids in a 207", async () => {
    const a = uid("Vehicle");
    const b = uid("Vehicle");
    await call("POST", "/entityOperations/create", [e(a), e(b)]);
    expect((await call("POST", "/entityOperations/delete", [a])).status).toBe(204);
    expect((await get(a)).status).toBe(404);
    const r = await call("POST", "/entityOperations/delete", [b, a, 42]);
    expect(r.status).toBe(207);
    expect(r.body.success).toEqual([b]);
    expectErrors(r.body, [
      ["", "BadRequestData"],
      [a, "ResourceNotFound"],
    ]);
  });
});
