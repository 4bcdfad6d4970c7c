import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { ERR, startBroker, uid, type ngsi } from "./ngsi.ts";
import { startPluginBroker } from "./receiver.ts";

/**
 * Conformance tests for the temporal API, named after the ETSI NGSI-LD test suite's test purposes
 * (TP/NGSI-LD/CI/Prov/TE temporal entity provision 5.6.11-5.6.16, TP/NGSI-LD/CI/Cons/TER 020
 * retrieve temporal entity 5.7.3, TP/NGSI-LD/CI/Cons/TEQ 021 query temporal entities 5.7.4).
 * Written from the spec; no suite code is copied.
 */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

const entityPath = (id: string, rest = "") => `/entities/${encodeURIComponent(id)}${rest}`;
const temporalPath = (id: string, query = "") => `/temporal/entities/${encodeURIComponent(id)}${query}`;
const at = (minute: number) => `2024-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
const temperature = (value: number, minute: number) => ({ type: "Property", value, observedAt: at(minute) });
const expectProblem = (r: { status: number; body: any; raw: string }, status: number, type: string) => {
  expect(r.status, r.raw).toBe(status);
  expect(r.body.type).toBe(ERR(type));
};

/** An entity whose temperature went through five changes made by five different operations. */
async function historyOfFive(type = "Room") {
  const id = uid(type);
  expect((await call("POST", "/entities", { id, type, temperature: temperature(20, 1) })).status).toBe(201);
  expect((await call("PATCH", entityPath(id, "/attrs"), { temperature: temperature(21, 2) })).status).toBe(
    204,
  );
  expect(
    (await call("PATCH", entityPath(id, "/attrs/temperature"), { value: 22, observedAt: at(3) })).status,
  ).toBe(204);
  const upsert = await call("POST", "/entityOperations/upsert?options=update", [
    { id, type, temperature: temperature(23, 4) },
  ]);
  expect(upsert.status, upsert.raw).toBe(204);
  expect(
    (await call("PATCH", entityPath(id), { temperature: { value: 24, observedAt: at(5) } })).status,
  ).toBe(204);
  return id;
}

describe("TP/NGSI-LD/CI/Cons/TER/020 retrieve temporal entity (5.7.3)", () => {
  it("020_01 every entity operation wrote an instance; they come sorted with instanceId", async () => {
    const id = await historyOfFive();
    const r = await call("GET", temporalPath(id));
    expect(r.status, r.raw).toBe(200);
    expect(r.body.id).toBe(id);
    expect(r.body.type).toBe("Room");
    const instances = r.body.temperature;
    expect(instances.map((i: { value: number }) => i.value)).toEqual([20, 21, 22, 23, 24]);
    expect(instances.map((i: { observedAt: string }) => i.observedAt)).toEqual([1, 2, 3, 4, 5].map(at));
    for (const i of instances) {
      expect(i.type).toBe("Property");
      expect(i.instanceId).toMatch(/^urn:ngsi-ld:attribute:instance:[0-9a-f-]{36}$/);
    }
    expect(new Set(instances.map((i: { instanceId: string }) => i.instanceId)).size).toBe(5);
  });

  it("020_02 timerel before/after/between, lastN and temporalValues", async () => {
    const id = await historyOfFive();
    const values = async (query: string) =>
      (await call("GET", temporalPath(id, query))).body.temperature?.map((i: { value: number }) => i.value);
    expect(await values(`?timerel=after&timeAt=${at(3)}`)).toEqual([23, 24]);
    expect(await values(`?timerel=before&timeAt=${at(3)}`)).toEqual([20, 21]);
    expect(await values(`?timerel=between&timeAt=${at(2)}&endTimeAt=${at(4)}`)).toEqual([21, 22]);
    expect(await values("?lastN=2")).toEqual([23, 24]);
    const simplified = await call("GET", temporalPath(id, "?options=temporalValues&lastN=2"));
    expect(simplified.body.temperature).toEqual({
      type: "Property",
      values: [
        [23, at(4)],
        [24, at(5)],
      ],
    });
  });

  it("020_03 timeproperty=modifiedAt uses the write time; an instance without observedAt is timed by it", async () => {
    const id = uid("Room");
    const before = new Date(Date.now() - 1000).toISOString();
    await call("POST", "/entities", { id, type: "Room", humidity: { type: "Property", value: 50 } });
    const r = await call("GET", temporalPath(id, `?timeproperty=modifiedAt&timerel=after&timeAt=${before}`));
    expect(r.body.humidity).toHaveLength(1);
    expect(r.body.humidity[0].value).toBe(50);
    const observed = await call("GET", temporalPath(id, `?timerel=after&timeAt=${before}`));
    expect(observed.body.humidity).toHaveLength(1);
  });

  it("020_04 sub-attributes, relationships and the request context are kept", async () => {
    const id = uid("Room");
    await call("POST", "/entities", {
      id,
      type: "Room",
      temperature: { ...temperature(19, 1), accuracy: { type: "Property", value: 0.5 } },
      inBuilding: { type: "Relationship", object: "urn:ngsi-ld:Building:b1" },
    });
    const r = await call("GET", temporalPath(id));
    expect(r.body.temperature[0].accuracy).toEqual({ type: "Property", value: 0.5 });
    expect(r.body.inBuilding[0].object).toBe("urn:ngsi-ld:Building:b1");
    const values = await call("GET", temporalPath(id, "?options=temporalValues&attrs=inBuilding"));
    expect(values.body.inBuilding.objects[0][0]).toBe("urn:ngsi-ld:Building:b1");
    expect(values.body.temperature).toBeUndefined();
  });

  it("020_05 unknown entity 404, bad parameters 400", async () => {
    expectProblem(await call("GET", temporalPath("urn:ngsi-ld:Room:none")), 404, "ResourceNotFound");
    const id = await historyOfFive();
    for (const query of [
      "?timerel=during&timeAt=2024-01-01T00:00:00Z",
      "?timerel=after",
      "?timerel=after&timeAt=yesterday",
      `?timerel=between&timeAt=${at(2)}`,
      `?timerel=between&timeAt=${at(4)}&endTimeAt=${at(2)}`,
      "?timeproperty=deletedAt",
      "?lastN=0",
      "?options=aggregatedValues",
      "?colour=red",
    ])
      expectProblem(await call("GET", temporalPath(id, query)), 400, "BadRequestData");
  });
});

describe("TP/NGSI-LD/CI/Cons/TEQ/021 query temporal entities (5.7.4)", () => {
  it("021_01 by type with paging and count; q on the current values; attrs", async () => {
    const type = `Probe${Date.now().toString(36)}`;
    const ids = [uid(type), uid(type), uid(type)].sort();
    for (const [n, id] of ids.entries()) {
      await call("POST", "/entities", { id, type, temperature: temperature(n, 1), status: "on" });
      await call("PATCH", entityPath(id, "/attrs"), { temperature: temperature(n + 10, 2) });
    }
    const all = await call("GET", `/temporal/entities?type=${type}&count=true`);
    expect(all.status, all.raw).toBe(200);
    expect(all.headers["ngsild-results-count"]).toBe("3");
    expect(all.body.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(all.body[1].temperature.map((i: { value: number }) => i.value)).toEqual([1, 11]);
    const page = await call("GET", `/temporal/entities?type=${type}&limit=1&offset=1`);
    expect(page.body.map((e: { id: string }) => e.id)).toEqual([ids[1]]);
    const q = await call("GET", `/temporal/entities?type=${type}&q=temperature%3E=11`);
    expect(q.body.map((e: { id: string }) => e.id)).toEqual(ids.slice(1));
    const attrs = await call("GET", `/temporal/entities?type=${type}&attrs=status&lastN=1`);
    expect(attrs.body[0].status).toHaveLength(1);
    expect(attrs.body[0].temperature).toBeUndefined();
    const window = await call("GET", `/temporal/entities?type=${type}&timerel=after&timeAt=${at(1)}`);
    expect(window.body[0].temperature.map((i: { value: number }) => i.value)).toEqual([10]);
  });

  it("021_02 needs a selection; tenants are separate; an unknown tenant is 404", async () => {
    expectProblem(await call("GET", "/temporal/entities"), 400, "BadRequestData");
    expectProblem(await call("GET", "/temporal/entities?type=Room&limit=5000"), 403, "TooManyResults");
    const tenant = { "NGSILD-Tenant": `temporal${Date.now().toString(36)}` };
    const id = uid("Room");
    await call("POST", "/entities", { id, type: "Room", temperature: temperature(1, 1) }, tenant);
    expect((await call("GET", temporalPath(id), undefined, tenant)).status).toBe(200);
    expect((await call("GET", temporalPath(id))).status).toBe(404);
    expectProblem(
      await call("GET", "/temporal/entities?type=Room", undefined, { "NGSILD-Tenant": "no-such-tenant" }),
      404,
      "NonexistentTenant",
    );
  });
});

describe("TP/NGSI-LD/CI/Prov/TE temporal entity provision (5.6.11-5.6.16)", () => {
  it("TE/001 POST /temporal/entities creates (201, Location) then adds instances (204)", async () => {
    const id = uid("Station");
    const body = {
      id,
      type: "Station",
      temperature: [temperature(5, 1), temperature(6, 2)],
      name: { type: "Property", value: "North" },
    };
    const created = await call("POST", "/temporal/entities", body);
    expect(created.status, created.raw).toBe(201);
    expect(created.headers.location).toBe(`/ngsi-ld/v1/temporal/entities/${id}`);
    const again = await call("POST", "/temporal/entities", {
      id,
      type: "Station",
      temperature: temperature(7, 3),
    });
    expect(again.status, again.raw).toBe(204);
    const r = await call("GET", temporalPath(id));
    expect(r.body.temperature.map((i: { value: number }) => i.value)).toEqual([5, 6, 7]);
    expect(r.body.name).toHaveLength(1);
    // The temporal API writes history only: the current entity is not created.
    expect((await call("GET", entityPath(id))).status).toBe(404);
  });

  it("TE/002 POST /temporal/entities/{id}/attrs appends instances; 404 for an unknown entity", async () => {
    const id = uid("Station");
    await call("POST", "/temporal/entities", { id, type: "Station", temperature: temperature(1, 1) });
    const r = await call("POST", temporalPath(id, "/attrs"), {
      temperature: [temperature(2, 2), temperature(3, 3)],
    });
    expect(r.status, r.raw).toBe(204);
    const back = await call("GET", temporalPath(id));
    expect(back.body.temperature.map((i: { value: number }) => i.value)).toEqual([1, 2, 3]);
    expectProblem(
      await call("POST", "/temporal/entities/urn:ngsi-ld:Station:none/attrs", {
        temperature: temperature(1, 1),
      }),
      404,
      "ResourceNotFound",
    );
  });

  it("TE/003 invalid temporal entities are 400", async () => {
    for (const body of [
      { type: "Station", temperature: temperature(1, 1) },
      { id: "urn:ngsi-ld:Station:x" },
      { id: "urn:ngsi-ld:Station:x", type: "Station", temperature: { type: "Property" } },
      {
        id: "urn:ngsi-ld:Station:x",
        type: "Station",
        temperature: { type: "Property", value: 1, observedAt: "noon" },
      },
      [1, 2],
    ])
      expectProblem(await call("POST", "/temporal/entities", body), 400, "BadRequestData");
  });

  it("TE/004 deleting the entity keeps its history; DELETE /temporal/entities/{id} removes it", async () => {
    const id = await historyOfFive();
    expect((await call("DELETE", entityPath(id))).status).toBe(204);
    const kept = await call("GET", temporalPath(id));
    expect(kept.status).toBe(200);
    expect(kept.body.temperature).toHaveLength(5);
    expect((await call("DELETE", temporalPath(id))).status).toBe(204);
    expectProblem(await call("GET", temporalPath(id)), 404, "ResourceNotFound");
    expectProblem(await call("DELETE", temporalPath(id)), 404, "ResourceNotFound");
  });

  it("TE/005 a failed change writes no history (same transaction)", async () => {
    const id = uid("Room");
    expectProblem(
      await call("PATCH", entityPath(id, "/attrs"), { temperature: temperature(1, 1) }),
      404,
      "ResourceNotFound",
    );
    expect((await call("GET", temporalPath(id))).status).toBe(404);
    // Appending nothing new (noOverwrite on an existing attribute) adds no instance.
    await call("POST", "/entities", { id, type: "Room", temperature: temperature(1, 1) });
    const r = await call("POST", entityPath(id, "/attrs?options=noOverwrite"), {
      temperature: temperature(2, 2),
    });
    expect(r.status).toBe(207);
    expect((await call("GET", temporalPath(id))).body.temperature).toHaveLength(1);
  });
});

describe("TP/NGSI-LD/CI/Cons/TER/020 temporal pagination (6.3.10)", () => {
  it("020_06 more instances than the cap: 206 with Content-Range, the oldest first", async () => {
    const small = await startPluginBroker({ temporalInstanceCap: 3, notifications: { enabled: false } });
    try {
      const id = uid("Room");
      await small.call("POST", "/temporal/entities", {
        id,
        type: "Room",
        temperature: [1, 2, 3, 4, 5].map((n) => temperature(n, n)),
      });
      const r = await small.call("GET", temporalPath(id));
      expect(r.status).toBe(206);
      expect(r.body.temperature.map((i: { value: number }) => i.value)).toEqual([1, 2, 3]);
      expect(r.headers["content-range"]).toBe(`date-time ${at(1)}-${at(3)}/*`);
      const last = await small.call("GET", temporalPath(id, "?lastN=2"));
      expect(last.status).toBe(200);
      expect(last.body.temperature.map((i: { value: number }) => i.value)).toEqual([4, 5]);
    } finally {
      await small.close();
    }
  });
});
