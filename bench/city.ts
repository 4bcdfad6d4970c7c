/**
 * bench/city (issue 38, "A city's size"): one tenant with up to 1,000,000 entities of a type,
 * filled through the embedded broker's batch API, measured at each step (10k, 100k, 1M; capped by
 * BENCH_ENTITIES) with how each cost grows (bench/lib/growth.ts):
 * - a bounding box holding 10,000 of them (fewer at smaller steps: a box of 1% of the city), read
 *   over HTTP from /ngsi-ld/v1 in pages of 1,000 (georel=within, the spatial index of migration
 *   broker_0008), the same box each run;
 * - the map's area flow as the console makes it (mapData.ts loadMapEntities with an area): GET
 *   /api/workspace/{ws}/entities with georel=intersects on a rectangle, attrs=location,name, 1,000 a
 *   page up to 10,000, count=true on the first; a box of the same size moved at each run, so that
 *   no run reuses what the broker kept of the previous one: goal < 1 s at 1M;
 * - the CSV export of the whole type (GET /api/workspace/{ws}/entities/export), streamed: time,
 *   bytes, and the API process's resident memory sampled every 50 ms during it (peak, and the
 *   baseline before): goal < 30 s at 1M, memory flat;
 * - the CSV import of min(step, 100,000) rows of another type (POST .../entities/import): goal
 *   < 20 s for 100,000;
 * - the entities tab's first page in Chromium (20 rows and the total): goal < 500 ms at 1M;
 * - the console's map tab until it shows its shapes: it reads the type's first 10,000 entities
 *   (mapData.ts), not a bounding box (goal of the box: < 1 s at 1M).
 * The API runs in its own process (bench/lib/api.ts startApiProcess) so that its RSS is its own.
 * Each figure is measured RUNS (3) times within one fill and its median kept (the export's memory:
 * the peak over the runs), so a run fills once: at 1M the fill is most of the bench's time.
 * Goals are printed as met or not, never asserted. Writes bench/results/city.json.
 * Run: `npx tsx bench/city.ts` (BENCH_ENTITIES=100000 to stop at 100k; BENCH_DRIVERS=pglite,postgresql;
 * BENCH_SKIP_BROWSER=1 without Chromium; BENCH_SKIP_BUILD=1 keeps apps/console/dist;
 * BENCH_TIME_LIMIT_SECONDS, default 5400). Smoke (BENCH_SMOKE=1): steps of 200 and 400.
 */
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../e2e/chromium.ts";
import { embeddedWorkspace, json, startApiProcess } from "./lib/api.ts";
import { signedInContexts } from "./lib/browser.ts";
import { onCleanup } from "./lib/cleanup.ts";
import { onDriver, type DriverName } from "./lib/databases.ts";
import { growth, growthLine, type Growth } from "./lib/growth.ts";
import { median } from "./lib/measure.ts";
import { loadAverage, packageVersion, writeResults } from "./lib/report.ts";
import { runBench } from "./lib/run.ts";
import { smoke } from "./lib/smoke.ts";

const root = resolve(import.meta.dirname, "..");
const CAP = Number(process.env.BENCH_ENTITIES ?? 1_000_000);
const STEPS = (smoke ? [200, 400] : [10_000, 100_000, 1_000_000]).filter((s) => s <= CAP);
if (!STEPS.length) STEPS.push(CAP);
const BATCH = smoke ? 100 : 1_000;
const IMPORT_ROWS = smoke ? 100 : 100_000;
const BOX_ENTITIES = 10_000;
const RUNS = smoke ? 1 : 3;
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite").split(",") as DriverName[];
const WITH_BROWSER = process.env.BENCH_SKIP_BROWSER !== "1";
const GOALS = { boxMs: 1000, exportS: 30, importS: 20, entitiesTabMs: 500 };
const LOAD_BEFORE = loadAverage();
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 5400);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (...args: unknown[]) => console.error(...args);

/** The city: a 0.3 x 0.2 degree box (Paris-sized); entity i at a pseudo-random spot, the same for every run. */
const CITY = { x: 2.2, y: 48.8, w: 0.3, h: 0.2 };
function spot(i: number): [number, number] {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  const a = ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  let k = Math.imul((i + 0x6d2b79f5) ^ 0x27d4eb2f, 0x165667b1);
  k = Math.imul(k ^ (k >>> 15), 0x85ebca77);
  const b = ((k ^ (k >>> 13)) >>> 0) / 4294967296;
  return [round(CITY.x + a * CITY.w, 6), round(CITY.y + b * CITY.h, 6)];
}

