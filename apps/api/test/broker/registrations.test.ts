import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE, ERR, linkHeader, uid } from "./ngsi.ts";
import { eventually, Receiver, startPluginBroker } from "./receiver.ts";

/**
 * Context source registrations (ETSI GS CIM 009 v1.8, 5.9-5.11; HTTP binding 6.8-6.11), named
 * after the ETSI test suite's test purposes (TP/NGSI-LD/CSR: 033 register, 034 update, 035
 * delete, 036 retrieve, 037 query, 038-042 registration subscriptions, 047 their notifications).
 * The payloads follow the suite's data/csourceRegistrations fixtures.
 */
let broker: Awaited<ReturnType<typeof startPluginBroker>>;
let call: (typeof broker)["call"];
const receiver = new Receiver();
beforeAll(async () => {
  await receiver.start();
  broker = await startPluginBroker({ notifications: { timeoutMs: 2000 } });
  call = broker.call;
});
afterAll(async () => {
  await broker?.close();
  await receiver.stop();
});

const TEST_CONTEXT = "https://orrery.test/registrations-context.jsonld";
const path = (id: string) => `/csourceRegistrations/${encodeURIComponent(id)}`;
/** The suite's context-source-registration.jsonld, as application/json. */
const vehicleRegistration = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "ContextSourceRegistration",
  information: [
    {
      entities: [{ id: "urn:ngsi-ld:Vehicle:A456", type: "Vehicle" }],
      propertyNames: ["brandName", "speed"],
      relationshipNames: ["isParked"],
    },
    {
      entities: [
        { idPattern: ".*downtown$", type: "OffStreetParking" },
        { idPattern: ".*47$", type: "OffStreetParking" },
      ],
      propertyNames: ["availableSpotNumber", "totalSpotNumber"],
      relationshipNames: ["isNextToBuilding"],
    },
  ],
  endpoint: "http://my.csource.org:1026",
  ...extra,
});
const register = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const r = await call("POST", "/csourceRegistrations", body, headers);
  expect(r.status, r.raw).toBe(201);
  return r;
};

