import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { CORE, ERR, linkHeader, startBroker, uid, type ngsi } from "./ngsi.ts";

/**
 * Conformance tests for subscription management, named after the ETSI NGSI-LD test suite's test
 * purposes (TP/NGSI-LD/CI/Sub: CS 028 CreateSubscription, US 029 UpdateSubscription, RS 030
 * RetrieveSubscription, QS 031 QuerySubscriptions, DS 032 DeleteSubscription). Written from the
 * spec (5.8.1-5.8.5); no suite code is copied.
 */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

const path = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;
const subscription = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "Subscription",
  subscriptionName: "Hot buildings",
  entities: [{ type: "Building" }],
  watchedAttributes: ["temperature"],
  q: "temperature>30",
  notification: {
    attributes: ["temperature"],
    format: "keyValues",
    endpoint: { uri: "http://127.0.0.1:9/notify", accept: "application/json" },
  },
  ...extra,
});
const expectProblem = (r: { status: number; body: any }, status: number, type: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.type).toBe(ERR(type));
};
const subId = () => uid("Subscription");

describe("TP/NGSI-LD/CI/Sub/CS/028 create subscription (5.8.1)", () => {
  it("028_01 creates a subscription: 201, Location, empty body; GET shows it with status", async () => {
    const id = subId();
    const r = await call("POST", "/subscriptions", subscription(id));
    expect(r.status, r.raw).toBe(201);
    expect(r.headers.location).toBe(`/ngsi-ld/v1/subscriptions/${id}`);
    expect(r.raw).toBe("");
    const back = await call("GET", path(id));
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      id,
      type: "Subscription",
      subscriptionName: "Hot buildings",
      entities: [{ type: "Building" }],
      watchedAttributes: ["temperature"],
      q: "temperature>30",
      isActive: true,
      status: "active",
      notification: {
        attributes: ["temperature"],
        format: "keyValues",
        endpoint: { uri: "http://127.0.0.1:9/notify", accept: "application/json" },
        timesSent: 0,
        timesFailed: 0,
      },
    });
  });

  it("028_02 generates an id urn:ngsi-ld:Subscription:<uuid> when the body has none", async () => {
    const { id: _none, ...body } = subscription("urn:x:unused");
    const r = await call("POST", "/subscriptions", body);
    expect(r.status, r.raw).toBe(201);
    expect(String(r.headers.location)).toMatch(
      /^\/ngsi-ld\/v1\/subscriptions\/urn:ngsi-ld:Subscription:[0-9a-f-]{36}$/,
    );
    const id = String(r.headers.location).split("/").pop()!;
    expect((await call("GET", path(id))).body.id).toBe(id);
  });

  it("028_03 refuses an existing id with 409 AlreadyExists", async () => {
    const id = subId();
    expect((await call("POST", "/subscriptions", subscription(id))).status).toBe(201);
    expectProblem(await call("POST", "/subscriptions", subscription(id)), 409, "AlreadyExists");
  });

  it("028_04 refuses invalid subscriptions with 400 BadRequestData", async () => {
    const id = subId();
    const base = subscription(id);
    const invalid: Array<[string, unknown]> = [
      ["no endpoint uri", { ...base, notification: { endpoint: { accept: "application/json" } } }],
      ["no notification", { ...base, notification: undefined }],
      [
        "neither entities nor watchedAttributes",
        { ...base, entities: undefined, watchedAttributes: undefined },
      ],
      ["bad q", { ...base, q: "temperature===1" }],
      ["bad geoQ", { ...base, geoQ: { georel: "near", geometry: "Point", coordinates: [1, 2] } }],
      ["timeInterval with watchedAttributes", { ...base, timeInterval: 10 }],
      [
        "throttling with timeInterval",
        { ...base, watchedAttributes: undefined, timeInterval: 10, throttling: 5 },
      ],
      ["negative throttling", { ...base, throttling: -1 }],
      ["wrong type", { ...base, type: "Subscriptions" }],
      ["id not a URI", { ...base, id: "not a uri" }],
      ["bad format", { ...base, notification: { ...base.notification, format: "xml" } }],
      [
        "bad accept",
        {
          ...base,
          notification: { ...base.notification, endpoint: { uri: "http://x/", accept: "text/plain" } },
        },
      ],
      ["mqtt endpoint", { ...base, notification: { endpoint: { uri: "mqtt://broker/topic" } } }],
      ["expiresAt in the past", { ...base, expiresAt: "2000-01-01T00:00:00Z" }],
      ["entity selector without type", { ...base, entities: [{ id: "urn:x:1" }] }],
      ["bad idPattern", { ...base, entities: [{ type: "Building", idPattern: "([" }] }],
      ["unknown member", { ...base, colour: "red" }],
      ["bad trigger", { ...base, notificationTrigger: ["somethingHappened"] }],
      ["isActive not boolean", { ...base, isActive: "yes" }],
      [
        "receiverInfo with a line break",
        {
          ...base,
          notification: {
            ...base.notification,
            endpoint: { uri: "http://x/", receiverInfo: [{ key: "X-A", value: "a\r\nb" }] },
          },
        },
      ],
    ];
    for (const [why, body] of invalid) {
      const r = await call("POST", "/subscriptions", body);
      expect(r.status, `${why}: ${r.raw}`).toBe(400);
      expect(r.body.type, why).toBe(ERR("BadRequestData"));
    }
    expect((await call("GET", path(id))).status).toBe(404);
  });

  it("028_05 expands names with the Link context and compacts them with the reader's", async () => {
    const id = subId();
    const r = await call(
      "POST",
      "/subscriptions",
      { ...subscription(id), watchedAttributes: ["ex:temperature"], q: "ex:temperature>30" },
      { link: linkHeader(CORE) },
    );
    expect(r.status, r.raw).toBe(201);
    const plain = await call("GET", path(id));
    expect(plain.body.watchedAttributes).toEqual(["ex:temperature"]);
    expect(plain.body.entities).toEqual([{ type: "Building" }]);
  });

  it("028_06 accepts application/ld+json with @context in the body", async () => {
    const id = subId();
    const r = await call(
      "POST",
      "/subscriptions",
      { ...subscription(id), "@context": CORE },
      { "content-type": "application/ld+json" },
    );
    expect(r.status, r.raw).toBe(201);
    const ld = await call("GET", path(id), undefined, { accept: "application/ld+json" });
    expect(ld.headers["content-type"]).toMatch(/application\/ld\+json/);
    expect(ld.body["@context"]).toBe(CORE);
  });

  it("028_07 a subscription with isActive false is paused, one with expiresAt later is active", async () => {
    const paused = subId();
    await call("POST", "/subscriptions", subscription(paused, { isActive: false }));
    expect((await call("GET", path(paused))).body.status).toBe("paused");
    const later = subId();
    await call("POST", "/subscriptions", subscription(later, { expiresAt: "2999-01-01T00:00:00Z" }));
    const body = (await call("GET", path(later))).body;
    expect(body.status).toBe("active");
    expect(body.expiresAt).toBe("2999-01-01T00:00:00.000Z");
  });

  it("028_08 an unknown context URL is 503 LdContextNotAvailable, not a stored subscription", async () => {
    const id = subId();
    const r = await call("POST", "/subscriptions", subscription(id), {
      link: linkHeader("http://127.0.0.1:9/missing-context.jsonld"),
    });
    expectProblem(r, 503, "LdContextNotAvailable");
    expect((await call("GET", path(id))).status).toBe(404);
  });
});

