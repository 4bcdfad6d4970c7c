/**
 * bench/load (issue 26): many users at once. 50 clients, each with its own keep-alive connection,
 * ask the API in its own process (as `npm start` runs it) for the same screen again and again for
 * a while: the list of context brokers (100 records), and a workspace's entities page (the console's
 * first page of the entities tab: 20 of 1,000 buildings, sorted by name, with the count) served by
 * the embedded broker. Figures: requests per second and latency percentiles. Goal: the entities
 * page's p95 under 250 ms. On PGlite (and PostgreSQL with BENCH_DRIVERS). Writes bench/results/load.json.
 *
 * Environment: BENCH_CLIENTS (50), BENCH_SECONDS per screen (10), BENCH_DRIVERS ("pglite"),
 * BENCH_DATABASE_URL (see bench/lib/databases.ts), BENCH_TIME_LIMIT_SECONDS (600).
 */
import { startApiProcess, type RunningApi } from "./lib/api.ts";
import { buildingsCsv, buildingWorkspace } from "./lib/buildings.ts";
import { pgliteDriver, postgresDriver, type DriverName } from "./lib/databases.ts";
import { hammer } from "./lib/hammer.ts";
import { lat, loadAverage, met, rate, table, writeResults } from "./lib/report.ts";
import { runBench, stopping } from "./lib/run.ts";
import { sized } from "./lib/smoke.ts";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? sized(50, 4));
const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(10, 1));
const BROKERS = sized(100, 5);
const BUILDINGS = sized(1_000, 30);
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite")
  .split(",")
  .filter((d): d is DriverName => d === "pglite" || d === "postgresql");
const GOALS = { entitiesP95Ms: 250 };
const LOAD_BEFORE = loadAverage();
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 600);

/** CLIENTS callers asking for `path` one after the other, each on its own connection, for SECONDS. */
const hammerPath = (api: RunningApi & { token: string }, path: string) => hammer(api, path, CLIENTS, SECONDS);

async function benchDriver(name: DriverName) {
  const driver = name === "pglite" ? pgliteDriver() : await postgresDriver();
  const place = await driver.vacant();
  const api = await startApiProcess(place);
  try {
    console.error(`[${name}] ${BROKERS} context brokers, ${BUILDINGS} buildings...`);
    for (let i = 0; i < BROKERS; i++)
      await api.call("POST", "/api/context-brokers", 201, {
        name: `Broker ${String(i).padStart(4, "0")}`,
        scheme: "http",
        host: `broker-${i}.example`,
        port: 1026,
        paginationMaxLimit: 1000,
        implementationName: "orion-ld",
        implementationVersion: "1.6",
      });
    const port = new URL(api.base).port;
    const { path, typeId } = await buildingWorkspace(api, port, "load");
    const csv = buildingsCsv("b", BUILDINGS);
    await api.call("POST", `${path}/entities/import?typeId=${typeId}`, 200, csv, "text/csv");
    const page = `${path}/entities?${new URLSearchParams({ typeId, limit: "20", offset: "0", order: "name", count: "true" })}`;
    console.error(`[${name}] ${CLIENTS} clients on the brokers list for ${SECONDS} s...`);
    const brokers = await hammerPath(api, "/api/context-brokers");
    console.error(`[${name}] ${CLIENTS} clients on the entities page for ${SECONDS} s...`);
    const entities = await hammerPath(api, page);
    return { driver: name, brokers, entities, goals: { entitiesP95: entities.p95Ms < GOALS.entitiesP95Ms } };
  } finally {
    await api.close();
    await place.dispose();
    await driver.close();
  }
}

async function main(): Promise<number> {
  const results: Awaited<ReturnType<typeof benchDriver>>[] = [];
  for (const name of DRIVERS) results.push(await benchDriver(name));
  if (stopping()) return 2;
  console.log(`\nOrrery under load: ${CLIENTS} clients, ${SECONDS} s per screen, node ${process.version}\n`);
  const col = (f: (r: (typeof results)[number]) => string) => results.map(f);
  console.log(
    table(
      ["", ...results.map((r) => r.driver)],
      [
        ["GET context brokers (100): rate", ...col((r) => rate(r.brokers))],
        ["  p50 / p95", ...col((r) => lat(r.brokers))],
        [`Entities page (20 of ${BUILDINGS}): rate`, ...col((r) => rate(r.entities))],
        ["  p50 / p95", ...col((r) => lat(r.entities))],
        [`Goal: entities page p95 < ${GOALS.entitiesP95Ms} ms`, ...col((r) => met(r.goals.entitiesP95))],
      ],
    ),
  );
  const allGoalsMet = results.every((r) => r.goals.entitiesP95);
  const out = writeResults("load", LOAD_BEFORE, {
    settings: { clients: CLIENTS, seconds: SECONDS, brokers: BROKERS, buildings: BUILDINGS },
    goals: GOALS,
    allGoalsMet,
    drivers: results,
  });
  console.log(`\nGoals ${allGoalsMet ? "met" : "NOT met"}. Written: ${out}`);
  return 0;
}

runBench(main, TIME_LIMIT_S);