describe("TP/NGSI-LD/CSR/033 register a context source", () => {
  it("033_01 creates a registration: 201, empty body, Location; GET shows it with the default mode and operations", async () => {
    const id = uid("ContextSourceRegistration");
    const r = await register(vehicleRegistration(id));
    expect(r.raw).toBe("");
    expect(r.headers.location).toBe(`/ngsi-ld/v1/csourceRegistrations/${id}`);
    const read = await call("GET", path(id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      ...vehicleRegistration(id),
      mode: "inclusive",
      operations: ["federationOps"],
    });
  });

  it("033_11 an id is generated when absent and named by Location", async () => {
    const { id: _id, ...body } = vehicleRegistration("x");
    const r = await register(body);
    const location = String(r.headers.location);
    expect(location).toMatch(/^\/ngsi-ld\/v1\/csourceRegistrations\/urn:ngsi-ld:ContextSourceRegistration:/);
    expect((await call("GET", location.replace("/ngsi-ld/v1", ""))).status).toBe(200);
  });

  it("033_02/033_10 refuses what the spec rules out with 400 BadRequestData", async () => {
    const id = uid("ContextSourceRegistration");
    const cases: Array<[string, Record<string, unknown>]> = [
      ["information null", { ...vehicleRegistration(id), information: null }],
      ["no information", { id, type: "ContextSourceRegistration", endpoint: "http://x.org" }],
      ["no endpoint", { ...vehicleRegistration(id), endpoint: undefined }],
      ["another type", { ...vehicleRegistration(id), type: "Registration" }],
      ["expiry in the past", { ...vehicleRegistration(id), expiresAt: "2018-11-29T14:53:15Z" }],
      ["an empty information item", { ...vehicleRegistration(id), information: [{}] }],
      [
        "an entity without type",
        { ...vehicleRegistration(id), information: [{ entities: [{ id: "urn:a:b" }] }] },
      ],
      [
        "an invalid property name",
        { ...vehicleRegistration(id), information: [{ propertyNames: ["P?|{{"] }] },
      ],
      [
        "an invalid location",
        { ...vehicleRegistration(id), location: { type: "Point", coordinates: [500, 1] } },
      ],
      ["an unknown operation", { ...vehicleRegistration(id), operations: ["teleport"] }],
    ];
    for (const [why, body] of cases) {
      const r = await call("POST", "/csourceRegistrations", body);
      expect(r.status, why).toBe(400);
      expect(r.body.type, why).toBe(ERR("BadRequestData"));
    }
    expect((await call("GET", path(id))).status).toBe(404);
  });

  it("033_03 a second registration with the same id is 409 AlreadyExists", async () => {
    const id = uid("ContextSourceRegistration");
    await register(vehicleRegistration(id));
    const again = await call("POST", "/csourceRegistrations", vehicleRegistration(id));
    expect(again.status).toBe(409);
    expect(again.body.type).toBe(ERR("AlreadyExists"));
  });

  it("033_04/033_07 names are read with the request's @context (Link or body) and shown with the reader's", async () => {
    const contextDoc = {
      "@context": { Vehicle: "https://example.org/vocab#Vehicle", speed: "https://example.org/vocab#speed" },
    };
    const local = await startPluginBroker({ localContexts: { [TEST_CONTEXT]: contextDoc } });
    try {
      const id = uid("ContextSourceRegistration");
      const body = {
        id,
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Vehicle" }], propertyNames: ["speed"] }],
        endpoint: "http://my.csource.org:1026",
      };
      expect(
        (await local.call("POST", "/csourceRegistrations", body, { link: linkHeader(TEST_CONTEXT) })).status,
      ).toBe(201);
      const withContext = await local.call("GET", path(id), undefined, { link: linkHeader(TEST_CONTEXT) });
      expect(withContext.body.information).toEqual([
        { entities: [{ type: "Vehicle" }], propertyNames: ["speed"] },
      ]);
      const without = await local.call("GET", path(id));
      expect(without.body.information).toEqual([
        {
          entities: [{ type: "https://example.org/vocab#Vehicle" }],
          propertyNames: ["https://example.org/vocab#speed"],
        },
      ]);
      // application/ld+json: the @context in the body, and a Link header is then refused (033_09).
      const ld = { ...body, id: uid("ContextSourceRegistration"), "@context": TEST_CONTEXT };
      const created = await local.call("POST", "/csourceRegistrations", JSON.stringify(ld), {
        "content-type": "application/ld+json",
      });
      expect(created.status).toBe(201);
      const both = await local.call(
        "POST",
        "/csourceRegistrations",
        JSON.stringify({ ...ld, id: uid("ContextSourceRegistration") }),
        {
          "content-type": "application/ld+json",
          link: linkHeader(TEST_CONTEXT),
        },
      );
      expect(both.status).toBe(400);
      // 033_06: an @context in an application/json body.
      const misplaced = await local.call("POST", "/csourceRegistrations", {
        ...ld,
        id: uid("ContextSourceRegistration"),
      });
      expect(misplaced.status).toBe(400);
    } finally {
      await local.close();
    }
  });

  it("keeps the members of 5.2.9 and CSource properties; refuses exclusive and redirect modes with 422", async () => {
    const id = uid("ContextSourceRegistration");
    const full = {
      ...vehicleRegistration(id),
      registrationName: "Vehicles of the depot",
      description: "A second broker",
      tenant: "depot",
      location: { type: "Point", coordinates: [-8.521, 41.2] },
      managementInterval: { startAt: "2020-08-01T22:07:00.000Z", endAt: "2099-08-01T21:07:00.000Z" },
      expiresAt: "2099-01-01T00:00:00.000Z",
      contextSourceInfo: [{ key: "Authorization", value: "none" }],
      mode: "auxiliary",
      operations: ["retrieveOps"],
      management: { timeout: 2000 },
      csourceProperty1: "aValue",
    };
    await register(full);
    expect((await call("GET", path(id))).body).toEqual(full);
    const sys = await call("GET", `${path(id)}?options=sysAttrs`);
    expect(sys.body.createdAt).toMatch(/^\d{4}-/);
    for (const mode of ["exclusive", "redirect"]) {
      const r = await call(
        "POST",
        "/csourceRegistrations",
        vehicleRegistration(uid("ContextSourceRegistration"), { mode }),
      );
      expect(r.status).toBe(422);
      expect(r.body.type).toBe(ERR("OperationNotSupported"));
      expect(r.body.detail).toContain(mode);
    }
  });
});

