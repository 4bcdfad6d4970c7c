import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { CORE, ERR, startBroker, uid, type ngsi } from "./ngsi.ts";

/**
 * Conformance details an outside suite found (FIWARE/NGSI-LD_TestSuite and the ETSI suite's
 * TP 010-012 and 001): empty payloads on append (5.6.3), update (5.6.2) and partial attribute
 * update (5.6.4); a Property value that is an array of one element, which JSON-LD compaction
 * returns as the element (4.5, as Orion-LD answers); attribute names the spec does not allow
 * (4.6.2). Written from the spec's text. Runs on the storage TEST_STORAGE names.
 */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

const entityPath = (id: string, rest = "") => `/entities/${encodeURIComponent(id)}${rest}`;
const expectProblem = (r: { status: number; body: any; raw: string }, status: number, type: string) => {
  expect(r.status, r.raw).toBe(status);
  expect(r.body.type).toBe(ERR(type));
};
async function created(extra: Record<string, unknown> = {}) {
  const id = uid("T");
  const r = await call("POST", "/entities", { id, type: "T", P1: { type: "Property", value: 1 }, ...extra });
  expect(r.status, r.raw).toBe(201);
  return id;
}

describe("an empty payload is 400 BadRequestData (5.6.2-5.6.4)", () => {
  it("append, update and partial attribute update refuse {} and change nothing", async () => {
    const id = await created();
    expectProblem(await call("POST", entityPath(id, "/attrs"), {}), 400, "BadRequestData");
    expectProblem(await call("PATCH", entityPath(id, "/attrs"), {}), 400, "BadRequestData");
    expectProblem(await call("PATCH", entityPath(id, "/attrs/P1"), {}), 400, "BadRequestData");
    const r = await call("GET", entityPath(id, "?options=sysAttrs"));
    expect(r.body.P1.value).toBe(1);
    expect(r.body.modifiedAt).toBe(r.body.createdAt);
  });

  it("a body with only @context (application/ld+json) is empty too", async () => {
    const id = await created();
    const ld = { "content-type": "application/ld+json" };
    expectProblem(
      await call("POST", entityPath(id, "/attrs"), { "@context": CORE }, ld),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("PATCH", entityPath(id, "/attrs"), { "@context": CORE }, ld),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("PATCH", entityPath(id, "/attrs/P1"), { "@context": CORE }, ld),
      400,
      "BadRequestData",
    );
  });

  it("non-empty bodies still answer 204 (append of a type alone included)", async () => {
    const id = await created();
    expect(
      (await call("POST", entityPath(id, "/attrs"), { P2: { type: "Property", value: 2 } })).status,
    ).toBe(204);
    expect((await call("POST", entityPath(id, "/attrs"), { type: "U" })).status).toBe(204);
    expect(
      (await call("PATCH", entityPath(id, "/attrs"), { P2: { type: "Property", value: 3 } })).status,
    ).toBe(204);
    expect((await call("PATCH", entityPath(id, "/attrs/P2"), { value: 4 })).status).toBe(204);
    const r = await call("GET", entityPath(id));
    expect(r.body).toMatchObject({ type: ["T", "U"], P2: { value: 4 } });
  });
});

