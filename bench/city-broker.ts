/**
 * The embedded NGSI-LD broker at a city's size (issue 38), on PGlite and on PostgreSQL, over real
 * HTTP on 127.0.0.1: one tenant is filled with sensors through the batch API (POST
 * /entityOperations/upsert, BATCH a request, CONCURRENCY in flight, the temporal history and the
 * notification outbox written in the same transactions), step by step up to the last of STEPS
 * (10,000, 100,000 and 1,000,000 entities). At each step, after ANALYZE:
 *   - the upsert rate of the step's fill (ms per 1,000 entities: the cost that should not grow);
 *   - a type + q query, page one (GET /entities?type=Sensor&q=temperature>20&limit=20);
 *   - the same with count=true, its count remembered;
 *   - the same right after a write of this broker (the count carried forward by the write);
 *   - the same right after a write of another broker on the same database (the count taken again:
 *     a q count evaluates q on every entity of the type, so its cost grows with the type's size);
 *   - a query by type alone, page one with count=true, right after a write of another broker: its
 *     count is read from the counts by type every write keeps (migration broker_0009), one row.
 * Each measure's growth between steps (bench/lib/growth.ts) is printed and kept under `growth` in
 * bench/results/city-broker.json: a slope near 0 is a cost that does not grow with the entities.
 *
 * Environment: BENCH_DATABASE_URL (a PostgreSQL role that may CREATE DATABASE; default: a
 * throwaway local server), BENCH_STEPS ("10000,100000,1000000"), BENCH_BATCH (1000),
 * BENCH_CONCURRENCY (2), BENCH_DRIVERS ("pglite,postgresql"), BENCH_TIME_LIMIT_SECONDS (5400).
 */
import { sql } from "drizzle-orm";
import { onDriver, type DriverName } from "./lib/databases.ts";
import { growth, growthLine, type Growth } from "./lib/growth.ts";
import { Sample, type Figures } from "./lib/measure.ts";
import { cellsOf, lat, loadAverage, met, packageVersion, table, writeResults } from "./lib/report.ts";
import { runBench, stopping } from "./lib/run.ts";
import { sized, smoke } from "./lib/smoke.ts";
import { entity, startBroker } from "./lib/sensors.ts";

const STEPS = (process.env.BENCH_STEPS ?? (smoke ? "100,300" : "10000,100000,1000000"))
  .split(",")
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
const BATCH = Number(process.env.BENCH_BATCH ?? sized(1_000, 50));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const REPEATS = sized(21, 3);
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 5400);
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite,postgresql")
  .split(",")
  .filter((d): d is DriverName => d === "pglite" || d === "postgresql");
const LOAD_BEFORE = loadAverage();
const GOALS = {
  /** Issue 38: a type + q query, page one, at a million entities. */
  maxPageOneAtMillionMs: 50,
  /** Issue 38: page one with count=true right after a write. */
  maxPageOneAfterWriteMs: 20,
};
const PAGE = "/entities?type=Sensor&q=temperature%3E20&limit=20";
const TYPE_PAGE = "/entities?type=Sensor&limit=20&count=true";

interface StepResult {
  entities: number;
  /** The fill from the previous step to this one. */
  fill: { entities: number; wallMs: number; entitiesPerSecond: number; batches: Figures };
  pageOne: Figures;
  pageOneWithCount: Figures & { matched: number };
  pageOneAfterWrite: Figures;
  pageOneAfterOtherWrite: Figures;
  /** Type alone, page one with count=true, right after another broker's write (counts by type). */
  typePageAfterOtherWrite: Figures & { matched: number };
}

interface DriverResult {
  driver: DriverName;
  source?: string;
  serverVersion?: string;
  steps: StepResult[];
  goals?: { pageOneAtLastStepUnder50ms: boolean; pageOneAfterWriteUnder20ms: boolean };
  error?: string;
}

