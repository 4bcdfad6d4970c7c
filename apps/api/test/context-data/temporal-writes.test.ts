import { describe, expect, it } from "vitest";
import { driver } from "../support/harness.ts";
import { useEmbeddedWorkspace } from "../support/embedded-workspace.ts";

const ctx = useEmbeddedWorkspace();

/** A workspace with a Building whose temperature (a temporal Number property) has no history yet but its creation. */
async function building() {
  const ws = await ctx.another();
  const id = "urn:ngsi-ld:Building:corrected";
  const created = await ctx.api("POST", `${ws.path}/entities`, {
    id,
    type: "Building",
    name: { type: "Property", value: "B" },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const property = ws.properties["Building.temperature"]!;
  const prefix = `${ws.path}/temporal-entities/${encodeURIComponent(id)}/properties/${property}`;
  const history = async () => {
    const res = await ctx.api("GET", `${prefix}/temporal-services/${ws.temporalServiceId}?fromTime=0`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as Array<Record<string, unknown>>).sort((a, b) =>
      String(a.observedAt).localeCompare(String(b.observedAt)),
    );
  };
  return { ws, id, instances: `${prefix}/instances`, history };
}

describe(`writing an attribute's history through the API (${driver})`, () => {
  it("adds a value, corrects its value, time and unit (same instanceId), and deletes it", async () => {
    const { instances, history } = await building();
    const added = await ctx.api("POST", instances, {
      time: "2024-05-01T10:00:00Z",
      value: "21,5",
      unit: "CEL",
    });
    expect(added.status, JSON.stringify(added.body)).toBe(204);
    expect((await ctx.api("POST", instances, { time: "2024-05-01 11:00", value: "22" })).status).toBe(204);
    let values = await history();
    expect(values.map((v) => [v.value, v.observedAt, v.unitCode])).toEqual([
      [21.5, "2024-05-01T10:00:00.000Z", "CEL"],
      // Without a zone the time is UTC, as the view shows it.
      [22, "2024-05-01T11:00:00.000Z", undefined],
    ]);
    const first = values[0]!.instanceId as string;
    const corrected = await ctx.api("PATCH", `${instances}/${encodeURIComponent(first)}`, {
      value: "20",
      time: "2024-05-01T12:00:00Z",
    });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(204);
    values = await history();
    expect(values.map((v) => [v.value, v.observedAt, v.unitCode])).toEqual([
      [22, "2024-05-01T11:00:00.000Z", undefined],
      [20, "2024-05-01T12:00:00.000Z", "CEL"],
    ]);
    expect(values[1]!.instanceId).toBe(first);
    expect((await ctx.api("DELETE", `${instances}/${encodeURIComponent(first)}`)).status).toBe(204);
    expect((await history()).map((v) => v.value)).toEqual([22]);
    const gone = await ctx.api("DELETE", `${instances}/${encodeURIComponent(first)}`);
    expect(gone.status).toBe(404);
    expect(gone.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("refuses a bad value or time with the field named, in English and French", async () => {
    const { instances, history } = await building();
    const bad = await ctx.api("POST", instances, { time: "2024-05-01T10:00:00Z", value: "warm" });
    expect(bad.status).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(bad.body.errors[0]).toMatchObject({ path: "value", code: "row.notNumber" });
    const noTime = await ctx.api("POST", instances, { value: "1" }, { "accept-language": "fr" });
    expect(noTime.status).toBe(400);
    expect(noTime.body.errors[0]).toMatchObject({ path: "time", code: "row.noTime" });
    expect(JSON.stringify(noTime.body)).toContain("l’heure est manquante");
    const badTime = await ctx.api("POST", instances, { time: "yesterday", value: "1" });
    expect(badTime.body.errors[0]).toMatchObject({ path: "time", code: "row.observedAt" });
    expect((await ctx.api("PATCH", `${instances}/urn:ngsi-ld:attribute:instance:x`, {})).status).toBe(400);
    // An instance id is escaped on its way: an unknown one is the broker's 404, one that is no URI its 400.
    const unknown = await ctx.api("PATCH", `${instances}/${encodeURIComponent("urn:x:.*+?(")}`, {
      value: "1",
    });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    const notUri = await ctx.api("DELETE", `${instances}/${encodeURIComponent("urn:x:.*+?(|\\")}`);
    expect(notUri.status, JSON.stringify(notUri.body)).toBe(400);
    expect(await history()).toEqual([]);
  });

  it("imports history from CSV (time, value, unit) with a per-row report; a dry run writes nothing", async () => {
    const { instances, history } = await building();
    const csv = [
      "\ufeffTime,Value,Unit",
      "2024-05-01T10:00:00Z,20,CEL",
      '2024-05-01T10:10:00Z,"20,5",',
      "not a time,21,CEL",
      "2024-05-01T10:30:00Z,,CEL",
      "2024-05-01T10:40:00+02:00,22,CEL",
      "",
    ].join("\r\n");
    const send = (query = "") =>
      ctx.api("POST", `${instances}/import${query}`, csv, { "content-type": "text/csv" });
    const dry = await send("?dryRun=true");
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ total: 5, created: 3, updated: 0 });
    expect(dry.body.rejected).toEqual([
      { row: 4, reason: 'the observedAt "not a time" is not an ISO 8601 date-time' },
      { row: 5, reason: "the value is missing" },
    ]);
    expect(await history()).toEqual([]);
    const real = await send();
    expect(real.body).toMatchObject({ total: 5, created: 3, rejected: [{ row: 4 }, { row: 5 }] });
    expect((await history()).map((v) => [v.value, v.observedAt, v.unitCode])).toEqual([
      [22, "2024-05-01T08:40:00.000Z", "CEL"],
      [20, "2024-05-01T10:00:00.000Z", "CEL"],
      [20.5, "2024-05-01T10:10:00.000Z", undefined],
    ]);
    const empty = await ctx.api("POST", `${instances}/import`, "time,value\n", {
      "content-type": "text/csv",
    });
    expect(empty.status).toBe(400);
  });

  it("imports 2,500 rows in chunks of temporal writes", async () => {
    const { instances, history } = await building();
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      time: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      value: String(i),
    }));
    const res = await ctx.api("POST", `${instances}/import`, rows);
    expect(res.body).toMatchObject({ total: 2500, created: 2500, rejected: [] });
    expect((await history()).length).toBeGreaterThanOrEqual(1000);
  });
});
