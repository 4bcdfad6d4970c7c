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

describe(`records asked for by many at once (${driver})`, () => {
  it("thirty records read at once cost one statement, each answer its own record, unknown and hostile ids 404", async () => {
    const { api } = ctx;
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const created = await api("POST", "/api/context-brokers", broker(`Read ${i}`));
      ids.push(created.body.id as string);
    }
    const before = await statements();
    const answers = await Promise.all(ids.map((id) => api("GET", `/api/context-brokers/${id}`)));
    expect((await statements()) - before).toBeLessThanOrEqual(2);
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id: ids[i], name: `Read ${i}` });
      expect(answer.headers.etag).toBe('"1"');
    });

    // One changed answer does not change another's: each caller has its own copy.
    const same = await Promise.all([1, 2, 3].map(() => api("GET", `/api/context-brokers/${ids[0]}`)));
    for (const answer of same) expect(answer.body).toEqual(answers[0]!.body);

    const strangers = [
      "urn:ngsi-ld:ContextBroker:nothing",
      `urn:ngsi-ld:ContextBroker:.*+?(|\\"'`,
      "urn:ngsi-ld:ContextBroker:%",
    ];
    const missing = await Promise.all([
      ...strangers.map((id) => api("GET", `/api/context-brokers/${encodeURIComponent(id)}`)),
      api("GET", `/api/context-brokers/${ids[1]}`),
    ]);
    expect(missing.map((m) => m.status)).toEqual([404, 404, 404, 200]);
    expect(missing[0]!.headers["content-type"]).toMatch(/^application\/problem\+json/);
    // A record of another kind is not found under this one, even when read with it.
    const [wrongKind, rightKind] = await Promise.all([
      api("GET", `/api/services/${ids[2]}`),
      api("GET", `/api/context-brokers/${ids[2]}`),
    ]);
    expect(wrongKind.status).toBe(404);
    expect(rightKind.status).toBe(200);
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