describe("TP/NGSI-LD/CI/Sub/RS/030 retrieve subscription (5.8.3)", () => {
  it("030_01 an unknown subscription is 404 ResourceNotFound, a bad id 400", async () => {
    expectProblem(await call("GET", path("urn:ngsi-ld:Subscription:nothing")), 404, "ResourceNotFound");
    expectProblem(await call("GET", "/subscriptions/not%20a%20uri"), 400, "BadRequestData");
  });

  it("030_02 options=sysAttrs adds createdAt and modifiedAt", async () => {
    const id = subId();
    await call("POST", "/subscriptions", subscription(id));
    const r = await call("GET", `${path(id)}?options=sysAttrs`);
    expect(r.body.createdAt).toMatch(/^\d{4}-/);
    expect(r.body.modifiedAt).toMatch(/^\d{4}-/);
  });
});

describe("TP/NGSI-LD/CI/Sub/QS/031 query subscriptions (5.8.4)", () => {
  it("031_01 pages with limit/offset and counts with count=true, per tenant", async () => {
    const tenant = { "NGSILD-Tenant": `subs${Date.now().toString(36)}` };
    for (let i = 0; i < 3; i++) {
      const r = await call("POST", "/subscriptions", subscription(subId()), tenant);
      expect(r.status).toBe(201);
    }
    const all = await call("GET", "/subscriptions?count=true", undefined, tenant);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(3);
    expect(all.headers["ngsild-results-count"]).toBe("3");
    const page = await call("GET", "/subscriptions?limit=2&offset=2", undefined, tenant);
    expect(page.body).toHaveLength(1);
    expect(page.body[0].id).toBe(all.body[2].id);
    const none = await call("GET", "/subscriptions?limit=0&count=true", undefined, tenant);
    expect(none.body).toEqual([]);
    expect(none.headers["ngsild-results-count"]).toBe("3");
    // The default tenant does not see them.
    const other = await call("GET", "/subscriptions?limit=1000");
    expect(other.body.some((s: { id: string }) => all.body.some((a: { id: string }) => a.id === s.id))).toBe(
      false,
    );
  });

  it("031_02 an unknown tenant is 404 NonexistentTenant; a too large limit 403 TooManyResults", async () => {
    expectProblem(
      await call("GET", "/subscriptions", undefined, { "NGSILD-Tenant": "never-written-tenant" }),
      404,
      "NonexistentTenant",
    );
    expectProblem(await call("GET", "/subscriptions?limit=100000"), 403, "TooManyResults");
  });
});

