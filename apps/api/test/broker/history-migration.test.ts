import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/storage/migrations.ts";
import { rowsOf } from "../../src/storage/database.ts";
import type { TestApp } from "../support/harness.ts";
import { startBroker, type ngsi } from "./ngsi.ts";

/**
 * Migration broker_0010 moves the history from one row per attribute instance
 * (broker_attribute_instances) to one row per entity write (broker_history_writes): every instance
 * keeps its instanceId, its content and the times the old columns held, also where those are not
 * the ones the instance itself gives (an instance PATCHed without observedAt kept its observation
 * time; the first history of entities, migration 0003, took missing times from the entity row).
 * The rows below are written as the old code wrote them, with hostile ids.
 */
let t: TestApp;
let call: ReturnType<typeof ngsi>;
beforeAll(async () => ({ t, call } = await startBroker()));
afterAll(() => t.close());

const V = "https://uri.etsi.org/ngsi-ld/default-context/";
const hostileId = "urn:ngsi-ld:Room:.*+?()$[x]'%25&";
const other = "urn:ngsi-ld:Room:plain";
const path = (id: string, rest = "") => `/temporal/entities/${encodeURIComponent(id)}${rest}`;
const minute = (m: number) => `2024-03-01T10:${String(m).padStart(2, "0")}:00.000Z`;

interface OldRow {
  entity: string;
  attribute: string;
  dataset?: string;
  instanceId: string;
  observed: string;
  created: string;
  modified: string;
  value: Record<string, unknown>;
}

const temperature = (value: number, m: number, extra: Record<string, unknown> = {}) => ({
  type: "Property",
  value,
  observedAt: minute(m),
  createdAt: minute(m),
  modifiedAt: minute(m),
  ...extra,
});

const oldRows: OldRow[] = [
  // Two instances of one write (same modification time), then a later one.
  ...[1, 2].map((m) => ({
    entity: hostileId,
    attribute: `${V}temperature`,
    instanceId: `urn:ngsi-ld:attribute:instance:(.*)-${m}`,
    observed: minute(m),
    created: minute(2),
    modified: minute(2),
    value: temperature(20 + m, m, { createdAt: minute(2), modifiedAt: minute(2) }),
  })),
  {
    entity: hostileId,
    attribute: `${V}temperature`,
    instanceId: "urn:ngsi-ld:attribute:instance:three",
    observed: minute(3),
    created: minute(3),
    modified: minute(3),
    value: temperature(23, 3),
  },
  // PATCHed by the old code without observedAt: its observation time stayed at minute 4.
  {
    entity: hostileId,
    attribute: `${V}temperature`,
    instanceId: "urn:ngsi-ld:attribute:instance:patched",
    observed: minute(4),
    created: minute(4),
    modified: minute(30),
    value: { type: "Property", value: 24, createdAt: minute(4), modifiedAt: minute(30) },
  },
  // Written by migration 0003 from an entity row: the instance held no times of its own.
  {
    entity: hostileId,
    attribute: `${V}humidity`,
    instanceId: "urn:ngsi-ld:attribute:instance:bare",
    observed: minute(5),
    created: minute(0),
    modified: minute(5),
    value: { type: "Property", value: 50 },
  },
  {
    entity: hostileId,
    attribute: `${V}temperature`,
    dataset: "urn:ngsi-ld:Dataset:b",
    instanceId: "urn:ngsi-ld:attribute:instance:dataset",
    observed: minute(6),
    created: minute(6),
    modified: minute(6),
    value: temperature(26, 6, { datasetId: "urn:ngsi-ld:Dataset:b" }),
  },
  {
    entity: other,
    attribute: `${V}temperature`,
    instanceId: "urn:ngsi-ld:attribute:instance:other",
    observed: minute(7),
    created: minute(7),
    modified: minute(7),
    value: temperature(27, 7),
  },
];

/** The database as it was before broker_0010, holding oldRows. */
async function beforeMigration() {
  const db = t.storage.db;
  await db.execute(sql`DROP TABLE broker_history_writes`);
  await db.execute(sql`DELETE FROM orrery_migrations WHERE name = 'broker_0010_history_writes'`);
  await db.execute(sql`CREATE TABLE broker_attribute_instances (
    tenant text NOT NULL, entity_id text NOT NULL, attribute text NOT NULL,
    dataset_id text NOT NULL DEFAULT '', instance_id text NOT NULL, observed_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL, modified_at timestamptz NOT NULL, value jsonb NOT NULL)`);
  await db.execute(sql`CREATE INDEX broker_attribute_instances_entity
    ON broker_attribute_instances (tenant, entity_id, attribute, observed_at)`);
  for (const id of [hostileId, other])
    await db.execute(sql`INSERT INTO broker_temporal_entities (tenant, id, types, created_at)
      VALUES ('', ${id}, ${`{"${V}Room"}`}::text[], ${minute(0)}::timestamptz)`);
  for (const r of oldRows)
    await db.execute(sql`INSERT INTO broker_attribute_instances
      (tenant, entity_id, attribute, dataset_id, instance_id, observed_at, created_at, modified_at, value)
      VALUES ('', ${r.entity}, ${r.attribute}, ${r.dataset ?? ""}, ${r.instanceId}, ${r.observed}::timestamptz,
              ${r.created}::timestamptz, ${r.modified}::timestamptz, ${JSON.stringify(r.value)}::jsonb)`);
}

const idsOf = (instances: unknown) =>
  ([instances].flat().filter(Boolean) as Array<{ instanceId: string }>).map((i) => i.instanceId);

