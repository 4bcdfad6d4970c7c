/**
 * What GET /metrics costs a request (issue 38): the CPU per request of two Fastify apps with one
 * route each, one with the request metrics' hook (apps/api/src/metrics/requests.ts) and one
 * without, called in process by turns (light-my-request), so that the machine's load falls on both
 * alike; and the cost of one counted database statement (the drizzle logger's counter). Prints
 * microseconds; writes nothing. BENCH_REQUESTS (default 5000 a turn), BENCH_TURNS (default 8).
 *
 *   npx tsx bench/metrics-cost.ts
 */
import Fastify from "fastify";
import { databaseQueries } from "../apps/api/src/metrics/registry.ts";
import { registerRequestMetrics } from "../apps/api/src/metrics/requests.ts";
import { median } from "./lib/measure.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5_000);
const TURNS = Number(process.env.BENCH_TURNS ?? 8);

async function appWith(metrics: boolean) {
  const app = Fastify();
  if (metrics) registerRequestMetrics(app);
  app.get("/api/context-brokers/:id", async (request) => ({ id: (request.params as { id: string }).id }));
  await app.ready();
  return app;
}

/** CPU microseconds per request over one turn. */
async function turn(app: Awaited<ReturnType<typeof appWith>>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++)
    await app.inject({ method: "GET", url: `/api/context-brokers/urn:ngsi-ld:ContextBroker:${i}` });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REQUESTS;
}

const without = await appWith(false);
const withMetrics = await appWith(true);
// Warm both up: a fresh process compiles its hot paths first.
await turn(without);
await turn(withMetrics);
const off: number[] = [];
const on: number[] = [];
for (let i = 0; i < TURNS; i++) {
  off.push(await turn(without));
  on.push(await turn(withMetrics));
}
const labels = { driver: "pglite" };
const start = process.cpuUsage();
for (let i = 0; i < 1_000_000; i++) databaseQueries.inc(labels);
const counted = process.cpuUsage(start);
const perQuery = (counted.user + counted.system) / 1_000_000;
const [a, b] = [median(off), median(on)];
console.log(`CPU per request, ${TURNS} turns of ${REQUESTS} by turns (median):`);
console.log(`  without the metrics hook  ${a.toFixed(2)} µs`);
console.log(
  `  with the metrics hook     ${b.toFixed(2)} µs  (+${(b - a).toFixed(2)} µs, ${(((b - a) / a) * 100).toFixed(1)}%)`,
);
console.log(`one counted database statement: ${(perQuery * 1000).toFixed(0)} ns`);
await without.close();
await withMetrics.close();
