/**
 * A probe, not a bench (bench/smoke.ts does not run it; nothing is written to bench/results): the
 * two paths of bench/city.ts that the API owns, in this process on the embedded broker plugin (over
 * loopback HTTP for its writes), so that their cost is counted apart from the fill:
 *   - the CSV export's reading: the in-process reader (packages/broker/src/reader.ts), each entity
 *     turned into a row and the rows into CSV as the export route does: wall time, and this
 *     process's CPU time (process.cpuUsage) that the machine's load does not change much;
 *   - the CSV import (importRows): PROBE_ROWS rows with one chunk in flight, then with three, by
 *     turns, so that both meet the same load.
 *
 *   PROBE_DRIVER=postgresql|pglite (postgresql: a throwaway server, or BENCH_DATABASE_URL)
 *   PROBE_ENTITIES=100000 (the export's), PROBE_ROWS=10000 (each import's), PROBE_RUNS=3
 *   npx tsx bench/tools/probe-city.ts
 */
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { ngsiLdBroker, type EntityReader } from "@orrery/broker";
import { entityToRow, NgsiLdClient, type ColumnSpec, type Entity } from "@orrery/ngsi-ld";
import { csvLines, importRows, parseCsv } from "../../apps/api/src/context-data/entity-table.ts";
import { pgliteDriver, postgresDriver } from "../lib/databases.ts";
import { request } from "../lib/http.ts";
import { median } from "../lib/measure.ts";

const ENTITIES = Number(process.env.PROBE_ENTITIES ?? 100_000);
const ROWS = Number(process.env.PROBE_ROWS ?? 10_000);
const RUNS = Number(process.env.PROBE_RUNS ?? 3);
const columns: ColumnSpec[] = [
  { name: "name", ngsiLdType: "Property", valueType: "String" },
  { name: "power", ngsiLdType: "Property", valueType: "Number" },
  { name: "location", ngsiLdType: "GeoProperty" },
];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const driver = process.env.PROBE_DRIVER === "pglite" ? pgliteDriver() : await postgresDriver();
const fresh = await driver.fresh();
let reader: EntityReader | undefined;
const app = Fastify({ logger: { level: "warn" }, bodyLimit: 16 << 20 });
await app.register(ngsiLdBroker, {
  prefix: "/ngsi-ld/v1",
  db: fresh.storage.db,
  bodyLimit: 16 << 20,
  reader: (r) => (reader = r),
});
await app.listen({ host: "127.0.0.1", port: 0 });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
try {
  // The streetlights of bench/city.ts, two batches of 1,000 in flight.
  const fillStart = performance.now();
  let next = 0;
  const filler = async () => {
    for (let b = next++; b * 1000 < ENTITIES; b = next++) {
      const body = Array.from({ length: Math.min(1000, ENTITIES - b * 1000) }, (_, k) => {
        const i = b * 1000 + k;
        return {
          id: `urn:ngsi-ld:Streetlight:${String(i).padStart(7, "0")}`,
          type: "Streetlight",
          name: { type: "Property", value: `Streetlight ${i}` },
          power: { type: "Property", value: 20 + (i % 80) },
          location: {
            type: "GeoProperty",
            value: { type: "Point", coordinates: [2.2 + (i % 1000) / 3000, 48.8 + (i % 997) / 5000] },
          },
        };
      });
      const res = await request(
        `${origin}/ngsi-ld/v1/entityOperations/upsert`,
        "POST",
        { "content-type": "application/json" },
        JSON.stringify(body),
      );
      if (res.status !== 201) throw new Error(`upsert: ${res.status} ${res.text.slice(0, 300)}`);
    }
  };
  await Promise.all([filler(), filler()]);
  console.log(`filled ${ENTITIES} in ${Math.round(performance.now() - fillStart)} ms`);

  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const startCpu = cpuMs();
    let n = 0;
    const attrs = columns.map((c) => c.name);
    for await (const chunk of (await reader!.entitiesOfType({ type: "Streetlight", attrs }))!) {
      n += chunk.length;
      csvLines((chunk as Entity[]).map((e) => entityToRow(e, columns)));
    }
    if (n !== ENTITIES) throw new Error(`export read ${n} of ${ENTITIES}`);
    wall.push(performance.now() - start);
    cpu.push(cpuMs() - startCpu);
  }
  console.log(
    `export reading of ${ENTITIES}: median ${Math.round(median(wall))} ms wall, ${Math.round(median(cpu))} ms CPU of this process`,
  );

  const client = new NgsiLdClient({ baseUrl: origin, implementationName: "orrery", timeoutMs: 60_000 });
  const times: Record<number, number[]> = { 1: [], 3: [] };
  for (let run = 0; run < RUNS; run++)
    for (const inFlight of [1, 3]) {
      const csv = ["id,type,name,power,location"];
      for (let i = 0; i < ROWS; i++)
        csv.push(
          `urn:ngsi-ld:Meter:${run}-${inFlight}-${i},Meter,Meter ${i},${i % 100},"{""type"":""Point"",""coordinates"":[2.3,48.8]}"`,
        );
      const start = performance.now();
      const report = await importRows(client, "Meter", columns, parseCsv(csv.join("\n")), { inFlight });
      if (report.created !== ROWS) throw new Error(`import: ${JSON.stringify(report.rejected.slice(0, 2))}`);
      times[inFlight]!.push(performance.now() - start);
    }
  console.log(
    `import of ${ROWS} rows: median ${Math.round(median(times[1]!))} ms with one chunk in flight, ${Math.round(median(times[3]!))} ms with three`,
  );
} finally {
  await app.close();
  await fresh.dispose();
  await driver.close();
}
process.exit(0);
