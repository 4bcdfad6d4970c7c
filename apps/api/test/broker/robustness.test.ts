import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { ERR, startBroker, type ngsi } from "./ngsi.ts";

/** TP/NGSI-LD/CB/ERR: bad input is a 400-class problem, never a 500 and never a crash. */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

describe("TP/NGSI-LD/CB/ERR error handling", () => {
  it("ERR/001 malformed JSON is 400 InvalidRequest with application/json problem details", async () => {
    for (const [path, body] of [
      ["/entities", '{"id": "urn:x:1", '],
      ["/entityOperations/upsert", "[{]"],
      ["/entities/urn:x:1/attrs", "nope"],
      ["/entityOperations/query", '{"__proto__": {"polluted": true}, "type": "Query"}'],
    ]) {
      const r = await call("POST", path!, body);
      expect(r.status, `${path} ${r.raw}`).toBe(400);
      expect(r.body.type).toBe(ERR("InvalidRequest"));
      expect(String(r.headers["content-type"])).toMatch(/^application\/json/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("ERR/002 a body over the limit is 400 InvalidRequest", async () => {
    const huge = JSON.stringify({ id: "urn:x:big", type: "T", blob: "x".repeat(1024 * 1024 + 10) });
    const r = await call("POST", "/entities", huge);
    expect(r.status).toBe(400);
    expect(r.body.type).toBe(ERR("InvalidRequest"));
    expect(r.body.detail).toMatch(/limit/);
  });

  it("ERR/003 an unsupported Content-Type is 415, an empty JSON body 400", async () => {
    const r = await call("POST", "/entities", "id=1", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(r.status).toBe(415);
    const empty = await t.app.inject({
      method: "POST",
      url: "/ngsi-ld/v1/entities",
      headers: { "content-type": "application/json", authorization: `Bearer ${await t.tokenFor("admin")}` },
    });
    expect(empty.statusCode).toBe(400);
  });

  it("ERR/004 unknown operators, parameters and paths are 400/404 problems", async () => {
    const cases: Array<[string, string, number]> = [
      ["GET", "/entities?type=T&q=a%3D1", 400],
      ["GET", "/entities?type=T&q=a%3D%3D%3D1", 400],
      ["GET", "/entities?type=T&georel=around&geometry=Point&coordinates=[1,2]", 400],
      ["GET", "/entities?type=T&coordinates=[1,2", 400],
      ["GET", "/entities?type=T&filter=x", 400],
      ["GET", "/entities?type=T&type=U", 400],
      ["GET", "/entities?type=T%28", 400],
      ["GET", "/nothing-here", 404],
      ["DELETE", "/entities", 404],
    ];
    for (const [method, path, status] of cases) {
      const r = await call(method, path);
      expect(r.status, `${method} ${path}: ${r.raw}`).toBe(status);
      expect(String(r.body?.type), `${method} ${path}: ${r.raw}`).toMatch(
        /^https:\/\/uri\.etsi\.org\/ngsi-ld\/errors\//,
      );
    }
  });

  it("ERR/005 a fuzz of odd bodies never gives a 500", async () => {
    const bodies: unknown[] = [
      null,
      0,
      "s",
      [],
      [null],
      {},
      { id: null },
      { id: 5, type: 5 },
      { id: "urn:x:f", type: [] },
      { id: "urn:x:f", type: [1] },
      { id: "urn:x:f", type: "T", a: null },
      { id: "urn:x:f", type: "T", a: [] },
      { id: "urn:x:f", type: "T", a: [null] },
      { id: "urn:x:f", type: "T", a: { type: "Property", value: null } },
      { id: "urn:x:f", type: "T", a: { type: "GeoProperty", value: "x" } },
      {
        id: "urn:x:f",
        type: "T",
        a: { type: "Property", value: 1, b: { c: { d: { e: { f: { g: 1 } } } } } },
      },
      { id: "urn:x:f", type: "T", "@context": {} },
      { id: "urn:x:f", type: "T", a: { type: "Relationship", object: [] } },
      { id: "urn:x:f", type: "T", a: { type: "ListProperty", valueList: "no" } },
      { id: "urn:x:f", type: "T", a: { type: "Property", value: 1, object: "urn:x:y" } },
      { id: "urn:x:f", type: "T", a: { type: "VocabProperty", vocab: 5 } },
      { id: "urn:x:f", type: "T", scope: "/a" },
    ];
    const routes: Array<[string, string]> = [
      ["POST", "/entities"],
      ["POST", "/entities/urn:x:f/attrs"],
      ["PATCH", "/entities/urn:x:f/attrs"],
      ["PATCH", "/entities/urn:x:f/attrs/a"],
      ["PATCH", "/entities/urn:x:f"],
      ["PUT", "/entities/urn:x:f"],
      ["POST", "/entityOperations/create"],
      ["POST", "/entityOperations/upsert"],
      ["POST", "/entityOperations/update"],
      ["POST", "/entityOperations/delete"],
      ["POST", "/entityOperations/query"],
    ];
    await call("POST", "/entities", { id: "urn:x:f", type: "T", a: 1 });
    for (const [method, path] of routes) {
      for (const body of bodies) {
        const r = await call(method, path, JSON.stringify(body));
        expect(r.status, `${method} ${path} ${JSON.stringify(body)}: ${r.raw}`).toBeLessThan(500);
        if (r.status >= 400)
          expect(r.body.type, `${method} ${path} ${JSON.stringify(body)}`).toMatch(
            /^https:\/\/uri\.etsi\.org\/ngsi-ld\/errors\//,
          );
      }
    }
    expect(t.logs.some((l) => l.includes("NGSI-LD broker failure"))).toBe(false);
  });

  it("ERR/006 broker routes are not behind the console's /api permission guard", async () => {
    const r = await call("POST", "/entities", { id: "urn:ngsi-ld:Open:1", type: "Open" });
    expect(r.status).toBe(201);
  });
});
