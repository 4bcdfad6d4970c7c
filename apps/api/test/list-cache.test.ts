import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databaseQueries } from "../src/metrics/registry.ts";
import { ListCache } from "../src/resources/list-cache.ts";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

/** Statements sent to the database since the process started (GET /metrics counts them). */
const statements = async () => (await databaseQueries.get()).values.reduce((sum, v) => sum + v.value, 0);

const broker = (name: string) => ({
  name,
  scheme: "http",
  host: "broker.example",
  port: 1026,
  paginationMaxLimit: 1000,
  implementationName: "orion-ld",
  implementationVersion: "1.6",
});

describe(`lists asked by many at once (${driver})`, () => {
  it("fifty users opening the same list at once cost one read of the database, and all get it whole", async () => {
    const { api } = ctx;
    for (const name of ["Alpha", "Beta", "Gamma"])
      expect((await api("POST", "/api/context-brokers", broker(name))).status).toBe(201);
    const first = await api("GET", "/api/context-brokers");
    expect(first.status).toBe(200);

    const before = await statements();
    const answers = await Promise.all(Array.from({ length: 50 }, () => api("GET", "/api/context-brokers")));
    const spent = (await statements()) - before;
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(answer.body).toEqual(first.body);
    }
    // One read of the records' version for all of them (it was one for each).
    expect(spent).toBeLessThanOrEqual(2);

    // Right after a write, the list is read again once for all who ask at the same time.
    expect((await api("POST", "/api/context-brokers", broker("Delta"))).status).toBe(201);
    const again = await statements();
    const after = await Promise.all(Array.from({ length: 20 }, () => api("GET", "/api/context-brokers")));
    expect((await statements()) - again).toBeLessThanOrEqual(3);
    for (const answer of after)
      expect((answer.body as Array<{ name: string }>).map((b) => b.name)).toContain("Delta");
  });

  it("shows at once a change another process wrote, hostile bytes and all", async () => {
    const { api, t } = ctx;
    const created = await api("POST", "/api/context-brokers", broker("Before"));
    expect((await api("GET", "/api/context-brokers")).body).toContainEqual(
      expect.objectContaining({ name: "Before" }),
    );
    // Another API process sharing the database renames it: nothing in this one knows.
    const hostile = `.*+?(|\\ "quoted" é`;
    await t.storage.db.execute(
      sql`UPDATE records SET name = ${hostile}, data = data || jsonb_build_object('name', ${hostile}::text) WHERE id = ${created.body.id}`,
    );
    const list = await api("GET", "/api/context-brokers");
    expect(list.body).toContainEqual(expect.objectContaining({ id: created.body.id, name: hostile }));
    expect(list.body).not.toContainEqual(expect.objectContaining({ name: "Before" }));
  });
});

describe("ListCache", () => {
  it("keeps the list of the later version when a slower reading of an earlier one ends last", async () => {
    let version = "9";
    const cache = new ListCache(async () => version);
    let finishSlow!: (text: string) => void;
    const slow = cache.get("k", () => new Promise<string>((resolve) => (finishSlow = resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    version = "10";
    expect(String(await cache.get("k", async () => '["ten"]'))).toBe('["ten"]');
    finishSlow('["nine"]');
    expect(String(await slow)).toBe('["nine"]');
    let readAgain = false;
    const kept = await cache.get("k", async () => {
      readAgain = true;
      return '["read again"]';
    });
    expect(String(kept)).toBe('["ten"]');
    expect(readAgain).toBe(false);
  });

  it("reads the version once for lists asked together, and again for a list asked after", async () => {
    let reads = 0;
    let version = 1;
    const cache = new ListCache(async () => {
      reads++;
      return String(version);
    });
    await Promise.all([cache.get("k", async () => "[1]"), cache.get("k", async () => "[1]")]);
    expect(reads).toBe(1);
    version = 2;
    expect(String(await cache.get("k", async () => "[2]"))).toBe("[2]");
    expect(reads).toBe(2);
  });
});