/** A square box, centred in the city, holding about `share` of the entities. */
function centralBox(share: number): number[][][] {
  const side = Math.sqrt(share);
  const x1 = CITY.x + (CITY.w * (1 - side)) / 2;
  const y1 = CITY.y + (CITY.h * (1 - side)) / 2;
  const x2 = x1 + CITY.w * side;
  const y2 = y1 + CITY.h * side;
  return [
    [
      [x1, y1],
      [x2, y1],
      [x2, y2],
      [x1, y2],
      [x1, y1],
    ],
  ];
}

/** The box of centralBox moved east by `shift` times its width (another area of the same size). */
function movedBox(share: number, shift: number): number[][][] {
  const dx = CITY.w * Math.sqrt(share) * shift;
  return centralBox(share).map((ring) => ring.map(([x, y]) => [round(x! + dx, 9), y!]));
}

/** Resident memory of a process in MB (VmRSS). */
function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line ? Number(line[1]) / 1024 : NaN;
}

interface StepFigures {
  entities: number;
  fillS: number;
  box: { entities: number; ms: number; runs: number[] };
  /** The console's map of an area, through the API (mapData.ts). */
  mapArea: { entities: number; total: number; requests: number; ms: number; runs: number[] };
  /** Median of RUNS exports; the peak RSS over all of them. */
  export: { s: number; runs: number[]; bytes: number; lines: number; rssBeforeMb: number; rssPeakMb: number };
  /** Median of RUNS imports of `rows` new entities each. */
  import: { rows: number; s: number; runs: number[]; created: number; rejected: number };
  entitiesTabMs?: number;
  /** The console's map tab showing its 10,000 shapes (min(step, 10,000)). */
  mapTabMs?: number;
}

interface DriverResult {
  driver: DriverName;
  source?: string;
  error?: string;
  steps?: StepFigures[];
  growth?: Growth[];
}

