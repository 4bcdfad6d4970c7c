/**
 * Embedded NGSI-LD broker benchmark, on PGlite and on PostgreSQL. Over real HTTP on 127.0.0.1
 * (the broker plugin alone on Fastify, as `npm run broker` runs it):
 *   1. batch upsert of N entities in batches of BATCH (POST /entityOperations/upsert), with the
 *      temporal history and the notification outbox written in the same transactions;
 *   2. the same N entities as raw multi-row INSERTs into broker_entities of a fresh database,
 *      giving the broker's overhead ratio (upsert wall time / raw insert wall time);
 *   3. a type + q query, page one with count=true (GET /entities?type=Sensor&q=temperature>20),
 *      repeated (the broker remembers the count), then each right after a write of this broker
 *      (which carries the remembered count forward), and without count;
 *   4. notification latency, from the start of an update to its arrival at a node:http receiver;
 *   5. temporal load: TEMPORAL_INSTANCES instances of TEMPORAL_ENTITIES meters over HTTP, many
 *      instances per request (POST /temporal/entities, then POST /temporal/entities/{id}/attrs);
 *      then temporal queries over them.
 * Prints a table and writes bench/results/broker.json.
 *
 * Environment: BENCH_DATABASE_URL (a PostgreSQL role that may CREATE DATABASE; default: a
 * throwaway local server), BENCH_ENTITIES (100000), BENCH_BATCH (1000), BENCH_CONCURRENCY (2),
 * BENCH_TEMPORAL_INSTANCES (1000000), BENCH_DRIVERS ("pglite,postgresql"),
 * BENCH_TIME_LIMIT_SECONDS (1800).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { sql } from "drizzle-orm";

import { onCleanup } from "./lib/cleanup.ts";
import { runBench, stopping } from "./lib/run.ts";
import { onDriver, type DriverName } from "./lib/databases.ts";
import { Sample, timed, type Figures } from "./lib/measure.ts";
import { sized } from "./lib/smoke.ts";
import { entity, pad, startBroker } from "./lib/sensors.ts";
import { cellsOf, lat, loadAverage, met, packageVersion, rate, table, writeResults } from "./lib/report.ts";

const N = Number(process.env.BENCH_ENTITIES ?? sized(100_000, 200));
const BATCH = Number(process.env.BENCH_BATCH ?? sized(1_000, 50));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const TEMPORAL_INSTANCES = Number(process.env.BENCH_TEMPORAL_INSTANCES ?? sized(1_000_000, 200));
const TEMPORAL_ENTITIES = sized(1_000, 10);
const QUERY_REPEATS = sized(30, 3);
const NOTIFY_REPEATS = sized(100, 5);
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 1800);
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite,postgresql")
  .split(",")
  .filter((d): d is DriverName => d === "pglite" || d === "postgresql");
const LOAD_BEFORE = loadAverage();
const GOALS = {
  minUpsertPerSecondPostgres: 10_000,
  maxPageOneMs: 50,
  maxOverhead: 3,
  /** Issue 27: loading history through temporal writes. */
  minTemporalLoadPerSecond: { postgresql: 20_000, pglite: 10_000 },
};
const VOCAB = "https://uri.etsi.org/ngsi-ld/default-context/";
const CORE = "https://uri.etsi.org/ngsi-ld/";

interface DriverResult {
  driver: DriverName;
  source?: string;
  serverVersion?: string;
  upsert?: { batches: Figures; entitiesPerSecond: number; wallMs: number };
  raw?: { batches: Figures; entitiesPerSecond: number; wallMs: number };
  overhead?: number;
  /** CPU time of the bench process in the upsert and raw phases (on PGlite, the database's too). */
  processCpu?: { upsertMs: number; rawMs: number; overhead: number };
  pageOne?: Figures & { count: number; matched: number };
  /** The same page without count=true: what the count costs. */
  pageOneWithoutCount?: Figures;
  /** The same page with count=true, each right after a write to the tenant: the count is taken again. */
  pageOneAfterWrite?: Figures;
  notification?: Figures;
  temporal?: {
    instances: number;
    /** The history loaded over HTTP, many instances per request (POST /temporal/entities, .../attrs). */
    load: {
      requests: Figures;
      instancesPerRequest: number;
      wallMs: number;
      instancesPerSecond: number;
      /** CPU time of the bench process while loading (on PGlite, the database's too). */
      processCpuMs: number;
    };
    typeWindow: Figures & { instancesPerResponse: number; processCpuMs: number };
    entityLastN: Figures;
  };
  goals?: {
    pageOneUnder50ms: boolean;
    overheadWithin3x: boolean;
    upsertAtLeast10kPerSecond?: boolean;
    temporalLoadFastEnough: boolean;
  };
  error?: string;
}

