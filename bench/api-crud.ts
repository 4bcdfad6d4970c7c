/**
 * API CRUD benchmark, on PGlite and on PostgreSQL: the API in its own process (as `npm start` runs
 * it), called over real HTTP on 127.0.0.1 from this one: create N context
 * brokers, read each one, list all of them; then, on a fresh database, the same N inserts straight
 * through Drizzle. What the audit trail costs: the same creates against two APIs in one process of
 * their own (bench/lib/trail-pair.ts), by turns, one with the trail and one without. Each API
 * first serves WARM_UP creates that are not measured. Prints a table and writes
 * bench/results/api-crud.json.
 *
 * Environment: BENCH_DATABASE_URL (a PostgreSQL role that may CREATE DATABASE; default: a
 * throwaway local server), BENCH_RECORDS (default 10000), BENCH_DRIVERS (default
 * "pglite,postgresql"), BENCH_TIME_LIMIT_SECONDS (default 900), BENCH_WARM_UP (default 6000),
 * BENCH_TRAIL_AA=1 (the trail pair with the trail off on both sides: the measure's own noise),
 * BENCH_GROWTH_STEPS (default "1000,10000,100000"; "10,40" in a smoke run), BENCH_CONCURRENCY (32;
 * 8 compares with the runs before issue 38).
 *
 * Clients: CONCURRENCY requests in flight (32 since issue 38, 8 before): a console of a data space
 * has tens of operators and scripts at once, and the API gathers the creates that arrive together
 * into one statement (apps/api/src/storage/write-batch.ts), which eight clients kept small.
 *
 * Growth (issue 38, bench/lib/growth.ts): on a fresh API of its own, the table is filled through
 * the API step by step (1,000, 10,000, 100,000 context brokers); at each step the last GROWTH_SAMPLE
 * creates that reached it are timed (µs of wall time a create, at that table size), then the list
 * of all of them (p95 of a few). Written as `growth` in the results.
 */
import { cpus } from "node:os";
import { sql } from "drizzle-orm";
import { contextBrokers, newId } from "@orrery/model";
import { records } from "../apps/api/src/storage/schema.ts";
import type { Database } from "../apps/api/src/storage/database.ts";
import { startApiProcess, type RunningApi } from "./lib/api.ts";
import { backendsCpuSince, databaseBackendsCpu, ownCpu, processCpu } from "./lib/cpu.ts";
import { startTrailPair, type TrailPair } from "./lib/trail-pair.ts";
import { runBench, stopping } from "./lib/run.ts";
import { onDriver, type Driver, type DriverName } from "./lib/databases.ts";
import { median, Sample, shuffled, timed, type Figures } from "./lib/measure.ts";
import { sized, smoke } from "./lib/smoke.ts";
import { cellsOf, lat, loadAverage, met, packageVersion, rate, table, writeResults } from "./lib/report.ts";
import { growth, growthLine, type Growth } from "./lib/growth.ts";
import { brokerName, brokerPayload as payload } from "./lib/broker-payload.ts";

const N = Number(process.env.BENCH_RECORDS ?? sized(10_000, 50));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LIST_REPEATS = sized(20, 3);
const BATCH_ROWS = 500;
const CHUNK = 1_000;
const TRAIL_TURN = 100;
/** Rounds of the pair's turns over each chunk: its figures are a few per cent apart, averaged over 3N creates. */
const TRAIL_ROUNDS = sized(3, 1);
const TURNS = Math.ceil(N / TRAIL_TURN) * TRAIL_ROUNDS;
/**
 * Creates each API serves before the measured ones, not counted: a server that has run a while
 * has compiled its hot paths, a fresh Node process has not. Measured here: a fresh API process
 * spent 394 µs of CPU per create on its first thousand creates, 172 on its third, about 90 from its
 * sixth (bench/api-crud.ts before this warm-up measured that start with the rest).
 */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? sized(6_000, 20));
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 900);
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite,postgresql")
  .split(",")
  .filter((d): d is DriverName => d === "pglite" || d === "postgresql");
