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
