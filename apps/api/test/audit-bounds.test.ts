import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { rowsOf } from "../src/storage/database.ts";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

describe(`the audit trail's bounds (${driver})`, () => {
  it("answers a time range in year 0000 with 400 and a sentence, in English and in French", async () => {
    for (const bad of [
      "from=0000-01-01T00:00:00Z",
      "to=0000-06-15T12:00:00.000Z",
      // Year 1 in its zone, year 0000 in UTC.
      "from=0001-01-01T00:30:00%2B01:00",
    ]) {
      const res = await ctx.api("GET", `/api/audit?${bad}`);
      expect(res.status, `${bad}: ${res.raw}`).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(res.body)).toMatch(/year 0001/);
      const fr = await ctx.api("GET", `/api/audit?${bad}`, undefined, { "accept-language": "fr" });
      expect(fr.status).toBe(400);
      expect(JSON.stringify(fr.body)).toMatch(/l’an 0001/);
    }
    expect(
      (await ctx.api("GET", "/api/audit?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z")).status,
    ).toBe(200);
  });

  it("keeps a flood of refused writes to a few rows with their count, and cuts the ids and paths sent", async () => {
    const { t } = ctx;
    // An API of its own on the same database: its close writes the counts it holds.
    const config = loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: "silent" }, ["--no-demo"]);
    const second = await buildApp(config, t.storage);
    await second.app.ready();
    const token = await t.tokenFor("viewer");
    const refused = async () =>
      rowsOf<{ record_id: string; detail: Record<string, any> }>(
        await t.storage.db.execute(
          sql`SELECT record_id, detail FROM audit_events
               WHERE action = 'refused' AND detail->>'route' = 'DELETE /api/context-brokers/:id'
               ORDER BY id`,
        ),
      );
    expect(await refused()).toEqual([]);
    const long = `.*+?(|\\${"x".repeat(1_900)}`;
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++)
      statuses.push(
        ...(
          await Promise.all(
            Array.from({ length: 50 }, (_, i) =>
              second.app.inject({
                method: "DELETE",
                url: `/api/context-brokers/${encodeURIComponent(`${long}${batch * 50 + i}`)}`,
                headers: { authorization: `Bearer ${token}` },
              }),
            ),
          )
        ).map((r) => r.statusCode),
      );
    expect(new Set(statuses)).toEqual(new Set([403]));
    // The first is in the trail as it happens, cut to 256 characters.
    let rows = await refused();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.detail).toMatchObject({ method: "DELETE", count: 1 });
    expect(rows[0]!.detail.path.length).toBeLessThanOrEqual(256);
    expect(rows[0]!.record_id.length).toBeLessThanOrEqual(256);
    expect(rows[0]!.record_id.startsWith(".*+?(|\\xxx")).toBe(true);
    await second.app.close();
    // The others in one row with their count.
    rows = await refused();
    expect(rows).toHaveLength(2);
    expect(rows[1]!.detail.count).toBe(499);
    expect(JSON.stringify(rows).length).toBeLessThan(3_000);
  });
});