const GROWTH_STEPS = (process.env.BENCH_GROWTH_STEPS ?? (smoke ? "10,40" : "1000,10000,100000"))
  .split(",")
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
/** Creates timed at each growth step: the last ones before the table reaches the step's size. */
const GROWTH_SAMPLE = sized(1_000, 10);
const GROWTH_LISTS = sized(10, 2);
const LOAD_BEFORE = loadAverage();
// Issue 38's goals (create rate per storage, list p95), issue 26's overhead over a direct insert;
// issue 28's trail cost.
const GOALS = {
  minCreatePerSecond: { pglite: 10_000, postgresql: 10_000 },
  maxApiOverhead: 2,
  maxListP95Ms: 25,
  maxAuditTrailCost: 0.1,
};

interface DriverResult {
  driver: DriverName;
  source?: string;
  serverVersion?: string;
  api?: {
    /** The warm-up's creates (WARM_UP temporal services on the fresh API process), not judged. */
    coldStart?: Figures;
    create: Figures;
    read: Figures;
    list: Figures;
    listResponseBytes: number;
    /**
     * CPU time per measured create (µs) of the API process, of its PostgreSQL backends (none on
     * PGlite: the database runs in the API's thread), and of this process, the load generator; and
     * the rate their sum allows on this machine's cores were nothing else running (`ceiling`). The
     * API's Node thread is one core: `apiThreadCeiling` = 1e6 / api µs.
     */
    cpu?: {
      apiMicroseconds: number;
      databaseMicroseconds?: number;
      loadGeneratorMicroseconds: number;
      ceilingPerSecond: number;
      apiThreadCeilingPerSecond: number;
    };
  };
  direct?: { insert: Figures; batched: { rowsPerStatement: number; wallMs: number; perSecond: number } };
  /** API create wall time / direct insert wall time, same count and concurrency. */
  apiOverhead?: number;
  /**
   * Creates of the trail pair, with the trail and without. `costOfTurns` (the goal's figure): the
   * median over the turns of (the turn's time with the trail / its time without) - 1. `cost`: the
   * total times' ratio - 1, which a rare stall (a collector's pause, the scheduler) moves by
   * several points: run with both sides off (BENCH_TRAIL_AA=1), 300 turns gave totals -3.1% to
   * +6.2% apart and medians 0.7% to 1.9%. Also the pair process's CPU time per create (µs) with
   * the trail and without (for the PGlite pair it includes the database's work).
   */
  auditTrail?: {
    on: Figures;
    off: Figures;
    costOfTurns: number;
    cost: number;
    cpuMicrosecondsPerCreate: { on: number; off: number };
    cpuCost: number;
  };
  goals?: { createRate: boolean; apiOverhead: boolean; listP95: boolean; auditTrailUnder10pct: boolean };
  /** List p95 and create cost at each table size (see GROWTH_STEPS). */
  growth?: Growth[];
  growthError?: string;
  error?: string;
}

/** The row the direct path inserts for broker i. */
const brokerRow = (i: number, name = brokerName(i)) => ({
  id: newId(contextBrokers),
  kind: contextBrokers.kind,
  name,
  data: payload(i),
  secrets: {},
});

/**
 * One driver: two fresh databases, one behind the real app, one for direct Drizzle inserts. The API
 * creates and the direct inserts alternate in chunks, so that both meet the same load from whatever
 * else runs on the machine; then the reads and lists go through the API, and the batched inserts
 * into the emptied direct database.
 */