async function runDriver(name: DriverName): Promise<DriverResult> {
  return onDriver<DriverResult>(name, async (driver, result) => {
    const place = await driver.vacant();
    const api = await startApiProcess(place);
    const port = Number(new URL(api.base).port);
    const { base, token } = api;
    const ws = await embeddedWorkspace(api, port, "city", { dataModelName: `city-${name}` });
    const typeIds: Record<string, string> = {};
    for (const typeName of ["Streetlight", "Meter"]) {
      const type = await json(api.call("POST", `/api/workspace/${ws}/types`, 201, { name: typeName }));
      typeIds[typeName] = type.id;
      for (const property of [
        { name: "name", ngsiLdType: "Property", propertyNgsiLdValueType: "String" },
        { name: "power", ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
        { name: "location", ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: "Point" },
      ])
        await api.call("POST", `/api/workspace/${ws}/properties`, 201, { ...property, hasType: type.id });
    }
    await api.call("POST", `/api/workspace/${ws}/data-model/generate`, 200, {});
    const model = await json<{ dataModelName: string; dataModelVersion: number }>(
      api.call("GET", `/api/workspaces/${ws}`, 200),
    );
    const link = `<${base}/data-models/${model.dataModelName}/${model.dataModelVersion}/context.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`;
    const ngsi = (path: string, init: RequestInit = {}) =>
      fetch(`${base}/ngsi-ld/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, link, ...(init.headers as Record<string, string>) },
      });

    let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
    let signedIn: (() => Promise<import("playwright-core").BrowserContext>) | undefined;
    if (WITH_BROWSER) {
      browser = await chromium.launch(chromiumLaunchOptions);
      onCleanup(() => browser!.close());
      signedIn = await signedInContexts(browser, base);
    }

    const steps: StepFigures[] = [];
    let filled = 0;
    let fillMs = 0;
    for (const size of STEPS) {
      log(`[${name}] filling to ${size.toLocaleString("en")} streetlights...`);
      const fillStart = performance.now();
      for (; filled < size; filled += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, size - filled) }, (_, k) => {
          const i = filled + k;
          return {
            id: `urn:ngsi-ld:Streetlight:${String(i).padStart(7, "0")}`,
            type: "Streetlight",
            name: { type: "Property", value: `Streetlight ${i}` },
            power: { type: "Property", value: 20 + (i % 80) },
            location: { type: "GeoProperty", value: { type: "Point", coordinates: spot(i) } },
          };
        });
        const res = await ngsi("/entityOperations/upsert", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(batch),
        });
        const text = await res.text();
        if (res.status !== 201 && res.status !== 204)
          throw new Error(`upsert: ${res.status} ${text.slice(0, 300)}`);
        if ((filled / BATCH) % 100 === 99)
          log(`  ${filled + BATCH} (${Math.round((performance.now() - fillStart) / 1000)} s)`);
      }
      filled = size;
      fillMs += performance.now() - fillStart;

      // The bounding box: 10,000 entities at 1M, the same 1% of the city at smaller steps.
      const coordinates = JSON.stringify(centralBox(Math.min(1, BOX_ENTITIES / 1_000_000)));
      const boxRuns: number[] = [];
      let inBox = 0;
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        inBox = 0;
        for (let offset = 0; ; offset += 1000) {
          const params = new URLSearchParams({
            type: "Streetlight",
            georel: "within",
            geometry: "Polygon",
            coordinates,
            attrs: "name,location",
            limit: "1000",
            offset: String(offset),
          });
          const res = await ngsi(`/entities?${params}`);
          const page = (await res.json()) as unknown[];
          if (res.status !== 200) throw new Error(`box: ${res.status} ${JSON.stringify(page).slice(0, 300)}`);
          inBox += page.length;
          if (page.length < 1000) break;
        }
        boxRuns.push(performance.now() - start);
      }

      // The map of an area as the console asks it (mapData.ts: MAP_PAGE 1,000, MAP_CAP 10,000).
      const areaRuns: number[] = [];
      let inArea = 0;
      let areaTotal = 0;
      let areaRequests = 0;
      for (let run = 0; run < RUNS; run++) {
        const ring = movedBox(Math.min(1, BOX_ENTITIES / 1_000_000), run * 0.25);
        const start = performance.now();
        inArea = 0;
        areaRequests = 0;
        for (let offset = 0; offset < BOX_ENTITIES; offset += 1000) {
          const params = new URLSearchParams({
            type: "Streetlight",
            georel: "intersects",
            geometry: "Polygon",
            coordinates: JSON.stringify(ring),
            geoproperty: "location",
            attrs: "location,name",
            limit: "1000",
            offset: String(offset),
            ...(offset === 0 ? { count: "true" } : {}),
          });
          const res = await fetch(`${base}/api/workspace/${ws}/entities?${params}`, {
            headers: { authorization: `Bearer ${token}`, accept: "application/json" },
          });
          const page = (await res.json()) as unknown[];
          areaRequests++;
          if (res.status !== 200)
            throw new Error(`map area: ${res.status} ${JSON.stringify(page).slice(0, 300)}`);
          if (offset === 0) areaTotal = Number(res.headers.get("x-total-count") ?? NaN);
          inArea += page.length;
          if (page.length < 1000) break;
        }
        areaRuns.push(performance.now() - start);
      }

      // The export, RUNS times within this fill (median time; memory: the baseline before the first,
      // the peak over all), with the API process's memory sampled while it streams.
      const rssBefore = rssMb(api.pid);
      let rssPeak = rssBefore;
      const exportRuns: number[] = [];
      let bytes = 0;
      let lines = 0;
      for (let run = 0; run < RUNS; run++) {
        const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(api.pid))), 50);
        const exportStart = performance.now();
        const res = await fetch(
          `${base}/api/workspace/${ws}/entities/export?typeId=${encodeURIComponent(typeIds.Streetlight!)}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
        bytes = 0;
        lines = 0;
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          for (const byte of chunk) if (byte === 10) lines++;
        }
        exportRuns.push((performance.now() - exportStart) / 1000);
        clearInterval(sampler);
        rssPeak = Math.max(rssPeak, rssMb(api.pid));
        if (lines < size + 1) throw new Error(`export: ${lines} lines for ${size} entities`);
      }
      const exportS = median(exportRuns);

      // The import, RUNS times within this fill (median): rows of another type, new ids each time.
      const rows = Math.min(size, IMPORT_ROWS);
      const importRuns: number[] = [];
      let report = { created: 0, rejected: [] as unknown[] };
      for (let run = 0; run < RUNS; run++) {
        const csv = ["id,type,name,power,location"];
        for (let i = 0; i < rows; i++) {
          const [x, y] = spot(size + i);
          csv.push(
            `urn:ngsi-ld:Meter:${size}-${run}-${i},Meter,Meter ${i},${i % 100},"{""type"":""Point"",""coordinates"":[${x},${y}]}"`,
          );
        }
        const importStart = performance.now();
        report = await json<{ created: number; rejected: unknown[] }>(
          api.call(
            "POST",
            `/api/workspace/${ws}/entities/import?typeId=${encodeURIComponent(typeIds.Meter!)}`,
            200,
            csv.join("\n") + "\n",
            "text/csv",
          ),
        );
        importRuns.push((performance.now() - importStart) / 1000);
        if (report.rejected.length)
          throw new Error(
            `import rejected ${report.rejected.length} rows: ${JSON.stringify(report.rejected[0])}`,
          );
        if (report.created !== rows) throw new Error(`import created ${report.created} of ${rows}`);
      }
      const importS = median(importRuns);

      // The entities tab's first page in Chromium (as bench/entities-console), then the map tab.
      let entitiesTabMs: number | undefined;
      let mapTabMs: number | undefined;
      if (signedIn) {
        const runs: number[] = [];
        for (let run = 0; run < RUNS; run++) {
          const context = await signedIn();
          const tab = await context.newPage();
          await tab.goto(`${base}/workspace/${ws}?typeId=${encodeURIComponent(typeIds.Streetlight!)}`, {
            waitUntil: "commit",
          });
          const handle = await tab.waitForFunction(
            (count) => {
              const rowsShown = document.querySelectorAll(
                'table[aria-label="Entities of Streetlight"] tbody tr',
              ).length;
              const total = document.querySelector('[data-testid="entities-total"]')?.textContent ?? "";
              return rowsShown >= Math.min(20, count) && total.replace(/\D/g, "").includes(String(count))
                ? performance.now()
                : false;
            },
            size,
            { polling: "raf", timeout: 120_000 },
          );
          runs.push((await handle.jsonValue()) as number);
          await context.close();
        }
        entitiesTabMs = round(median(runs));
        // The map tab reads the type's entities 1,000 a page up to its cap of 10,000 (mapData.ts),
        // not a bounding box: the time until it says how many shapes it drew.
        const mapRuns: number[] = [];
        for (let run = 0; run < RUNS; run++) {
          const context = await signedIn();
          const tab = await context.newPage();
          await tab.goto(
            `${base}/workspace/${ws}?typeId=${encodeURIComponent(typeIds.Streetlight!)}&activeTab=map`,
            { waitUntil: "commit" },
          );
          const handle = await tab.waitForFunction(
            (count) => {
              const text = document.querySelector('[data-testid="map-count"]')?.textContent ?? "";
              return text.replace(/\D/g, "") === String(count) ? performance.now() : false;
            },
            Math.min(size, BOX_ENTITIES),
            { polling: "raf", timeout: 120_000 },
          );
          mapRuns.push((await handle.jsonValue()) as number);
          await context.close();
        }
        mapTabMs = round(median(mapRuns));
      }

      const figures: StepFigures = {
        entities: size,
        fillS: round(fillMs / 1000),
        box: { entities: inBox, ms: round(median(boxRuns)), runs: boxRuns.map((r) => round(r)) },
        mapArea: {
          entities: inArea,
          total: areaTotal,
          requests: areaRequests,
          ms: round(median(areaRuns)),
          runs: areaRuns.map((r) => round(r)),
        },
        export: {
          s: round(exportS, 2),
          runs: exportRuns.map((r) => round(r, 2)),
          bytes,
          lines,
          rssBeforeMb: round(rssBefore),
          rssPeakMb: round(rssPeak),
        },
        import: {
          rows,
          s: round(importS, 2),
          runs: importRuns.map((r) => round(r, 2)),
          created: report.created,
          rejected: report.rejected.length,
        },
        ...(entitiesTabMs !== undefined ? { entitiesTabMs } : {}),
        ...(mapTabMs !== undefined ? { mapTabMs } : {}),
      };
      steps.push(figures);
      log(`[${name}] ${JSON.stringify(figures)}`);
      result.steps = steps;
      saveSoFar(result);
    }
    result.steps = steps;
    const at = (f: (s: StepFigures) => number) => steps.map((s) => ({ size: s.entities, cost: f(s) }));
    result.growth = [
      growth(
        "bounding box of 1% of the city, all pages (HTTP)",
        "entities",
        "ms",
        at((s) => s.box.ms),
        name,
      ),
      growth(
        "map of an area of 1% of the city through the API, as the console reads it",
        "entities",
        "ms",
        at((s) => s.mapArea.ms),
        name,
      ),
      growth(
        "CSV export of the type, streamed",
        "entities",
        "s",
        at((s) => s.export.s),
        name,
      ),
      growth(
        "API peak RSS during the export",
        "entities",
        "MB",
        at((s) => s.export.rssPeakMb),
        name,
      ),
      growth(
        "CSV import",
        "rows",
        "s",
        steps.map((s) => ({ size: s.import.rows, cost: s.import.s })),
        name,
      ),
      ...(WITH_BROWSER
        ? [
            growth(
              "entities tab first page (Chromium)",
              "entities",
              "ms",
              at((s) => s.entitiesTabMs ?? NaN),
              name,
            ),
          ]
        : []),
    ];
    await api.close();
    await place.dispose();
  });
}