describe("migration broker_0010: the history as one row per entity write", () => {
  beforeAll(async () => {
    await beforeMigration();
    await migrate(t.storage.db);
  });

  it("keeps every instance with its instanceId and content, in observation order", async () => {
    const r = await call("GET", path(hostileId, "?options=sysAttrs"));
    expect(r.status, r.raw).toBe(200);
    expect(r.body.id).toBe(hostileId);
    expect(
      r.body.temperature.map((i: { instanceId: string; value: number }) => [i.instanceId, i.value]),
    ).toEqual([
      ["urn:ngsi-ld:attribute:instance:(.*)-1", 21],
      ["urn:ngsi-ld:attribute:instance:(.*)-2", 22],
      ["urn:ngsi-ld:attribute:instance:three", 23],
      ["urn:ngsi-ld:attribute:instance:patched", 24],
      ["urn:ngsi-ld:attribute:instance:dataset", 26],
    ]);
    expect(r.body.temperature[4].datasetId).toBe("urn:ngsi-ld:Dataset:b");
    expect(r.body.temperature[3].modifiedAt).toBe(minute(30));
    expect(idsOf(r.body.humidity)).toEqual(["urn:ngsi-ld:attribute:instance:bare"]);
    expect(idsOf((await call("GET", path(other))).body.temperature)).toEqual([
      "urn:ngsi-ld:attribute:instance:other",
    ]);
    // One row per entity and modification time: the first two instances were one write.
    const [{ n }] = rowsOf<{ n: number }>(
      await t.storage.db.execute(sql`SELECT count(*)::int AS n FROM broker_history_writes`),
    );
    expect(n).toBe(6);
    const old = await t.storage.db.execute(sql`SELECT to_regclass('broker_attribute_instances') AS r`);
    expect(rowsOf<{ r: string | null }>(old)[0]!.r).toBeNull();
  });

  it("keeps the times the old columns held, where the instance itself says otherwise", async () => {
    // The PATCHed instance is still observed at minute 4 (its content has no observedAt).
    const observed = await call(
      "GET",
      path(hostileId, `?attrs=temperature&timerel=between&timeAt=${minute(4)}&endTimeAt=${minute(5)}`),
    );
    expect(idsOf(observed.body.temperature)).toEqual(["urn:ngsi-ld:attribute:instance:patched"]);
    const values = await call("GET", path(hostileId, "?attrs=humidity&options=temporalValues"));
    expect(values.body.humidity.values).toEqual([[50, minute(5)]]);
    // The bare instance was created with the entity (minute 0), as the old created_at said.
    const created = await call(
      "GET",
      path(hostileId, `?attrs=humidity&timeproperty=createdAt&timerel=before&timeAt=${minute(1)}`),
    );
    expect(idsOf(created.body.humidity)).toEqual(["urn:ngsi-ld:attribute:instance:bare"]);
    const modified = await call(
      "GET",
      path(hostileId, `?timeproperty=modifiedAt&timerel=after&timeAt=${minute(10)}`),
    );
    expect(idsOf(modified.body.temperature)).toEqual(["urn:ngsi-ld:attribute:instance:patched"]);
    expect(modified.body.humidity).toBeUndefined();
    const listed = await call(
      "GET",
      `/temporal/entities?type=Room&timerel=between&timeAt=${minute(7)}&endTimeAt=${minute(8)}&count=true`,
    );
    expect(listed.status, listed.raw).toBe(200);
    expect(listed.headers["ngsild-results-count"]).toBe("1");
    expect(listed.body.map((e: { id: string }) => e.id)).toEqual([other]);
  });

  it("migrated instances can be modified and deleted by instanceId, and new writes add to them", async () => {
    // The instance without observedAt: a PATCH without one keeps its observation time (minute 4).
    const patched = "urn:ngsi-ld:attribute:instance:patched";
    const r = await call("PATCH", path(hostileId, `/attrs/temperature/${encodeURIComponent(patched)}`), {
      value: 99,
    });
    expect(r.status, r.raw).toBe(204);
    const gone = await call(
      "DELETE",
      path(hostileId, `/attrs/temperature/${encodeURIComponent("urn:ngsi-ld:attribute:instance:three")}`),
    );
    expect(gone.status, gone.raw).toBe(204);
    const appended = await call("POST", path(hostileId, "/attrs"), {
      temperature: { type: "Property", value: 28, observedAt: minute(8) },
    });
    expect(appended.status, appended.raw).toBe(204);
    const after = (await call("GET", path(hostileId, "?attrs=temperature"))).body.temperature;
    expect(after.map((i: { value: number }) => i.value)).toEqual([21, 22, 99, 26, 28]);
    expect(after[2].instanceId).toBe(patched);
    const window = await call(
      "GET",
      path(hostileId, `?attrs=temperature&timerel=between&timeAt=${minute(4)}&endTimeAt=${minute(5)}`),
    );
    expect(idsOf(window.body.temperature)).toEqual([patched]);
    // Deleting the dataset's instances leaves the default ones.
    const dataset = await call(
      "DELETE",
      path(hostileId, `/attrs/temperature?datasetId=${encodeURIComponent("urn:ngsi-ld:Dataset:b")}`),
    );
    expect(dataset.status, dataset.raw).toBe(204);
    const left = (await call("GET", path(hostileId, "?attrs=temperature"))).body.temperature;
    expect(left.map((i: { value: number }) => i.value)).toEqual([21, 22, 99, 28]);
  });
});