const rowsCount = (result: unknown) => Number((result as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
/** The stored form (model.ts) of entity(i), for the raw inserts. */
const stored = (i: number, now: string) => {
  const e = entity(i);
  const stamp = { createdAt: now, modifiedAt: now };
  return {
    id: e.id,
    types: `{"${VOCAB}Sensor"}`,
    attrs: JSON.stringify({
      [`${VOCAB}temperature`]: [{ ...e.temperature, ...stamp }],
      [`${VOCAB}status`]: [{ ...e.status, ...stamp }],
      [`${CORE}location`]: [{ ...e.location, ...stamp }],
    }),
  };
};

/** A receiver that resolves the waiter of each notification's entity value. */
async function receiver() {
  let waiting: ((at: number) => void) | undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.statusCode = 204;
      res.end();
      waiting?.(performance.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    next: () => new Promise<number>((resolve) => (waiting = resolve)),
    close,
  };
}

function benchDriver(name: DriverName): Promise<DriverResult> {
  return onDriver<DriverResult>(name, async (driver, result, closing) => {
    const brokerDb = await driver.fresh();
    closing(brokerDb.dispose);
    const rawDb = await driver.fresh();
    closing(rawDb.dispose);
    result.serverVersion = brokerDb.storage.version;
    const broker = await startBroker(brokerDb.storage.db);
    closing(broker.close);
    const batches = Math.ceil(N / BATCH);
    const body = (b: number) =>
      Array.from({ length: Math.min(BATCH, N - b * BATCH) }, (_, k) => entity(b * BATCH + k));

    // 1 and 2, alternating by a tenth, so that both meet the same load from the rest of the machine.
    console.error(`[${name}] ${N} entities: batch upserts over HTTP and raw inserts, ${BATCH} per batch...`);
    const upsert = new Sample();
    const raw = new Sample();
    const now = new Date().toISOString();
    const chunk = Math.max(1, Math.ceil(batches / 10));
    // CPU time of this process by phase: on PGlite it holds the database's work too, a figure the
    // rest of the machine's load changes far less than wall time.
    const cpu = { upsert: 0, raw: 0 };
    const cpuNow = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    for (let from = 0; from < batches; from += chunk) {
      const to = Math.min(batches, from + chunk);
      let started = cpuNow();
      await upsert.run(from, to, CONCURRENCY, async (b) => {
        await broker.call("POST", "/entityOperations/upsert", 201, body(b));
      });
      cpu.upsert += cpuNow() - started;
      started = cpuNow();
      await raw.run(from, to, CONCURRENCY, async (b) => {
        const rows = Array.from({ length: Math.min(BATCH, N - b * BATCH) }, (_, k) =>
          stored(b * BATCH + k, now),
        );
        await rawDb.storage.db.execute(
          sql`INSERT INTO broker_entities (tenant, id, types, attrs, created_at, modified_at) VALUES ${sql.join(
            rows.map(
              (r) =>
                sql`('', ${r.id}, ${r.types}::text[], ${r.attrs}::jsonb, ${now}::timestamptz, ${now}::timestamptz)`,
            ),
            sql`, `,
          )}`,
        );
      });
      cpu.raw += cpuNow() - started;
    }
    const u = upsert.figures();
    const r = raw.figures();
    result.upsert = { batches: u, wallMs: u.wallMs, entitiesPerSecond: Math.round((N / u.wallMs) * 1000) };
    result.raw = { batches: r, wallMs: r.wallMs, entitiesPerSecond: Math.round((N / r.wallMs) * 1000) };
    result.overhead = Math.round((u.wallMs / r.wallMs) * 100) / 100;
    result.processCpu = {
      upsertMs: Math.round(cpu.upsert),
      rawMs: Math.round(cpu.raw),
      overhead: Math.round((cpu.upsert / cpu.raw) * 100) / 100,
    };
    await rawDb.dispose();

    // 3. Planner statistics first (PGlite has no autovacuum; the store also analyzes as it goes).
    await brokerDb.storage.db.execute(sql`ANALYZE`);
    console.error(`[${name}] type + q query, page one with count=true...`);
    let count = 0;
    let matched = 0;
    const pageOne = await timed(QUERY_REPEATS, 1, async () => {
      const res = await broker.call(
        "GET",
        "/entities?type=Sensor&q=temperature%3E20&count=true&limit=20",
        200,
      );
      count = (JSON.parse(res.text) as unknown[]).length;
      matched = Number(res.headers["ngsild-results-count"]);
    });
    if (count !== 20 || matched < 1) throw new Error(`page one: ${count} entities of ${matched}`);
    result.pageOne = { ...pageOne, count, matched };
    result.pageOneWithoutCount = await timed(QUERY_REPEATS, 1, async () => {
      await broker.call("GET", "/entities?type=Sensor&q=temperature%3E20&limit=20", 200);
    });
    // The broker carries a remembered count forward by its own writes: the same query after a
    // write (not timed) needs no count again (bench/city-broker.ts also times another broker's write).
    const afterWrite = new Sample();
    for (let k = 0; k < QUERY_REPEATS; k++) {
      await broker.call("PATCH", `/entities/${entity(k).id}/attrs`, 204, {
        status: { type: "Property", value: k % 2 ? "off" : "on" },
      });
      const start = performance.now();
      await broker.call("GET", "/entities?type=Sensor&q=temperature%3E20&count=true&limit=20", 200);
      afterWrite.record(performance.now() - start);
    }
    result.pageOneAfterWrite = afterWrite.figures();

    // 4.
    console.error(`[${name}] notification latency over ${NOTIFY_REPEATS} updates...`);
    const rec = await receiver();
    closing(rec.close);
    const watched = entity(0).id;
    await broker.call("POST", "/subscriptions", 201, {
      type: "Subscription",
      entities: [{ id: watched, type: "Sensor" }],
      watchedAttributes: ["temperature"],
      notification: { endpoint: { uri: rec.url } },
    });
    const notification = new Sample();
    const latencies: number[] = [];
    await notification.run(0, NOTIFY_REPEATS, 1, async (k) => {
      const arrived = rec.next();
      const start = performance.now();
      await broker.call("PATCH", `/entities/${watched}/attrs`, 204, {
        temperature: { type: "Property", value: 100 + k },
      });
      latencies.push((await arrived) - start);
    });
    // Sample measures the call; the latency is update start to arrival.
    const sorted = [...latencies].sort((a, b) => a - b);
    const pct = (p: number) =>
      Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 100) / 100;
    result.notification = {
      ...notification.figures(),
      p50Ms: pct(50),
      p95Ms: pct(95),
      maxMs: Math.round(sorted.at(-1)! * 100) / 100,
    };

    // 5. Temporal load: TEMPORAL_ENTITIES meters with TEMPORAL_INSTANCES / TEMPORAL_ENTITIES
    // instances each, one a minute, loaded over HTTP with many instances per request: half with
    // POST /temporal/entities (creates the meter), half with POST /temporal/entities/{id}/attrs.
    const perEntity = Math.max(2, Math.round(TEMPORAL_INSTANCES / TEMPORAL_ENTITIES));
    const half = Math.ceil(perEntity / 2);
    console.error(`[${name}] temporal load: ${perEntity * TEMPORAL_ENTITIES} instances over HTTP...`);
    const tenant = { "NGSILD-Tenant": "temporal" };
    const power = (e: number, from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => {
        const i = from + k;
        return {
          type: "Property",
          value: (e * 7 + i) % 1000,
          observedAt: new Date(Date.UTC(2024, 0, 1) + (i + 1) * 60_000).toISOString(),
        };
      });
    const meter = (e: number) => `urn:ngsi-ld:Meter:${pad(e)}`;
    const load = new Sample();
    const loadCpu = cpuNow();
    // Every meter is created before the appends start (the first append is the first meter's).
    await load.run(0, TEMPORAL_ENTITIES * 2, CONCURRENCY, async (k) => {
      const e = 1 + (k % TEMPORAL_ENTITIES);
      if (k < TEMPORAL_ENTITIES)
        await broker.call(
          "POST",
          "/temporal/entities",
          201,
          { id: meter(e), type: "Meter", power: power(e, 0, half) },
          tenant,
        );
      else
        await broker.call(
          "POST",
          `/temporal/entities/${meter(e)}/attrs`,
          204,
          { power: power(e, half, perEntity) },
          tenant,
        );
    });
    const loaded = load.figures();
    const loadCpuMs = Math.round(cpuNow() - loadCpu);
    const db = brokerDb.storage.db;
    await db.execute(sql`ANALYZE broker_history_writes`);
    await db.execute(sql`ANALYZE broker_temporal_entities`);
    const instancesStored = rowsCount(
      await db.execute(
        sql`SELECT coalesce(sum(jsonb_array_length(instances)), 0)::int AS n FROM broker_history_writes WHERE tenant = 'temporal'`,
      ),
    );
    if (instancesStored !== perEntity * TEMPORAL_ENTITIES)
      throw new Error(
        `temporal load: ${instancesStored} instances stored of ${perEntity * TEMPORAL_ENTITIES}`,
      );
    console.error(`[${name}] temporal queries...`);
    const windowStart = new Date(Date.UTC(2024, 0, 1) + Math.floor(perEntity / 2) * 60_000).toISOString();
    const windowEnd = new Date(Date.parse(windowStart) + 60 * 60_000).toISOString();
    let instancesPerResponse = 0;
    const windowCpu = cpuNow();
    const typeWindow = await timed(QUERY_REPEATS, 1, async (k) => {
      const offset = (k * 20) % TEMPORAL_ENTITIES;
      const res = await broker.call(
        "GET",
        `/temporal/entities?type=Meter&timerel=between&timeAt=${windowStart}&endTimeAt=${windowEnd}&limit=20&offset=${offset}`,
        200,
        undefined,
        tenant,
      );
      const entities = JSON.parse(res.text) as Array<{ power?: unknown[] }>;
      instancesPerResponse = entities.reduce((n, e) => n + (e.power?.length ?? 0), 0);
    });
    const windowCpuMs = Math.round(cpuNow() - windowCpu);
    const entityLastN = await timed(QUERY_REPEATS, 1, async (k) => {
      await broker.call(
        "GET",
        `/temporal/entities/urn:ngsi-ld:Meter:${pad(1 + ((k * 37) % TEMPORAL_ENTITIES))}?lastN=100`,
        200,
        undefined,
        tenant,
      );
    });
    result.temporal = {
      instances: instancesStored,
      load: {
        requests: loaded,
        instancesPerRequest: half,
        wallMs: loaded.wallMs,
        instancesPerSecond: Math.round((instancesStored / loaded.wallMs) * 1000),
        processCpuMs: loadCpuMs,
      },
      typeWindow: { ...typeWindow, instancesPerResponse, processCpuMs: windowCpuMs },
      entityLastN,
    };

    result.goals = {
      pageOneUnder50ms: result.pageOne.p50Ms < GOALS.maxPageOneMs,
      overheadWithin3x: result.overhead <= GOALS.maxOverhead,
      temporalLoadFastEnough: result.temporal.load.instancesPerSecond >= GOALS.minTemporalLoadPerSecond[name],
      ...(name === "postgresql"
        ? { upsertAtLeast10kPerSecond: result.upsert.entitiesPerSecond >= GOALS.minUpsertPerSecondPostgres }
        : {}),
    };
  });
}

function print(results: DriverResult[]): void {
  const col = cellsOf(results);
  const n = (v?: number) => (v === undefined ? "-" : v.toLocaleString("en-US"));
  const rows = [
    [
      `Batch upsert over HTTP (${BATCH}/batch)`,
      ...col((r) => `${n(r.upsert?.entitiesPerSecond)} entities/s`),
    ],
    ["  per batch p50 / p95", ...col((r) => lat(r.upsert?.batches))],
    [`Raw multi-row INSERT (${BATCH}/statement)`, ...col((r) => `${n(r.raw?.entitiesPerSecond)} entities/s`)],
    ["Overhead (upsert / raw insert time)", ...col((r) => `${r.overhead}x`)],
    [
      "  bench process CPU, upsert / raw (PGlite: all)",
      ...col(
        (r) => `${n(r.processCpu?.upsertMs)} / ${n(r.processCpu?.rawMs)} ms = ${r.processCpu?.overhead}x`,
      ),
    ],
    [`type + q, page one, count=true`, ...col((r) => lat(r.pageOne))],
    ["  matches counted", ...col((r) => n(r.pageOne?.matched))],
    ["  the same page without count", ...col((r) => lat(r.pageOneWithoutCount))],
    ["  with count, right after a write", ...col((r) => lat(r.pageOneAfterWrite))],
    ["Notification latency (update -> receiver)", ...col((r) => lat(r.notification))],
    ["  update requests", ...col((r) => rate(r.notification))],
    [`Temporal load over HTTP (instances/s)`, ...col((r) => `${n(r.temporal?.load.instancesPerSecond)}/s`)],
    ["  instances loaded", ...col((r) => n(r.temporal?.instances))],
    ["  bench process CPU while loading", ...col((r) => `${n(r.temporal?.load.processCpuMs)} ms`)],
    ["  per request p50 / p95", ...col((r) => lat(r.temporal?.load.requests))],
    ["  type + between, 20 entities", ...col((r) => lat(r.temporal?.typeWindow))],
    ["    instances per response", ...col((r) => n(r.temporal?.typeWindow.instancesPerResponse))],
    ["    bench process CPU, all repeats", ...col((r) => `${n(r.temporal?.typeWindow.processCpuMs)} ms`)],
    ["  one entity, lastN=100", ...col((r) => lat(r.temporal?.entityLastN))],
    [
      `Goal: >= ${n(GOALS.minUpsertPerSecondPostgres)} entities/s (PostgreSQL)`,
      ...col((r) => met(r.goals?.upsertAtLeast10kPerSecond)),
    ],
    [`Goal: page one p50 < ${GOALS.maxPageOneMs} ms`, ...col((r) => met(r.goals?.pageOneUnder50ms))],
    [`Goal: overhead <= ${GOALS.maxOverhead}x`, ...col((r) => met(r.goals?.overheadWithin3x))],
    [
      `Goal: temporal load >= ${n(GOALS.minTemporalLoadPerSecond.postgresql)}/s PostgreSQL, ${n(GOALS.minTemporalLoadPerSecond.pglite)}/s PGlite`,
      ...col((r) => met(r.goals?.temporalLoadFastEnough)),
    ],
  ];
  console.log(
    `\nOrrery embedded NGSI-LD broker: ${n(N)} entities, ${CONCURRENCY} batches in flight, node ${process.version}\n`,
  );
  console.log(table(["", ...results.map((r) => `${r.driver} ${r.serverVersion ?? ""}`.trim())], rows));
  for (const r of results.filter((r) => r.error)) console.log(`\n${r.driver} failed: ${r.error}`);
}

async function main(): Promise<number> {
  const results: DriverResult[] = [];
  for (const name of DRIVERS) results.push(await benchDriver(name));
  if (stopping()) return 2;
  print(results);
  const allGoalsMet = results.every(
    (r) =>
      r.goals?.pageOneUnder50ms &&
      r.goals.overheadWithin3x &&
      r.goals.upsertAtLeast10kPerSecond !== false &&
      r.goals.temporalLoadFastEnough,
  );
  const out = writeResults("broker", LOAD_BEFORE, {
    versions: Object.fromEntries(
      ["@electric-sql/pglite", "pg", "drizzle-orm", "fastify"].map((p) => [p, packageVersion(p)]),
    ),
    settings: {
      entities: N,
      batch: BATCH,
      concurrency: CONCURRENCY,
      temporalInstances: TEMPORAL_INSTANCES,
      temporalEntities: TEMPORAL_ENTITIES,
      queryRepeats: QUERY_REPEATS,
      notifyRepeats: NOTIFY_REPEATS,
    },
    goals: GOALS,
    allGoalsMet,
    drivers: results,
  });
  console.log(`\nGoals ${allGoalsMet ? "met" : "NOT met"}. Written: ${out}`);
  return results.some((r) => r.error) ? 1 : 0;
}

runBench(main, TIME_LIMIT_S);