function benchDriver(name: DriverName): Promise<DriverResult> {
  return onDriver<DriverResult>(name, async (driver, result, closing) => {
    result.steps = [];
    const fresh = await driver.fresh();
    closing(fresh.dispose);
    result.serverVersion = fresh.storage.version;
    const db = fresh.storage.db;
    const broker = await startBroker(db);
    closing(broker.close);
    // Another broker on the same database: its writes make this one's remembered counts stale.
    const other = await startBroker(db);
    closing(other.close);
    const get = async (path: string) => {
      const start = performance.now();
      const res = await broker.call("GET", path, 200);
      return { ms: performance.now() - start, res };
    };
    let filled = 0;
    let written = 0;
    const touch = (via: typeof broker) =>
      via.call("PATCH", `/entities/${entity(written++ % filled).id}/attrs`, 204, {
        status: { type: "Property", value: written % 2 ? "off" : "on" },
      });
    for (const size of STEPS) {
      if (stopping()) return;
      console.error(`[${name}] filling to ${size.toLocaleString("en-US")} entities...`);
      const batches = new Sample();
      const from = filled;
      const count = Math.ceil((size - from) / BATCH);
      await batches.run(0, count, CONCURRENCY, async (b) => {
        const first = from + b * BATCH;
        const body = Array.from({ length: Math.min(BATCH, size - first) }, (_, k) => entity(first + k));
        await broker.call("POST", "/entityOperations/upsert", 201, body);
      });
      filled = size;
      const fill = batches.figures();
      // Planner statistics first (PGlite has no autovacuum; the store also analyzes as it goes).
      await db.execute(sql`ANALYZE`);

      console.error(`[${name}] ${size.toLocaleString("en-US")}: type + q, page one...`);
      const pageOne = new Sample();
      const withCount = new Sample();
      const afterWrite = new Sample();
      const afterOtherWrite = new Sample();
      const typeAfterOtherWrite = new Sample();
      let matched = 0;
      let typeMatched = 0;
      for (let k = 0; k < REPEATS; k++) {
        const page = await get(PAGE);
        if ((JSON.parse(page.res.text) as unknown[]).length !== 20) throw new Error("page one is not full");
        pageOne.record(page.ms);
        const counted = await get(`${PAGE}&count=true`);
        matched = Number(counted.res.headers["ngsild-results-count"]);
        withCount.record(counted.ms);
        await touch(broker);
        afterWrite.record((await get(`${PAGE}&count=true`)).ms);
        // Taking the count again at a million is slow: a few samples tell its cost.
        if (k < Math.min(REPEATS, 5)) {
          await touch(other);
          afterOtherWrite.record((await get(`${PAGE}&count=true`)).ms);
          // Still right after the other broker's write (this one has not written since).
          const typed = await get(TYPE_PAGE);
          typeMatched = Number(typed.res.headers["ngsild-results-count"]);
          typeAfterOtherWrite.record(typed.ms);
        }
      }
      if (typeMatched !== size) throw new Error(`type count ${typeMatched}, expected ${size}`);
      const expected = Array.from({ length: size }, (_, i) => i).filter((i) => i % 40 > 20).length;
      if (matched !== expected) throw new Error(`count ${matched}, expected ${expected}`);
      result.steps.push({
        entities: size,
        fill: {
          entities: size - from,
          wallMs: fill.wallMs,
          entitiesPerSecond: Math.round(((size - from) / fill.wallMs) * 1000),
          batches: fill,
        },
        pageOne: pageOne.figures(),
        pageOneWithCount: { ...withCount.figures(), matched },
        pageOneAfterWrite: afterWrite.figures(),
        pageOneAfterOtherWrite: afterOtherWrite.figures(),
        typePageAfterOtherWrite: { ...typeAfterOtherWrite.figures(), matched: typeMatched },
      });
      const step = result.steps.at(-1)!;
      console.error(
        `[${name}] ${size}: upsert ${step.fill.entitiesPerSecond}/s, page one ${lat(step.pageOne)}, with count ${lat(step.pageOneWithCount)}, after a write ${lat(step.pageOneAfterWrite)}, after another broker's write ${lat(step.pageOneAfterOtherWrite)}, type alone with count after another broker's write ${lat(step.typePageAfterOtherWrite)}`,
      );
    }
    const last = result.steps.at(-1)!;
    result.goals = {
      pageOneAtLastStepUnder50ms: last.pageOne.p50Ms < GOALS.maxPageOneAtMillionMs,
      pageOneAfterWriteUnder20ms: last.pageOneAfterWrite.p50Ms < GOALS.maxPageOneAfterWriteMs,
    };
  });
}

