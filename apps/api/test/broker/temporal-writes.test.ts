import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { ERR, linkHeader, startBroker, uid, type ngsi } from "./ngsi.ts";

/**
 * Temporal representation writes of ETSI GS CIM 009 (v1.8 5.6.13 delete an attribute's
 * instances, 5.6.14 modify an attribute instance, 5.6.15 delete an attribute instance; binding
 * 6.20-6.21), named after the test purposes of the ETSI suite's TemporalEntityAttributes
 * (015 DeleteAttribute, 016 PartialUpdateAttributeInstance, 017 DeleteAttributeInstance). Written
 * from the spec's text; no suite code is copied. Runs on the storage TEST_STORAGE names.
 */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

const temporalPath = (id: string, rest = "") => `/temporal/entities/${encodeURIComponent(id)}${rest}`;
const at = (minute: number) => `2020-09-01T12:${String(minute).padStart(2, "0")}:00.000Z`;
const expectProblem = (r: { status: number; body: any; raw: string }, status: number, type: string) => {
  expect(r.status, r.raw).toBe(status);
  expect(r.body.type).toBe(ERR(type));
  expect(r.body.title).toEqual(expect.any(String));
};

/** A vehicle with speed (3 instances), fuelLevel (2 default, 1 of a dataset) as the suite's fixture has. */
async function vehicle() {
  const id = uid("Vehicle");
  const r = await call("POST", "/temporal/entities", {
    id,
    type: "Vehicle",
    speed: [
      { type: "Property", value: 120, observedAt: at(0) },
      { type: "Property", value: 80, observedAt: at(1) },
      { type: "Property", value: 100, observedAt: at(2) },
    ],
    fuelLevel: [
      { type: "Property", value: 67, observedAt: at(0) },
      { type: "Property", value: 53, observedAt: at(1) },
      { type: "Property", value: 20, observedAt: at(1), datasetId: "urn:ngsi-ld:Vehicle:fuel" },
    ],
  });
  expect(r.status, r.raw).toBe(201);
  return id;
}
const history = async (id: string, query = "") => {
  const r = await call("GET", temporalPath(id, query));
  expect(r.status, r.raw).toBe(200);
  return r.body;
};
const valuesOf = (instances: unknown) =>
  ([instances].flat().filter(Boolean) as Array<{ value: number }>).map((i) => i.value);

