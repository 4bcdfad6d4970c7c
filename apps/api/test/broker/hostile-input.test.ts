import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driver, type TestApp } from "../support/harness.ts";
import { ERR, startBroker, type ngsi } from "./ngsi.ts";

// What an attacker sends the embedded broker, which needs no login: patterns that make a
// backtracking engine take exponential time, patterns no engine here runs, bytes storage refuses,
// absurd nesting. Each answer is a 4xx problem or a quick result, never a 500, nothing stored.

let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => {
  ({ t, call } = await startBroker());
  for (const id of ["urn:ngsi-ld:T:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "urn:ngsi-ld:T:b"]) {
    const r = await call("POST", "/entities", {
      id,
      type: "T",
      name: { type: "Property", value: "a".repeat(40) + "!" },
    });
    expect(r.status, r.raw).toBe(201);
  }
});
afterAll(() => t.close());

const evil = "(a+)+$";

describe(`user regular expressions run in linear time (${driver})`, () => {
  it("answers q with ~= and (a+)+$ against a 40-character value at once", async () => {
    const started = Date.now();
    const r = await call("GET", `/entities?type=T&q=${encodeURIComponent(`name~=${evil}`)}`);
    expect(r.status, r.raw).toBe(200);
    expect(r.body).toEqual([]);
    // A backtracking engine needs about 2^40 steps here: the test would not end.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("answers idPattern queries and matches subscription idPatterns with the same engine", async () => {
    const r = await call("GET", `/entities?type=T&idPattern=${encodeURIComponent(`urn:ngsi-ld:T:${evil}`)}`);
    expect(r.status, r.raw).toBe(200);
    const sub = await call("POST", "/subscriptions", {
      type: "Subscription",
      entities: [{ type: "T", idPattern: `urn:ngsi-ld:T:${evil}` }],
      notification: { endpoint: { uri: "http://127.0.0.1:9/n" } },
    });
    expect(sub.status, sub.raw).toBe(201);
    const update = await call(
      "PATCH",
      `/entities/${encodeURIComponent("urn:ngsi-ld:T:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")}/attrs`,
      {
        name: { type: "Property", value: "b" },
      },
    );
    expect(update.status, update.raw).toBe(204);
  });

  it("keeps NGSI-LD's (?i) flag", async () => {
    const r = await call("GET", `/entities?type=T&q=${encodeURIComponent("name~=(?i)^A+!$")}`);
    // The first entity's name was set to "b" above.
    expect(r.body.map((e: { id: string }) => e.id)).toEqual(["urn:ngsi-ld:T:b"]);
  });

  it("refuses with 400 what the engine cannot run: backreferences, lookaround, and what storage cannot (a{1000}, \\p{L})", async () => {
    for (const pattern of ["(a)\\1", "(?=a)b", "a{1000}", "(?<n>a)", "\\p{L}"]) {
      for (const query of [
        `idPattern=${encodeURIComponent(pattern)}`,
        `q=${encodeURIComponent(`name~=${pattern}`)}`,
      ]) {
        const r = await call("GET", `/entities?type=T&${query}`);
        expect([200, 400], `${query}: ${r.raw}`).toContain(r.status);
        if (r.status === 400) expect(r.body.type, query).toBe(ERR("BadRequestData"));
      }
    }
    for (const pattern of ["(a)\\1", "(?=a)b"]) {
      const r = await call("GET", `/entities?type=T&idPattern=${encodeURIComponent(pattern)}`);
      expect(r.status).toBe(400);
      expect(r.body.detail).toMatch(/not a regular expression this broker runs/);
      const sub = await call("POST", "/subscriptions", {
        type: "Subscription",
        entities: [{ type: "T", idPattern: pattern }],
        notification: { endpoint: { uri: "http://127.0.0.1:9/n" } },
      });
      expect(sub.status).toBe(400);
    }
  });
});

describe(`hostile bytes and nesting (${driver})`, () => {
  it("refuses a NUL byte or a lone surrogate in ids, values, keys and q, and stores nothing", async () => {
    const bodies = [
      '{"id":"urn:ngsi-ld:T:n\\u0000","type":"T"}',
      '{"id":"urn:ngsi-ld:T:n1","type":"T","name":{"type":"Property","value":"a\\u0000"}}',
      '{"id":"urn:ngsi-ld:T:n2","type":"T","name":{"type":"Property","value":"a\\ud800"}}',
      '{"id":"urn:ngsi-ld:T:n3","type":"T","na\\u0000me":{"type":"Property","value":1}}',
    ];
    for (const body of bodies) {
      const r = await call("POST", "/entities", body);
      expect(r.status, `${body}: ${r.raw}`).toBe(400);
      expect(r.body.type).toBe(ERR("BadRequestData"));
    }
    for (const path of [
      "/entities/urn:ngsi-ld:T:x%00",
      `/entities?type=T&q=${encodeURIComponent('name=="a\u0000"')}`,
      "/entities?type=T%00",
    ]) {
      const r = await call("GET", path);
      expect(r.status, `${path}: ${r.raw}`).toBe(400);
    }
    const batch = await call("POST", "/entityOperations/upsert", `[${bodies[1]}]`);
    expect(batch.status).toBe(400);
    for (const id of ["urn:ngsi-ld:T:n1", "urn:ngsi-ld:T:n2", "urn:ngsi-ld:T:n3"])
      expect((await call("GET", `/entities/${id}`)).status).toBe(404);
  });

  it("refuses JSON nested 10,000 deep with a 400", async () => {
    const deep = `{"id":"urn:ngsi-ld:T:deep","type":"T","v":{"type":"Property","value":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`;
    const r = await call("POST", "/entities", deep);
    expect(r.status, r.raw.slice(0, 200)).toBe(400);
    expect(r.body.detail).toMatch(/nested deeper than 100 levels/);
    expect((await call("GET", "/entities/urn:ngsi-ld:T:deep")).status).toBe(404);
  });
});

describe(`conformance as the ETSI NGSI-LD suite reads the spec (${driver})`, () => {
  it("deletes with a Content-Type header and no body", async () => {
    await call("POST", "/entities", { id: "urn:ngsi-ld:T:del", type: "T" });
    const r = await t.app.inject({
      method: "DELETE",
      url: "/ngsi-ld/v1/entities/urn:ngsi-ld:T:del",
      headers: { "content-type": "application/json", authorization: `Bearer ${await t.tokenFor("admin")}` },
    });
    expect(r.statusCode, r.body).toBe(204);
  });

  it("takes a batch delete whose application/ld+json body is the array of ids", async () => {
    await call("POST", "/entities", { id: "urn:ngsi-ld:T:bd1", type: "T" });
    await call("POST", "/entities", { id: "urn:ngsi-ld:T:bd2", type: "T" });
    const r = await call("POST", "/entityOperations/delete", ["urn:ngsi-ld:T:bd1", "urn:ngsi-ld:T:bd2"], {
      "content-type": "application/ld+json",
    });
    expect(r.status, r.raw).toBe(204);
    expect((await call("GET", "/entities/urn:ngsi-ld:T:bd1")).status).toBe(404);
  });
});
