/**
 * A probe, not a bench (nothing is written to bench/results): the CPU a create costs below HTTP.
 * The API's repository (Records.create: the row, its audit event, the batched INSERT of
 * storage/write-batch.ts) called in this process, CONCURRENCY creates in flight, so that the
 * batches are as large as under that many clients. Prints the CPU time per create of this process
 * (on PGlite the database runs here too) and of the PostgreSQL backends, and the rows a statement.
 * What probe-api.ts measures of the API process per create, minus this, is what HTTP, routing,
 * validation, the session, metrics and the answer cost.
 *
 *   npx tsx bench/tools/probe-create-cpu.ts
 *   PROBE_DRIVER=postgresql (a throwaway server, or BENCH_DATABASE_URL), PROBE_RECORDS (4000 a
 *   round), PROBE_CONCURRENCY ("2,8,32,96": one round each, after PROBE_WARM creates not measured)
 */
import { randomBytes } from "node:crypto";
import { allKinds, contextBrokers } from "@orrery/model";
import { createCipher } from "../../apps/api/src/cipher.ts";
import { Records } from "../../apps/api/src/resources/records.ts";
import { openStorage } from "../../apps/api/src/storage/database.ts";
import { databaseQueries } from "../../apps/api/src/metrics/registry.ts";
import { brokerPayload } from "../lib/broker-payload.ts";
import { backendsCpuSince, databaseBackendsCpu, ownCpu } from "../lib/cpu.ts";
import { pgliteDriver, postgresDriver } from "../lib/databases.ts";

const DRIVER = process.env.PROBE_DRIVER ?? "pglite";
const N = Number(process.env.PROBE_RECORDS ?? 4000);
const WARM = Number(process.env.PROBE_WARM ?? 3000);
const LEVELS = (process.env.PROBE_CONCURRENCY ?? "2,8,32,96").split(",").map(Number);

const queries = async () => (await databaseQueries.get()).values.reduce((sum, v) => sum + v.value, 0);

const driver = DRIVER === "pglite" ? pgliteDriver() : await postgresDriver();
const place = await driver.vacant();
const storage = await openStorage(place);
try {
  const lanes = storage.driver === "postgresql" ? 2 : 1; // as apps/api/src/app.ts
  const records = new Records(storage.db, createCipher(randomBytes(32)), allKinds, lanes);
  const by = { subject: "probe", username: "probe", provider: "probe" };
  let made = 0;
  const round = async (count: number, concurrency: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await records.as(by).create(contextBrokers, brokerPayload(made++));
      }),
    );
  };
  await round(WARM, 32);
  for (const concurrency of LEVELS) {
    const backends = () => (place.databaseUrl ? databaseBackendsCpu(place.databaseUrl) : undefined);
    const before = { own: ownCpu(), db: await backends(), q: await queries(), at: performance.now() };
    await round(N, concurrency);
    const wall = performance.now() - before.at;
    const own = (ownCpu() - before.own) / N;
    const db = before.db ? backendsCpuSince(before.db, (await backends())!) / N : undefined;
    console.log(
      `${DRIVER}, ${concurrency} in flight: ${Math.round(own)} µs CPU a create in this process` +
        `${db === undefined ? " (the database's work included)" : `, ${Math.round(db)} µs in the PostgreSQL backends`}, ` +
        `${(N / ((await queries()) - before.q)).toFixed(1)} rows a statement, ${Math.round((N / wall) * 1000)}/s`,
    );
  }
} finally {
  await storage.close();
  await place.dispose();
  await driver.close();
}
process.exit(0);