function benchDriver(name: DriverName): Promise<DriverResult> {
  // What is registered closes once, even if the body closed it already.
  return onDriver<DriverResult>(name, async (driver, result, closing) => {
    const apiDb = await driver.vacant();
    closing(apiDb.dispose);
    const directDb = await driver.fresh();
    closing(directDb.dispose);
    result.serverVersion = directDb.storage.version;
    // The API in its own process, as users run it: the load generator's HTTP client is not in its thread.
    const api = await startApiProcess(apiDb);
    closing(api.close);
    const pairDbs = [await driver.vacant(), await driver.vacant()] as const;
    for (const place of pairDbs) closing(place.dispose);
    const pair = await startTrailPair(...pairDbs);
    closing(pair.close);
    const db = directDb.storage.db;
    const coldStart = await warmUp(api, pair, db);

    console.error(`[${name}] ${N} API creates and ${N} direct inserts, alternating by ${CHUNK}...`);
    const ids = new Array<string>(N);
    const rows = Array.from({ length: N }, (_, i) => brokerRow(i));
    const create = new Sample();
    const trailOn = new Sample();
    const trailOff = new Sample();
    const insert = new Sample();
    const trailCpu = { on: 0, off: 0 };
    // The CPU of the measured creates, read around each chunk of them (see DriverResult.api.cpu).
    const cpu = { api: 0, database: 0, loadGenerator: 0 };
    const backends = () => (apiDb.databaseUrl ? databaseBackendsCpu(apiDb.databaseUrl) : undefined);
    const turnRatios: number[] = [];
    let turn = 0;
    for (let from = 0; from < N; from += CHUNK) {
      const to = Math.min(N, from + CHUNK);
      const creates = async () => {
        const before = { api: processCpu(api.pid), own: ownCpu(), db: await backends() };
        await create.run(from, to, CONCURRENCY, async (i) => {
          const created = await api.call("POST", "/api/context-brokers", 201, payload(i));
          ids[i] = (JSON.parse(created) as { id: string }).id;
        });
        cpu.api += processCpu(api.pid) - before.api;
        cpu.loadGenerator += ownCpu() - before.own;
        if (before.db) cpu.database += backendsCpuSince(before.db, (await backends())!);
      };
      const inserts = () =>
        insert.run(from, to, CONCURRENCY, async (i) => {
          await db.insert(records).values(rows[i]!);
        });
      // The API's chunk and the direct one next to each other, each first every other chunk: the
      // second meets what the first left running.
      for (const run of (from / CHUNK) % 2 ? [inserts, creates] : [creates, inserts]) await run();
      // The pair by turns of TRAIL_TURN creates: in each turn one API has the trail and the other
      // not, and both serve the turn's creates, one after the other. Over four turns each API has
      // the trail twice and the trail goes first twice (see TrailPair), so what is not the trail
      // evens out: a few per cent is all they differ by, less than other work on the machine changes.
      // The turns count on across chunks (ten a round): the first turn meets what the chunks before
      // it left running (the database's writes, the processes' collectors), and is started by the
      // trail in one chunk and without it in the next. TRAIL_ROUNDS rounds a chunk: the pair's
      // figures are an average over more creates than the API's (another name each round).
      for (let round = 0; round < TRAIL_ROUNDS; round++)
        for (let at = from; at < to; at += TRAIL_TURN, turn++) {
          const end = Math.min(to, at + TRAIL_TURN);
          const shift = round * N;
          const withTrail = turn % 2 === 0 ? 0 : 1;
          await pair.trailIn(withTrail);
          const sides = [
            { paired: pair.apis[withTrail], on: true },
            { paired: pair.apis[1 - withTrail]!, on: false },
          ];
          if (Math.floor(turn / 2) % 2) sides.reverse();
          const took = { on: 0, off: 0 };
          for (const { paired, on } of sides) {
            const before = await pair.cpu();
            const started = performance.now();
            await (on ? trailOn : trailOff).run(at + shift, end + shift, CONCURRENCY, async (i) => {
              await paired.post("/api/context-brokers", 201, payload(i));
            });
            took[on ? "on" : "off"] = performance.now() - started;
            trailCpu[on ? "on" : "off"] += (await pair.cpu()) - before;
          }
          turnRatios.push(took.on / took.off);
        }
    }

    console.error(`[${name}] ${N} API reads, ${LIST_REPEATS} lists, batched inserts...`);
    const order = shuffled(Array.from({ length: N }, (_, i) => i));
    const read = await timed(N, CONCURRENCY, async (k) => {
      const i = order[k]!;
      const item = JSON.parse(await api.call("GET", `/api/context-brokers/${ids[i]}`, 200));
      if ((item as { name: string }).name !== brokerName(i)) throw new Error(`read ${ids[i]}: wrong record`);
    });
    // A list's latency ends when its whole body has arrived; it is checked outside the timing.
    const lists: string[] = [];
    const list = await timed(LIST_REPEATS, 1, async (k) => {
      lists[k] = await api.call("GET", "/api/context-brokers", 200);
    });
    for (const text of lists) {
      const items = JSON.parse(text) as unknown[];
      if (items.length !== N) throw new Error(`list: ${items.length} items instead of ${N}`);
    }
    await api.close();
    await apiDb.dispose();
    await pair.close();
    for (const place of pairDbs) await place.dispose();

    await db.execute(sql`TRUNCATE records, broker_client_keys`);
    const start = performance.now();
    for (let i = 0; i < N; i += BATCH_ROWS) await db.insert(records).values(rows.slice(i, i + BATCH_ROWS));
    const wallMs = Math.round(performance.now() - start);
    await directDb.dispose();

    result.api = {
      ...(coldStart && { coldStart }),
      create: create.figures(),
      read,
      list,
      listResponseBytes: Buffer.byteLength(lists[0]!),
      cpu: cpuPerCreate(cpu, N, !!apiDb.databaseUrl),
    };
    result.direct = {
      insert: insert.figures(),
      batched: { rowsPerStatement: BATCH_ROWS, wallMs, perSecond: Math.round((N / wallMs) * 1000) },
    };
    const overhead = result.api.create.wallMs / result.direct.insert.wallMs;
    result.apiOverhead = Math.round(overhead * 100) / 100;
    const [on, off] = [trailOn.figures(), trailOff.figures()];
    const trailCost = on.wallMs / off.wallMs - 1;
    const costOfTurns = median(turnRatios) - 1;
    result.auditTrail = {
      on,
      off,
      costOfTurns: Math.round(costOfTurns * 1000) / 1000,
      cost: Math.round(trailCost * 1000) / 1000,
      cpuMicrosecondsPerCreate: {
        on: Math.round(trailCpu.on / on.count),
        off: Math.round(trailCpu.off / off.count),
      },
      cpuCost: Math.round((trailCpu.on / trailCpu.off - 1) * 1000) / 1000,
    };
    result.goals = {
      createRate: result.api.create.perSecond >= GOALS.minCreatePerSecond[name],
      apiOverhead: overhead <= GOALS.maxApiOverhead,
      listP95: result.api.list.p95Ms < GOALS.maxListP95Ms,
      auditTrailUnder10pct: costOfTurns < GOALS.maxAuditTrailCost,
    };
    // A failure here keeps the figures above (the growth's error is said in its place).
    result.growth = await growthOf(name, driver).catch((error: unknown) => {
      result.growthError = error instanceof Error ? error.message : String(error);
      console.error(`[${name}] growth failed:`, error);
      return [];
    });
  });
}