describe("TP/NGSI-LD/CSR/034-036 update, delete, retrieve", () => {
  it("034_01 PATCH replaces the members it names; 034_05 null removes expiresAt", async () => {
    const id = uid("ContextSourceRegistration");
    await register(vehicleRegistration(id, { expiresAt: "2099-01-01T00:00:00.000Z" }));
    const patched = await call("PATCH", path(id), { endpoint: "http://my.new.csource.org:1026" });
    expect(patched.status).toBe(204);
    expect((await call("GET", path(id))).body.endpoint).toBe("http://my.new.csource.org:1026");
    expect((await call("PATCH", path(id), { expiresAt: null })).status).toBe(204);
    const read = (await call("GET", path(id))).body;
    expect(read.expiresAt).toBeUndefined();
    expect(read.information).toEqual(vehicleRegistration(id).information);
  });

  it("034_02/034_03/034_04/034_06 the update's errors", async () => {
    const id = uid("ContextSourceRegistration");
    await register(vehicleRegistration(id));
    expect(
      (await call("PATCH", "/csourceRegistrations/invalidURI", { endpoint: "http://a.org" })).body.type,
    ).toBe(ERR("BadRequestData"));
    const otherType = await call("PATCH", path(id), { type: "building", endpoint: "http://a.org" });
    expect([otherType.status, otherType.body.type]).toEqual([400, ERR("BadRequestData")]);
    const noInformation = await call("PATCH", path(id), { information: null });
    expect([noInformation.status, noInformation.body.type]).toEqual([400, ERR("BadRequestData")]);
    const unknown = await call("PATCH", path(uid("ContextSourceRegistration")), { endpoint: "http://a.org" });
    expect([unknown.status, unknown.body.type]).toEqual([404, ERR("ResourceNotFound")]);
    const invalidJson = await call("PATCH", path(id), "{ not json");
    expect([invalidJson.status, invalidJson.body.type]).toEqual([400, ERR("InvalidRequest")]);
    expect((await call("PATCH", "/csourceRegistrations", { endpoint: "http://a.org" })).status).toBe(405);
    // Nothing of the refused updates was kept.
    expect((await call("GET", path(id))).body).toEqual({
      ...vehicleRegistration(id),
      mode: "inclusive",
      operations: ["federationOps"],
    });
  });

  it("035 DELETE answers 204 then 404; 036 GET of an unknown or invalid id is 404 or 400", async () => {
    const id = uid("ContextSourceRegistration");
    await register(vehicleRegistration(id));
    expect((await call("DELETE", path(id))).status).toBe(204);
    const again = await call("DELETE", path(id));
    expect([again.status, again.body.type]).toEqual([404, ERR("ResourceNotFound")]);
    expect((await call("GET", path(id))).status).toBe(404);
    expect((await call("GET", "/csourceRegistrations/invalidURI")).body.type).toBe(ERR("BadRequestData"));
  });

  it("keeps tenants apart", async () => {
    const id = uid("ContextSourceRegistration");
    await register(vehicleRegistration(id), { "NGSILD-Tenant": "csr-tenant" });
    expect((await call("GET", path(id), undefined, { "NGSILD-Tenant": "csr-tenant" })).status).toBe(200);
    expect((await call("GET", path(id))).status).toBe(404);
  });
});