describe("a Property value that is an array of one element is compacted to the element (4.5)", () => {
  it("in normalized, concise and simplified representations, in sub-properties and query results", async () => {
    const id = await created({
      tags: { type: "Property", value: ["red"], since: { type: "Property", value: [2020] } },
      pair: { type: "Property", value: ["a", "b"] },
      nested: { type: "Property", value: [[1, 2]] },
      list: { type: "ListProperty", valueList: ["only"] },
    });
    const normalized = (await call("GET", entityPath(id))).body;
    expect(normalized.tags).toEqual({
      type: "Property",
      value: "red",
      since: { type: "Property", value: 2020 },
    });
    expect(normalized.pair.value).toEqual(["a", "b"]);
    // An array inside an array would be read back as another value: kept as it is.
    expect(normalized.nested.value).toEqual([[1, 2]]);
    // A ListProperty is an ordered list, not a set: kept.
    expect(normalized.list.valueList).toEqual(["only"]);
    expect((await call("GET", entityPath(id, "?format=concise"))).body.tags).toEqual({
      value: "red",
      since: 2020,
    });
    expect((await call("GET", entityPath(id, "?options=keyValues"))).body.tags).toBe("red");
    const query = await call("GET", `/entities?type=T&id=${encodeURIComponent(id)}`);
    expect(query.body[0].tags.value).toBe("red");
    const temporal = await call("GET", `/temporal/entities/${encodeURIComponent(id)}?attrs=tags`);
    expect(temporal.body.tags[0].value).toBe("red");
  });

  it("q still matches the stored array", async () => {
    const id = await created({ tags: { type: "Property", value: ["red"] } });
    const r = await call("GET", `/entities?type=T&q=${encodeURIComponent('tags=="red"')}`);
    expect(r.body.map((e: { id: string }) => e.id)).toContain(id);
  });
});

describe("attribute names must be valid NGSI-LD names (4.6.2)", () => {
  const bad = "P?|{{";
  const attr = { type: "Property", value: 345 };

  it("create refuses P?|{{ and the forbidden characters; terms, compact IRIs and IRIs pass", async () => {
    for (const name of [
      bad,
      "a|b",
      "a{b}",
      "a?b",
      "a#b",
      "a/b",
      "a&b",
      "a[0]",
      "a\\b",
      "a^b",
      "a`b",
      "a b",
      "a(b",
      "a=b",
      "a;b",
      "a<b",
      "ex:a b",
      "ex:a|b",
    ]) {
      const r = await call("POST", "/entities", { id: uid("T"), type: "T", [name]: attr });
      expectProblem(r, 400, "BadRequestData");
    }
    for (const name of [
      "temperature",
      "température",
      "fuel-level_2.x",
      "ex:speed",
      "https://example.org/vocab/speed?v1#x",
    ]) {
      const r = await call("POST", "/entities", { id: uid("T"), type: "T", [name]: attr });
      expect(r.status, `${name}: ${r.raw}`).toBe(201);
    }
  });

  it("append, update, partial update and merge refuse it; the entity is unchanged", async () => {
    const id = await created();
    expectProblem(await call("POST", entityPath(id, "/attrs"), { [bad]: attr }), 400, "BadRequestData");
    expectProblem(await call("PATCH", entityPath(id, "/attrs"), { [bad]: attr }), 400, "BadRequestData");
    expectProblem(
      await call("PATCH", entityPath(id, `/attrs/${encodeURIComponent(bad)}`), { value: 1 }),
      400,
      "BadRequestData",
    );
    expectProblem(await call("PATCH", entityPath(id), { [bad]: attr }), 400, "BadRequestData");
    expectProblem(
      await call("DELETE", entityPath(id, `/attrs/${encodeURIComponent(bad)}`)),
      400,
      "BadRequestData",
    );
    expect(Object.keys((await call("GET", entityPath(id))).body).sort()).toEqual(["P1", "id", "type"]);
  });

  it("batch create, upsert and update report the entity with BadRequestData and write the others", async () => {
    const good = uid("T");
    const wrong = uid("T");
    const batch = [
      { id: good, type: "T", P1: attr },
      { id: wrong, type: "T", [bad]: attr },
    ];
    for (const op of ["create", "upsert", "update"]) {
      const r = await call("POST", `/entityOperations/${op}`, batch);
      expect(r.status, `${op}: ${r.raw}`).toBe(207);
      expect(r.body.success).toEqual([good]);
      expect(r.body.errors).toEqual([
        { entityId: wrong, error: expect.objectContaining({ type: ERR("BadRequestData"), status: 400 }) },
      ]);
    }
    expect((await call("GET", entityPath(wrong))).status).toBe(404);
  });

  it("temporal entities refuse it too", async () => {
    const r = await call("POST", "/temporal/entities", { id: uid("T"), type: "T", [bad]: [attr] });
    expectProblem(r, 400, "BadRequestData");
  });
});