describe("TP/NGSI-LD/CI/Prov/TEA/015 delete an attribute from a temporal representation (5.6.13)", () => {
  it("015_01 without datasetId the default instances go; with datasetId that dataset's; deleteAll every one", async () => {
    const id = await vehicle();
    const r = await call("DELETE", temporalPath(id, "/attrs/fuelLevel"));
    expect(r.status, r.raw).toBe(204);
    expect(r.raw).toBe("");
    let body = await history(id);
    expect(valuesOf(body.fuelLevel)).toEqual([20]);
    expect(valuesOf(body.speed)).toEqual([120, 80, 100]);

    const other = await vehicle();
    expect(
      (
        await call(
          "DELETE",
          temporalPath(other, `/attrs/fuelLevel?datasetId=${encodeURIComponent("urn:ngsi-ld:Vehicle:fuel")}`),
        )
      ).status,
    ).toBe(204);
    body = await history(other);
    expect(valuesOf(body.fuelLevel)).toEqual([67, 53]);

    const third = await vehicle();
    expect((await call("DELETE", temporalPath(third, "/attrs/fuelLevel?deleteAll=true"))).status).toBe(204);
    body = await history(third);
    expect(body.fuelLevel).toBeUndefined();
    expect(valuesOf(body.speed)).toEqual([120, 80, 100]);
  });

  it("015_01 the attribute name is read with the request's @context", async () => {
    const id = await vehicle();
    const r = await call(
      "DELETE",
      temporalPath(id, `/attrs/${encodeURIComponent("https://uri.etsi.org/ngsi-ld/default-context/speed")}`),
    );
    expect(r.status, r.raw).toBe(204);
    expect((await history(id)).speed).toBeUndefined();
  });

  it("015_02 an invalid entity id or attribute name is 400 BadRequestData", async () => {
    const id = await vehicle();
    expectProblem(await call("DELETE", "/temporal/entities/invalidId/attrs/speed"), 400, "BadRequestData");
    expectProblem(
      await call("DELETE", temporalPath(id, `/attrs/${encodeURIComponent("invalid(Name")}`)),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("DELETE", temporalPath(id, "/attrs/speed?deleteAll=maybe")),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("DELETE", temporalPath(id, "/attrs/speed?datasetId=notaURI")),
      400,
      "BadRequestData",
    );
  });

  it("015_03 an unknown entity or an attribute it does not have is 404 ResourceNotFound", async () => {
    const id = await vehicle();
    expectProblem(
      await call("DELETE", temporalPath(uid("Vehicle"), "/attrs/fuelLevel")),
      404,
      "ResourceNotFound",
    );
    expectProblem(
      await call("DELETE", temporalPath(id, "/attrs/notExistingAttribute")),
      404,
      "ResourceNotFound",
    );
    expectProblem(
      await call(
        "DELETE",
        temporalPath(id, `/attrs/speed?datasetId=${encodeURIComponent("urn:ngsi-ld:none")}`),
      ),
      404,
      "ResourceNotFound",
    );
    expect(
      r404Type((await call("DELETE", temporalPath(id, "/attrs/notExistingAttribute"))).headers),
    ).toContain("json");
  });
});
const r404Type = (headers: Record<string, unknown>) => String(headers["content-type"]);

describe("TP/NGSI-LD/CI/Prov/TEA/016 modify an attribute instance (5.6.14)", () => {
  it("016_01 the instance takes the fragment's value and observedAt and keeps its instanceId", async () => {
    const id = await vehicle();
    const before = (await history(id)).speed;
    const first = before[0].instanceId as string;
    expect(first).toMatch(/^urn:ngsi-ld:attribute:instance:/);
    const r = await call("PATCH", temporalPath(id, `/attrs/speed/${encodeURIComponent(first)}`), {
      type: "Property",
      value: 129,
      observedAt: at(3),
    });
    expect(r.status, r.raw).toBe(204);
    expect(r.raw).toBe("");
    const after = (await history(id, "?options=sysAttrs")).speed;
    // Sorted by observedAt: the corrected instance now comes last, under the same instanceId.
    expect(after.map((i: { value: number }) => i.value)).toEqual([80, 100, 129]);
    const changed = after.find((i: { instanceId: string }) => i.instanceId === first);
    expect(changed).toMatchObject({ type: "Property", value: 129, observedAt: at(3) });
    expect(Date.parse(changed.modifiedAt)).toBeGreaterThan(Date.parse(changed.createdAt) - 1);
    expect(after.map((i: { instanceId: string }) => i.instanceId).sort()).toEqual(
      before.map((i: { instanceId: string }) => i.instanceId).sort(),
    );
  });

  it("016_01 a fragment keeps what it does not name; the wrapped form and unitCode work", async () => {
    const id = await vehicle();
    const [, second] = (await history(id)).speed;
    const path = temporalPath(id, `/attrs/speed/${encodeURIComponent(second.instanceId)}`);
    expect((await call("PATCH", path, { value: 81 })).status).toBe(204);
    expect((await call("PATCH", path, { speed: [{ unitCode: "KMH" }] })).status).toBe(204);
    const after = (await history(id)).speed;
    expect(after[1]).toMatchObject({
      value: 81,
      unitCode: "KMH",
      observedAt: at(1),
      instanceId: second.instanceId,
    });
  });

  it("016_01 works through a Link header @context and on application/ld+json", async () => {
    const id = await vehicle();
    const first = (await history(id)).speed[0].instanceId as string;
    const r = await call(
      "PATCH",
      temporalPath(id, `/attrs/speed/${encodeURIComponent(first)}`),
      { "@context": "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld", value: 7 },
      { "content-type": "application/ld+json" },
    );
    expect(r.status, r.raw).toBe(204);
    expect(valuesOf((await history(id)).speed)[0]).toBe(7);
  });

  it("016_02 invalid entity id, instance id or attribute name is 400; unknown ones 404", async () => {
    const id = await vehicle();
    const first = (await history(id)).speed[0].instanceId as string;
    const fragment = { type: "Property", value: 129, observedAt: at(3) };
    const instance = encodeURIComponent(first);
    expectProblem(
      await call("PATCH", `/temporal/entities/invalidId/attrs/speed/${instance}`, fragment),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("PATCH", temporalPath(id, "/attrs/speed/invalidId"), fragment),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call(
        "PATCH",
        temporalPath(id, `/attrs/${encodeURIComponent("invalid(Id")}/${instance}`),
        fragment,
      ),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("PATCH", temporalPath(id, `/attrs/speed/${instance}`), {}),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("PATCH", temporalPath(id, `/attrs/speed/${instance}`), {
        value: 1,
        observedAt: "yesterday",
      }),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("PATCH", temporalPath(id, `/attrs/speed/${instance}`), [fragment]),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("PATCH", temporalPath(uid("Vehicle"), `/attrs/speed/${instance}`), fragment),
      404,
      "ResourceNotFound",
    );
    expectProblem(
      await call("PATCH", temporalPath(id, `/attrs/fuelLevel/${instance}`), fragment),
      404,
      "ResourceNotFound",
    );
    expectProblem(
      await call("PATCH", temporalPath(id, "/attrs/speed/urn:ngsi-ld:attribute:instance:unknown"), fragment),
      404,
      "ResourceNotFound",
    );
    // Nothing changed.
    expect(valuesOf((await history(id)).speed)).toEqual([120, 80, 100]);
  });
});