describe("TP/NGSI-LD/CSR/037 query registrations", () => {
  const tenant = { "NGSILD-Tenant": "csr-query" };
  const ids = {
    vehicles: uid("ContextSourceRegistration"),
    located: uid("ContextSourceRegistration"),
    props: uid("ContextSourceRegistration"),
  };
  beforeAll(async () => {
    await register(vehicleRegistration(ids.vehicles), tenant);
    await register(
      {
        id: ids.located,
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Building" }] }],
        location: { type: "Point", coordinates: [-8.521, 41.2] },
        observationInterval: { startAt: "2020-08-01T22:07:00Z", endAt: "2021-08-01T21:07:00Z" },
        endpoint: "http://my.csource.org:1026",
        csourceProperty1: "aValue",
      },
      tenant,
    );
    await register(
      {
        id: ids.props,
        type: "ContextSourceRegistration",
        information: [{ propertyNames: ["name", "subCategory"] }],
        endpoint: "http://my.csource.org:1026",
      },
      tenant,
    );
  });
  const query = async (q: string) => {
    const r = await call("GET", `/csourceRegistrations?${q}`, undefined, tenant);
    expect(r.status, r.raw).toBe(200);
    return (r.body as Array<{ id: string }>).map((x) => x.id);
  };

  it("037_01/037_05/037_06 matches entity types, ids and patterns, and attribute names", async () => {
    // An item without entities (ids.props) covers any entity for its attributes (037_05_02).
    expect(await query("type=Vehicle")).toEqual([ids.vehicles, ids.props]);
    expect(await query("type=OffStreetParking&idPattern=.*downtown$")).toEqual([ids.vehicles, ids.props]);
    expect(await query("type=OffStreetParking&id=urn:ngsi-ld:OffStreetParking:47")).toEqual([
      ids.vehicles,
      ids.props,
    ]);
    expect(await query("type=OffStreetParking&id=urn:ngsi-ld:OffStreetParking:48")).toEqual([ids.props]);
    expect(await query("type=Vehicle&attrs=speed")).toEqual([ids.vehicles]);
    expect(await query("type=Vehicle&attrs=availableSpotNumber")).toEqual([]);
    // An item without attribute names (ids.located) covers every attribute of its entities.
    expect(await query("attrs=subCategory")).toEqual([ids.located, ids.props]);
    expect(await query("type=Vehicle&attrs=subCategory")).toEqual([ids.props]);
    expect(await query("type=Building")).toEqual([ids.located, ids.props]);
  });

  it("037_07 geo, 037_09 temporal and 037_10 q on CSource properties", async () => {
    expect(
      await query("type=Building&georel=near;maxDistance==2000&geometry=Point&coordinates=[-8.503,41.202]"),
    ).toEqual([ids.located]);
    expect(
      await query("type=Building&georel=near;maxDistance==10&geometry=Point&coordinates=[-8.503,41.202]"),
    ).toEqual([]);
    expect(await query("type=Building&timerel=before&timeAt=2021-01-01T00:00:00Z")).toEqual([ids.located]);
    expect(await query("type=Building&timerel=after&timeAt=2022-01-01T00:00:00Z")).toEqual([]);
    expect(await query('q=csourceProperty1=="aValue"')).toEqual([ids.located]);
  });

  it("037_02/037_03 a query without any condition, or with an invalid one, is 400 (local=true lists all)", async () => {
    for (const q of [
      "",
      "id=invalidUri",
      "q=(invalidQuery",
      "georel=within",
      "timerel=before",
      "type=Vehicle&limit=2000",
    ]) {
      const r = await call("GET", `/csourceRegistrations?${q}`, undefined, tenant);
      expect([400, 403], q).toContain(r.status);
    }
    expect(await query("local=true")).toEqual([ids.vehicles, ids.located, ids.props]);
  });

  it("037_11 pages with limit and offset, counts, and links the pages", async () => {
    const r = await call(
      "GET",
      "/csourceRegistrations?type=Building&limit=1&offset=1&count=true",
      undefined,
      tenant,
    );
    expect(r.body.map((x: { id: string }) => x.id)).toEqual([ids.props]);
    expect(r.headers["ngsild-results-count"]).toBe("2");
    expect(r.headers.link).toEqual(
      expect.arrayContaining([
        '</ngsi-ld/v1/csourceRegistrations?type=Building&limit=1&offset=0&count=true>; rel="prev"; type="application/ld+json"',
      ]),
    );
  });

  it("an unknown tenant is 404 NonexistentTenant", async () => {
    const r = await call("GET", "/csourceRegistrations?type=Vehicle", undefined, {
      "NGSILD-Tenant": "never-written",
    });
    expect(r.body.type).toBe(ERR("NonexistentTenant"));
  });
});

