/**
 * Context data benchmark, on PGlite and on PostgreSQL: the API in its own process with its embedded
 * broker, called over real HTTP. Figures: a 10,000-row CSV imported through the API (seconds end to
 * end), the same rows sent the original way (per row: GET the entity, then POST it; the rate of a
 * sample, as a ratio), and an export of 100,000 entities as CSV (seconds). Writes
 * bench/results/entities.json.
 *
 * Environment: BENCH_IMPORT_ROWS (10000), BENCH_ROW_BY_ROW (2000), BENCH_EXPORT_ENTITIES (100000),
 * BENCH_DRIVERS ("pglite,postgresql"), BENCH_DATABASE_URL (see bench/lib/databases.ts),
 * BENCH_TIME_LIMIT_SECONDS (1800).
 */

import { startApiProcess } from "./lib/api.ts";
import { buildingWorkspace as workspace, buildingsCsv as csv } from "./lib/buildings.ts";
import { pgliteDriver, postgresDriver, type DriverName } from "./lib/databases.ts";
import { loadAverage, met, table, writeResults } from "./lib/report.ts";
import { runBench } from "./lib/run.ts";
import { sized } from "./lib/smoke.ts";

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? sized(10_000, 40));
const ROW_BY_ROW = Number(process.env.BENCH_ROW_BY_ROW ?? sized(2_000, 20));
const EXPORT_ENTITIES = Number(process.env.BENCH_EXPORT_ENTITIES ?? sized(100_000, 200));
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite,postgresql")
  .split(",")
  .filter((d): d is DriverName => d === "pglite" || d === "postgresql");
const GOALS = { importSeconds: 5, importSpeedup: 20, exportSeconds: 10 };
const LOAD_BEFORE = loadAverage();
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 1800);

const seconds = (ms: number) => Math.round(ms / 10) / 100;

/** The entity the original console built from a row, sent the way it did: GET it, then POST it. */
const entity = (i: number) => ({
  id: `urn:ngsi-ld:Building:one${i}`,
  type: "Building",
  name: { type: "Property", value: `Building ${i}` },
  floors: { type: "Property", value: (i % 40) + 0.5 },
  open: { type: "Property", value: i % 2 === 1 },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [(i % 360) - 180, (i % 170) - 85] } },
  owner: { type: "Relationship", object: "urn:ngsi-ld:Building:one0" },
});

async function benchDriver(name: DriverName) {
  const driver = name === "pglite" ? pgliteDriver() : await postgresDriver();
  const place = await driver.vacant();
  const api = await startApiProcess(place);
  try {
    const port = new URL(api.base).port;
    const imported = await workspace(api, port, "imports");
    const file = csv("csv", IMPORT_ROWS);
    console.error(`[${name}] import of ${IMPORT_ROWS} rows...`);
    let start = performance.now();
    const report = JSON.parse(
      await api.call(
        "POST",
        `${imported.path}/entities/import?typeId=${imported.typeId}`,
        200,
        file,
        "text/csv",
      ),
    );
    const importMs = performance.now() - start;
    if (report.created !== IMPORT_ROWS) throw new Error(`import: ${JSON.stringify(report).slice(0, 300)}`);

    console.error(`[${name}] ${ROW_BY_ROW} rows one request at a time, the original way...`);
    start = performance.now();
    for (let i = 0; i < ROW_BY_ROW; i++) {
      const id = encodeURIComponent(`urn:ngsi-ld:Building:one${i}`);
      await api.call("GET", `${imported.path}/entities/${id}`, 404);
      await api.call("POST", `${imported.path}/entities`, 201, entity(i));
    }
    const rowByRowMs = performance.now() - start;
    const rowByRowPerSecond = (ROW_BY_ROW / rowByRowMs) * 1000;
    const importPerSecond = (IMPORT_ROWS / importMs) * 1000;

    const exported = await workspace(api, port, "exports");
    console.error(`[${name}] loading ${EXPORT_ENTITIES} entities for the export...`);
    for (let from = 0; from < EXPORT_ENTITIES; from += 10_000) {
      const n = Math.min(10_000, EXPORT_ENTITIES - from);
      const rows = csv(`e${from}-`, n);
      await api.call(
        "POST",
        `${exported.path}/entities/import?typeId=${exported.typeId}`,
        200,
        rows,
        "text/csv",
      );
    }
    console.error(`[${name}] export...`);
    start = performance.now();
    const text = await api.call("GET", `${exported.path}/entities/export?typeId=${exported.typeId}`, 200);
    const exportMs = performance.now() - start;
    const lines = text.trim().split("\r\n").length - 1;
    if (lines !== EXPORT_ENTITIES) throw new Error(`export: ${lines} rows instead of ${EXPORT_ENTITIES}`);
    return {
      driver: name,
      import: { rows: IMPORT_ROWS, seconds: seconds(importMs), rowsPerSecond: Math.round(importPerSecond) },
      rowByRow: {
        rows: ROW_BY_ROW,
        seconds: seconds(rowByRowMs),
        rowsPerSecond: Math.round(rowByRowPerSecond),
      },
      importSpeedup: Math.round((importPerSecond / rowByRowPerSecond) * 10) / 10,
      export: { entities: EXPORT_ENTITIES, seconds: seconds(exportMs), bytes: Buffer.byteLength(text) },
    };
  } finally {
    await api.close();
    await place.dispose();
    await driver.close();
  }
}

async function main(): Promise<number> {
  const results: Array<Awaited<ReturnType<typeof benchDriver>>> = [];
  for (const name of DRIVERS) results.push(await benchDriver(name));
  const goals = (r: (typeof results)[number]) => ({
    importUnder5s: r.import.seconds < GOALS.importSeconds,
    importAtLeast20xRowByRow: r.importSpeedup >= GOALS.importSpeedup,
    exportUnder10s: r.export.seconds < GOALS.exportSeconds,
  });
  console.log(`\nOrrery context data: import, row-by-row, export; node ${process.version}\n`);
  console.log(
    table(
      ["", ...results.map((r) => r.driver)],
      [
        [
          `Import of ${IMPORT_ROWS} CSV rows`,
          ...results.map((r) => `${r.import.seconds} s (${r.import.rowsPerSecond}/s)`),
        ],
        [`Row by row (${ROW_BY_ROW} rows)`, ...results.map((r) => `${r.rowByRow.rowsPerSecond}/s`)],
        ["Import speed-up", ...results.map((r) => `${r.importSpeedup}x`)],
        [`Export of ${EXPORT_ENTITIES}`, ...results.map((r) => `${r.export.seconds} s`)],
        [`Goal: import < ${GOALS.importSeconds} s`, ...results.map((r) => met(goals(r).importUnder5s))],
        [
          `Goal: >= ${GOALS.importSpeedup}x row by row`,
          ...results.map((r) => met(goals(r).importAtLeast20xRowByRow)),
        ],
        [`Goal: export < ${GOALS.exportSeconds} s`, ...results.map((r) => met(goals(r).exportUnder10s))],
      ],
    ),
  );
  const out = writeResults("entities", LOAD_BEFORE, {
    goals: GOALS,
    drivers: results.map((r) => ({ ...r, goals: goals(r) })),
  });
  console.log(`\nWritten: ${out}`);
  return 0;
}

runBench(main, TIME_LIMIT_S);