describe("TP/NGSI-LD/CI/Prov/TEA/017 delete an attribute instance (5.6.15)", () => {
  it("017_01 the instance goes, the others stay", async () => {
    const id = await vehicle();
    const before = (await history(id)).speed;
    const r = await call(
      "DELETE",
      temporalPath(id, `/attrs/speed/${encodeURIComponent(before[1].instanceId)}`),
    );
    expect(r.status, r.raw).toBe(204);
    const after = (await history(id)).speed;
    expect(valuesOf(after)).toEqual([120, 100]);
    expect(after.map((i: { instanceId: string }) => i.instanceId)).toEqual([
      before[0].instanceId,
      before[2].instanceId,
    ]);
    expectProblem(
      await call("DELETE", temporalPath(id, `/attrs/speed/${encodeURIComponent(before[1].instanceId)}`)),
      404,
      "ResourceNotFound",
    );
  });

  it("017_02 invalid ids are 400, 017_03 unknown ones 404", async () => {
    const id = await vehicle();
    const first = encodeURIComponent((await history(id)).speed[0].instanceId);
    expectProblem(
      await call("DELETE", `/temporal/entities/invalidId/attrs/speed/${first}`),
      400,
      "BadRequestData",
    );
    expectProblem(await call("DELETE", temporalPath(id, "/attrs/speed/invalidId")), 400, "BadRequestData");
    expectProblem(
      await call("DELETE", temporalPath(id, `/attrs/${encodeURIComponent("invalid(Name")}/${first}`)),
      400,
      "BadRequestData",
    );
    expectProblem(
      await call("DELETE", temporalPath(uid("Vehicle"), `/attrs/speed/${first}`)),
      404,
      "ResourceNotFound",
    );
    expectProblem(
      await call("DELETE", temporalPath(id, `/attrs/fuelLevel/${first}`)),
      404,
      "ResourceNotFound",
    );
    expect(valuesOf((await history(id)).speed)).toEqual([120, 80, 100]);
  });

  it("writes are per tenant: another tenant's instance is not found", async () => {
    const id = await vehicle();
    const first = encodeURIComponent((await history(id)).speed[0].instanceId);
    await call(
      "POST",
      "/temporal/entities",
      { id, type: "Vehicle", speed: { type: "Property", value: 1, observedAt: at(9) } },
      { "NGSILD-Tenant": "other" },
    );
    expectProblem(
      await call("DELETE", temporalPath(id, `/attrs/speed/${first}`), undefined, {
        "NGSILD-Tenant": "other",
      }),
      404,
      "ResourceNotFound",
    );
    expect(valuesOf((await history(id)).speed)).toEqual([120, 80, 100]);
  });
});