describe("TP/NGSI-LD/CSRSub/038-047 registration subscriptions and their notifications", () => {
  const tenant = { "NGSILD-Tenant": "csr-subs" };
  const subscription = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    type: "Subscription",
    entities: [{ type: "Vehicle" }],
    notification: { endpoint: { uri: receiver.url, accept: "application/json" } },
    ...extra,
  });
  const of = (id: string) => receiver.received.filter((r) => r.body?.subscriptionId === id);

  it("038-042 create, read, list, update and delete a registration subscription", async () => {
    const id = uid("Subscription");
    const created = await call("POST", "/csourceSubscriptions", subscription(id), tenant);
    expect(created.status, created.raw).toBe(201);
    expect(created.headers.location).toBe(`/ngsi-ld/v1/csourceSubscriptions/${id}`);
    const read = await call("GET", `/csourceSubscriptions/${id}`, undefined, tenant);
    expect(read.body).toMatchObject({
      id,
      type: "Subscription",
      entities: [{ type: "Vehicle" }],
      isActive: true,
      status: "active",
    });
    expect(
      (await call("GET", "/csourceSubscriptions", undefined, tenant)).body.map((s: { id: string }) => s.id),
    ).toContain(id);
    expect((await call("PATCH", `/csourceSubscriptions/${id}`, { isActive: false }, tenant)).status).toBe(
      204,
    );
    expect((await call("GET", `/csourceSubscriptions/${id}`, undefined, tenant)).body.status).toBe("paused");
    const bad = await call(
      "POST",
      "/csourceSubscriptions",
      { ...subscription(uid("Subscription")), type: "Other" },
      tenant,
    );
    expect(bad.body.type).toBe(ERR("BadRequestData"));
    expect((await call("POST", "/csourceSubscriptions", subscription(id), tenant)).status).toBe(409);
    expect((await call("DELETE", `/csourceSubscriptions/${id}`, undefined, tenant)).status).toBe(204);
    expect((await call("GET", `/csourceSubscriptions/${id}`, undefined, tenant)).status).toBe(404);
  });

  it("047 notifies newlyMatching, updated and noLongerMatching registrations, not others", async () => {
    const sub = uid("Subscription");
    expect(
      (
        await call(
          "POST",
          "/csourceSubscriptions",
          subscription(sub, { watchedAttributes: ["speed"] }),
          tenant,
        )
      ).status,
    ).toBe(201);
    const other = uid("ContextSourceRegistration");
    await register(
      {
        id: other,
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Building" }] }],
        endpoint: "http://b.org",
      },
      tenant,
    );
    const id = uid("ContextSourceRegistration");
    await register(vehicleRegistration(id), tenant);
    const created = await eventually(() => of(sub)[0]);
    expect(created.body).toMatchObject({
      type: "Notification",
      subscriptionId: sub,
      triggerReason: "newlyMatching",
    });
    expect(created.body.data).toEqual([
      { ...vehicleRegistration(id), mode: "inclusive", operations: ["federationOps"] },
    ]);
    expect(created.headers.link).toBe(linkHeader(CORE));
    expect(created.headers["ngsild-tenant"]).toBe("csr-subs");

    await call("PATCH", path(id), { endpoint: "http://elsewhere.org" }, tenant);
    const updated = await eventually(() => of(sub)[1]);
    expect(updated.body.triggerReason).toBe("updated");
    expect(updated.body.data[0].endpoint).toBe("http://elsewhere.org");

    await call("DELETE", path(id), undefined, tenant);
    const deleted = await eventually(() => of(sub)[2]);
    expect(deleted.body.triggerReason).toBe("noLongerMatching");
    expect(of(sub).every((n) => n.body.data[0].id === id)).toBe(true);
    const status = (await call("GET", `/csourceSubscriptions/${sub}`, undefined, tenant)).body.notification;
    expect(status).toMatchObject({ status: "ok", timesSent: 3 });
  });
});