/**
 * How the list and a create grow with the table (see GROWTH_STEPS): a fresh API and database,
 * filled through the API step by step.
 */
async function growthOf(name: DriverName, driver: Driver): Promise<Growth[]> {
  const place = await driver.vacant();
  const api = await startApiProcess(place);
  try {
    const creates: Array<{ size: number; cost: number }> = [];
    const lists: Array<{ size: number; cost: number }> = [];
    let size = 0;
    for (const step of GROWTH_STEPS) {
      console.error(`[${name}] growth: ${step} context brokers...`);
      const sampleFrom = Math.max(size, step - GROWTH_SAMPLE);
      const post = async (i: number) => {
        await api.call("POST", "/api/context-brokers", 201, payload(i));
      };
      if (sampleFrom > size) await new Sample().run(size, sampleFrom, CONCURRENCY, post);
      const sample = new Sample();
      await sample.run(sampleFrom, step, CONCURRENCY, post);
      size = step;
      const f = sample.figures();
      creates.push({ size, cost: (f.wallMs * 1000) / f.count });
      let count = 0;
      const list = await timed(GROWTH_LISTS, 1, async () => {
        count = (JSON.parse(await api.call("GET", "/api/context-brokers", 200)) as unknown[]).length;
      });
      if (count !== size) throw new Error(`growth list: ${count} items instead of ${size}`);
      lists.push({ size, cost: list.p95Ms });
    }
    return [
      growth("API list of every context broker, p95", "records", "ms", lists, name),
      growth("API create at this table size, wall time a create", "records", "µs", creates, name),
    ];
  } finally {
    await api.close();
    await place.dispose();
  }
}