describe("temporal writes of many instances per request", () => {
  it("an array of 5,000 instances is written in one request and read back in order", async () => {
    const id = uid("Meter");
    const instances = Array.from({ length: 5000 }, (_, i) => ({
      type: "Property",
      value: i,
      observedAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    }));
    const created = await call("POST", "/temporal/entities", {
      id,
      type: "Meter",
      power: instances.slice(0, 2500),
    });
    expect(created.status, created.raw).toBe(201);
    const added = await call("POST", temporalPath(id, "/attrs"), { power: instances.slice(2500) });
    expect(added.status, added.raw).toBe(204);
    const r = await call("GET", temporalPath(id, "?lastN=3"), undefined, {
      link: linkHeader("https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld"),
    });
    expect(valuesOf(r.body.power)).toEqual([4997, 4998, 4999]);
  });
});

describe("dates no calendar holds (year 0000, 30 February): 400 BadRequestData, never a 500", () => {
  const impossible = [
    "0000-01-01T00:00:00Z",
    "0000-06-15T12:00:00.000Z",
    "0001-01-01T00:00:00+14:00",
    "2021-02-29T12:00:00Z",
    "2020-02-30T00:00:00Z",
    "2020-04-31T00:00:00Z",
    "2020-13-01T00:00:00Z",
    "2020-01-01T24:00:00Z",
    "2020-01-01T23:60:00Z",
  ];

  it("in a temporal append (observedAt of an instance)", async () => {
    const id = await vehicle();
    for (const date of impossible) {
      const r = await call("POST", temporalPath(id, "/attrs"), {
        speed: [{ type: "Property", value: 1, observedAt: date }],
      });
      expectProblem(r, 400, "BadRequestData");
      expect(r.body.detail ?? r.body.title).toContain("observedAt");
    }
    expect(valuesOf((await history(id)).speed)).toEqual([120, 80, 100]);
  });

  it("in an attribute PATCH (observedAt)", async () => {
    const id = uid("Vehicle");
    const made = await call("POST", "/entities", {
      id,
      type: "Vehicle",
      speed: { type: "Property", value: 5 },
    });
    expect(made.status, made.raw).toBe(201);
    for (const date of impossible) {
      const r = await call("PATCH", `/entities/${encodeURIComponent(id)}/attrs/speed`, {
        type: "Property",
        value: 6,
        observedAt: date,
      });
      expectProblem(r, 400, "BadRequestData");
    }
    const entity = await call("GET", `/entities/${encodeURIComponent(id)}`);
    expect(entity.body.speed.value).toBe(5);
  });

  it("in timeAt and endTimeAt of a temporal query", async () => {
    const id = await vehicle();
    for (const date of impossible) {
      const q = encodeURIComponent(date);
      for (const path of [
        temporalPath(id, `?timerel=after&timeAt=${q}`),
        `/temporal/entities?type=Vehicle&timerel=before&timeAt=${q}`,
        `/temporal/entities?type=Vehicle&timerel=between&timeAt=${encodeURIComponent(at(0))}&endTimeAt=${q}`,
      ]) {
        const r = await call("GET", path);
        expectProblem(r, 400, "BadRequestData");
      }
    }
  });
});