/** The growth of each measure over the steps, per driver (p50 for latencies). */
function growthOf(results: DriverResult[]): Growth[] {
  const out: Growth[] = [];
  for (const r of results.filter((r) => !r.error && r.steps.length)) {
    const steps = (cost: (s: StepResult) => number) =>
      r.steps.map((s) => ({ size: s.entities, cost: cost(s) }));
    out.push(
      growth(
        "batch upsert, per 1,000 entities",
        "entities",
        "ms",
        steps((s) => (s.fill.wallMs / s.fill.entities) * 1000),
        r.driver,
      ),
      growth(
        "type + q query, page one",
        "entities",
        "ms",
        steps((s) => s.pageOne.p50Ms),
        r.driver,
      ),
      growth(
        "type + q query, page one with count",
        "entities",
        "ms",
        steps((s) => s.pageOneWithCount.p50Ms),
        r.driver,
      ),
      growth(
        "type + q query, page one with count, right after a write",
        "entities",
        "ms",
        steps((s) => s.pageOneAfterWrite.p50Ms),
        r.driver,
      ),
      growth(
        "type + q query, page one with count, after another broker's write",
        "entities",
        "ms",
        steps((s) => s.pageOneAfterOtherWrite.p50Ms),
        r.driver,
      ),
      growth(
        "type alone, page one with count, after another broker's write",
        "entities",
        "ms",
        steps((s) => s.typePageAfterOtherWrite.p50Ms),
        r.driver,
      ),
    );
  }
  return out;
}

function print(results: DriverResult[], growths: Growth[]): void {
  const col = cellsOf(results);
  const n = (v?: number) => (v === undefined ? "-" : v.toLocaleString("en-US"));
  const rows: string[][] = [];
  for (const [i, size] of STEPS.entries()) {
    const at = (r: DriverResult) => r.steps[i];
    rows.push(
      [
        `${n(size)} entities: upsert of the step`,
        ...col((r) => `${n(at(r)?.fill.entitiesPerSecond)} entities/s`),
      ],
      ["  type + q, page one", ...col((r) => lat(at(r)?.pageOne))],
      ["  with count=true (remembered)", ...col((r) => lat(at(r)?.pageOneWithCount))],
      ["    matches counted", ...col((r) => n(at(r)?.pageOneWithCount.matched))],
      ["  with count, right after a write", ...col((r) => lat(at(r)?.pageOneAfterWrite))],
      ["  with count, after another broker's write", ...col((r) => lat(at(r)?.pageOneAfterOtherWrite))],
      [
        "  type alone with count, after another broker's write",
        ...col((r) => lat(at(r)?.typePageAfterOtherWrite)),
      ],
    );
  }
  rows.push(
    [
      `Goal: page one p50 < ${GOALS.maxPageOneAtMillionMs} ms at ${n(STEPS.at(-1))}`,
      ...col((r) => met(r.goals?.pageOneAtLastStepUnder50ms)),
    ],
    [
      `Goal: page one with count after a write p50 < ${GOALS.maxPageOneAfterWriteMs} ms`,
      ...col((r) => met(r.goals?.pageOneAfterWriteUnder20ms)),
    ],
  );
  console.log(
    `\nOrrery embedded NGSI-LD broker at a city's size: ${BATCH} per batch, ${CONCURRENCY} in flight, node ${process.version}\n`,
  );
  console.log(table(["", ...results.map((r) => `${r.driver} ${r.serverVersion ?? ""}`.trim())], rows));
  console.log("\nGrowth (slope of cost against size on a log-log scale; 0 = flat, 1 = linear):");
  for (const g of growths) console.log(`  ${growthLine(g)}`);
  for (const r of results.filter((r) => r.error)) console.log(`\n${r.driver} failed: ${r.error}`);
}

async function main(): Promise<number> {
  const results: DriverResult[] = [];
  for (const name of DRIVERS) results.push(await benchDriver(name));
  if (stopping()) return 2;
  const growths = growthOf(results);
  print(results, growths);
  const allGoalsMet = results.every(
    (r) => r.goals?.pageOneAtLastStepUnder50ms && r.goals.pageOneAfterWriteUnder20ms,
  );
  const out = writeResults("city-broker", LOAD_BEFORE, {
    versions: Object.fromEntries(
      ["@electric-sql/pglite", "pg", "drizzle-orm", "fastify"].map((p) => [p, packageVersion(p)]),
    ),
    settings: { steps: STEPS, batch: BATCH, concurrency: CONCURRENCY, repeats: REPEATS },
    goals: GOALS,
    allGoalsMet,
    drivers: results,
    growth: growths,
  });
  console.log(`\nGoals ${allGoalsMet ? "met" : "NOT met"}. Written: ${out}`);
  return results.some((r) => r.error) ? 1 : 0;
}

runBench(main, TIME_LIMIT_S);