describe("TP/NGSI-LD/CI/Sub/US/029 update subscription (5.8.2)", () => {
  it("029_01 PATCH replaces members, merges notification, answers 204", async () => {
    const id = subId();
    await call("POST", "/subscriptions", subscription(id));
    const r = await call("PATCH", path(id), {
      description: "now described",
      watchedAttributes: ["humidity"],
      isActive: false,
      notification: { format: "normalized" },
    });
    expect(r.status, r.raw).toBe(204);
    const back = (await call("GET", path(id))).body;
    expect(back.description).toBe("now described");
    expect(back.watchedAttributes).toEqual(["humidity"]);
    expect(back.status).toBe("paused");
    expect(back.q).toBe("temperature>30");
    expect(back.notification.format).toBe("normalized");
    expect(back.notification.endpoint.uri).toBe("http://127.0.0.1:9/notify");
  });

  it("029_02 404 for an unknown subscription, 400 for an invalid fragment or another id", async () => {
    expectProblem(
      await call("PATCH", path("urn:ngsi-ld:Subscription:none"), { description: "x" }),
      404,
      "ResourceNotFound",
    );
    const id = subId();
    await call("POST", "/subscriptions", subscription(id));
    expectProblem(await call("PATCH", path(id), { throttling: "often" }), 400, "BadRequestData");
    expectProblem(
      await call("PATCH", path(id), { id: "urn:ngsi-ld:Subscription:other" }),
      400,
      "BadRequestData",
    );
    expectProblem(await call("PATCH", path(id), {}), 400, "BadRequestData");
    expect((await call("GET", path(id))).body.throttling).toBeUndefined();
  });
});

describe("TP/NGSI-LD/CI/Sub/DS/032 delete subscription (5.8.5)", () => {
  it("032_01 DELETE answers 204, then 404", async () => {
    const id = subId();
    await call("POST", "/subscriptions", subscription(id));
    expect((await call("DELETE", path(id))).status).toBe(204);
    expect((await call("GET", path(id))).status).toBe(404);
    expectProblem(await call("DELETE", path(id)), 404, "ResourceNotFound");
  });
});