/**
 * The warm-up (see WARM_UP). The API creates WARM_UP temporal services: the same route, record
 * and batch code as a broker's create, while the brokers' table, read and listed later, holds the
 * measured ones only (deleted warm-up brokers would leave dead rows in it, PGlite has no autovacuum).
 * Each API of the trail pair creates as many brokers, by turns; the direct path inserts as many,
 * then they are removed (TRUNCATE, which leaves nothing behind).
 */
async function warmUp(api: RunningApi, pair: TrailPair, db: Database): Promise<Figures | undefined> {
  if (!WARM_UP) return undefined;
  console.error(`warm-up: ${WARM_UP} creates on each API and ${WARM_UP} direct inserts, not measured...`);
  const name = (i: number) => `Warm-up ${String(i).padStart(6, "0")}`;
  const cold = new Sample();
  await cold.run(0, WARM_UP, CONCURRENCY, async (i) => {
    await api.call("POST", "/api/temporal-services", 201, {
      name: name(i),
      temporalServiceType: "mintaka",
      version: "0.7",
      scheme: "http",
      host: `mintaka-${i}.bench.example`,
      port: 8080,
    });
  });
  // The rest is not reported.
  const warm = new Sample();
  for (let at = 0; at < WARM_UP; at += TRAIL_TURN)
    for (const paired of pair.apis)
      await warm.run(at, Math.min(WARM_UP, at + TRAIL_TURN), CONCURRENCY, async (i) => {
        await paired.post("/api/context-brokers", 201, { ...payload(i), name: name(i) });
      });
  await warm.run(0, WARM_UP, CONCURRENCY, async (i) => {
    await db.insert(records).values(brokerRow(i, name(i)));
  });
  await db.execute(sql`TRUNCATE records, broker_client_keys`);
  return cold.figures();
}

/** µs per create of each part, and the rates they bound (see DriverResult.api.cpu). */
function cpuPerCreate(
  total: { api: number; database: number; loadGenerator: number },
  count: number,
  server: boolean,
) {
  const each = (us: number) => Math.round(us / count);
  const sum = each(total.api) + (server ? each(total.database) : 0) + each(total.loadGenerator);
  return {
    apiMicroseconds: each(total.api),
    ...(server ? { databaseMicroseconds: each(total.database) } : {}),
    loadGeneratorMicroseconds: each(total.loadGenerator),
    ceilingPerSecond: Math.round((cpus().length * 1e6) / sum),
    apiThreadCeilingPerSecond: Math.round(1e6 / each(total.api)),
  };
}

const pct = (cost?: number) => (cost === undefined ? "" : `${(cost * 100).toFixed(1)}%`);