const finished: DriverResult[] = [];

/** Writes the figures so far after every step: a 1M run cut short by its time limit keeps its 10k and 100k. */
function saveSoFar(current?: DriverResult): void {
  const results = current ? [...finished, current] : finished;
  writeResults("city", LOAD_BEFORE, {
    versions: {
      "@electric-sql/pglite": packageVersion("@electric-sql/pglite"),
      "playwright-core": packageVersion("playwright-core"),
    },
    settings: { steps: STEPS, batch: BATCH, importRows: IMPORT_ROWS, runs: RUNS, browser: WITH_BROWSER },
    goals: GOALS,
    ...(current
      ? { partial: `${current.driver} up to ${current.steps?.at(-1)?.entities ?? 0} entities` }
      : {}),
    results,
    growth: results.flatMap((r) => r.growth ?? []),
  });
}

async function main(): Promise<number> {
  if (WITH_BROWSER && !process.env.BENCH_SKIP_BUILD) {
    log("building the console...");
    execSync("npm run build -w @orrery/console", { cwd: root, stdio: "ignore" });
  }
  const results = finished;
  for (const name of DRIVERS) results.push(await runDriver(name));
  for (const r of results) {
    if (r.error) {
      console.log(`${r.driver}: failed: ${r.error}`);
      continue;
    }
    const last = r.steps!.at(-1)!;
    const atMillion = last.entities >= 1_000_000;
    const verdict = (ok: boolean) => (atMillion ? (ok ? "met" : "NOT met") : "goal at 1M");
    console.log(`\n${r.driver} at ${last.entities.toLocaleString("en")} entities:`);
    console.log(`  bounding box over /ngsi-ld/v1 (${last.box.entities} entities): ${last.box.ms} ms`);
    console.log(
      `  map of an area through the API (${last.mapArea.entities} of ${last.mapArea.total} entities, ${last.mapArea.requests} requests): ${last.mapArea.ms} ms (goal < ${GOALS.boxMs} ms: ${verdict(last.mapArea.ms < GOALS.boxMs)})`,
    );
    console.log(
      `  CSV export: ${last.export.s} s, ${(last.export.bytes / 1e6).toFixed(1)} MB, API RSS ${last.export.rssBeforeMb} -> peak ${last.export.rssPeakMb} MB (goal < ${GOALS.exportS} s: ${verdict(last.export.s < GOALS.exportS)})`,
    );
    console.log(
      `  CSV import of ${last.import.rows.toLocaleString("en")} rows: ${last.import.s} s (goal < ${GOALS.importS} s for 100,000: ${last.import.rows >= 100_000 ? (last.import.s < GOALS.importS ? "met" : "NOT met") : "goal at 100k"})`,
    );
    if (last.entitiesTabMs !== undefined)
      console.log(
        `  entities tab first page: ${last.entitiesTabMs} ms (goal < ${GOALS.entitiesTabMs} ms: ${verdict(last.entitiesTabMs < GOALS.entitiesTabMs)})`,
      );
    if (last.mapTabMs !== undefined)
      console.log(
        `  map tab with ${Math.min(last.entities, BOX_ENTITIES).toLocaleString("en")} shapes (the type's first 10,000, not a box): ${last.mapTabMs} ms (goal < ${GOALS.boxMs} ms: ${verdict(last.mapTabMs < GOALS.boxMs)})`,
      );
    console.log(`  fill through the batch API: ${last.fillS} s`);
    for (const g of r.growth ?? []) console.log(`  ${growthLine(g)}`);
  }
  saveSoFar();
  return results.some((r) => r.error) ? 1 : 0;
}

runBench(main, TIME_LIMIT_S);