function print(results: DriverResult[]): void {
  const col = cellsOf(results);
  const rows = [
    [`API create, first ${WARM_UP} of a fresh process`, ...col((r) => rate(r.api?.coldStart))],
    ["API create", ...col((r) => rate(r.api?.create))],
    ["  p50 / p95", ...col((r) => lat(r.api?.create))],
    [
      "  CPU µs per create: API / database / load generator",
      ...col((r) => {
        const c = r.api?.cpu;
        return c
          ? `${c.apiMicroseconds} / ${c.databaseMicroseconds ?? "(in API)"} / ${c.loadGeneratorMicroseconds}`
          : "";
      }),
    ],
    [
      `  rate their CPU allows: ${cpus().length} cores / API thread`,
      ...col((r) => {
        const c = r.api?.cpu;
        return c
          ? `${c.ceilingPerSecond.toLocaleString("en-US")} / ${c.apiThreadCeilingPerSecond.toLocaleString("en-US")} per s`
          : "";
      }),
    ],
    ["API read", ...col((r) => rate(r.api?.read))],
    ["  p50 / p95", ...col((r) => lat(r.api?.read))],
    [`API list of ${N}`, ...col((r) => rate(r.api?.list))],
    ["  p50 / p95", ...col((r) => lat(r.api?.list))],
    ["Direct insert (1 row/call)", ...col((r) => rate(r.direct?.insert))],
    ["  p50 / p95", ...col((r) => lat(r.direct?.insert))],
    [
      `Direct batched (${BATCH_ROWS} rows/call)`,
      ...col((r) => `${r.direct?.batched.perSecond.toLocaleString("en-US")} rows/s`),
    ],
    ["API overhead (create / insert time)", ...col((r) => `${r.apiOverhead}x`)],
    [
      `Goal: create >= ${GOALS.minCreatePerSecond.pglite}/s PGlite, ${GOALS.minCreatePerSecond.postgresql}/s PostgreSQL`,
      ...col((r) => met(r.goals?.createRate)),
    ],
    [`Goal: overhead <= ${GOALS.maxApiOverhead}x`, ...col((r) => met(r.goals?.apiOverhead))],
    [`Goal: list p95 < ${GOALS.maxListP95Ms} ms`, ...col((r) => met(r.goals?.listP95))],
    ["Create, audit trail on (pair)", ...col((r) => rate(r.auditTrail?.on))],
    ["Create, audit trail off (pair)", ...col((r) => rate(r.auditTrail?.off))],
    [`Audit trail cost, median of ${TURNS} paired turns`, ...col((r) => pct(r.auditTrail?.costOfTurns))],
    ["  total times (on / off - 1)", ...col((r) => pct(r.auditTrail?.cost))],
    [
      "  CPU µs per create on / off, cost",
      ...col((r) => {
        const a = r.auditTrail;
        return a
          ? `${a.cpuMicrosecondsPerCreate.on} / ${a.cpuMicrosecondsPerCreate.off}, ${pct(a.cpuCost)}`
          : "";
      }),
    ],
    [
      `Goal: audit trail < ${GOALS.maxAuditTrailCost * 100}%`,
      ...col((r) => met(r.goals?.auditTrailUnder10pct)),
    ],
  ];
  console.log(
    `\nOrrery API CRUD: ${N} context brokers, ${CONCURRENCY} requests in flight, node ${process.version}\n`,
  );
  console.log(table(["", ...results.map((r) => `${r.driver} ${r.serverVersion ?? ""}`.trim())], rows));
  const growths = results.flatMap((r) => r.growth ?? []);
  if (growths.length)
    console.log(`\nGrowth with the table:\n${growths.map((g) => `  ${growthLine(g)}`).join("\n")}`);
  for (const r of results.filter((r) => r.error)) console.log(`\n${r.driver} failed: ${r.error}`);
}

async function main(): Promise<number> {
  const results: DriverResult[] = [];
  for (const name of DRIVERS) results.push(await benchDriver(name));
  if (stopping()) return 2; // stopped by the time limit or a signal: no figures to keep
  print(results);
  const allGoalsMet = results.every(
    (r) => r.goals?.createRate && r.goals.apiOverhead && r.goals.listP95 && r.goals.auditTrailUnder10pct,
  );
  const out = writeResults("api-crud", LOAD_BEFORE, {
    versions: Object.fromEntries(
      ["@electric-sql/pglite", "pg", "drizzle-orm", "fastify"].map((p) => [p, packageVersion(p)]),
    ),
    settings: {
      records: N,
      concurrency: CONCURRENCY,
      alternationChunk: CHUNK,
      listRepeats: LIST_REPEATS,
      batchRows: BATCH_ROWS,
      growthSteps: GROWTH_STEPS,
      growthSample: GROWTH_SAMPLE,
      growthLists: GROWTH_LISTS,
    },
    goals: GOALS,
    allGoalsMet,
    growth: results.flatMap((r) => r.growth ?? []),
    drivers: results.map(({ growth: _growth, ...r }) => r),
  });
  console.log(`\nGoals ${allGoalsMet ? "met" : "NOT met"}. Written: ${out}`);
  return results.some((r) => r.error) ? 1 : 0;
}

runBench(main, TIME_LIMIT_S);
