/**
 * bench/repeat: runs benches several times and keeps the medians (issue 38: "quiet, three runs,
 * medians in the note, committed in bench/results/").
 *
 *   npm run bench:repeat -- load live console          # three runs each
 *   BENCH_RUNS=5 npm run bench:repeat -- api-crud      # five
 *
 * Each run is the bench's own command (`npx tsx bench/<bench>.ts`, with this process's environment);
 * its results file is kept as bench/results/runs/<bench>/<n>.json, and bench/results/<bench>.json
 * becomes the medians of the runs (bench/lib/medians.ts), with a `repeat` record saying so. A run
 * that fails stops the bench's repeat and leaves its results file as the failed run left it.
 * Afterwards it prints each figure of the catalogue (bench/lib/figures.ts) per run and the median.
 * Then `npm run bench:plot` draws docs/performance.md from the medians.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BENCHES } from "./lib/figures.ts";
import { mediansOf } from "./lib/medians.ts";
import { table } from "./lib/report.ts";

const root = resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("BENCH_RUNS is a whole number of runs, 1 or more");

const names = process.argv.slice(2).map((arg) => arg.replace(/^bench\//, "").replace(/\.ts$/, ""));
if (names.length === 0 || names.some((name) => !/^[a-z][a-z-]*$/.test(name))) {
  console.error(
    "usage: npm run bench:repeat -- <bench>... (names of files in bench/, such as load or api-crud)",
  );
  process.exit(2);
}
for (const name of names) {
  if (!existsSync(join(root, "bench", `${name}.ts`))) throw new Error(`no bench/${name}.ts`);
}

let failed = false;
for (const name of names) {
  const resultsFile = join(root, "bench/results", `${name}.json`);
  const runsDir = join(root, "bench/results/runs", name);
  rmSync(runsDir, { recursive: true, force: true });
  mkdirSync(runsDir, { recursive: true });
  const command = `npx tsx bench/${name}.ts`;
  const runs: Record<string, unknown>[] = [];
  for (let n = 1; n <= RUNS; n++) {
    console.log(`\n=== ${name}: run ${n} of ${RUNS} (${command}) ===`);
    const started = Date.now();
    const run = spawnSync("npx", ["tsx", `bench/${name}.ts`], {
      cwd: root,
      stdio: "inherit",
      env: process.env,
    });
    if (run.status !== 0 || !existsSync(resultsFile) || statSync(resultsFile).mtimeMs < started) {
      console.error(`${name}: run ${n} failed (exit ${run.status ?? run.signal}) or wrote no results`);
      failed = true;
      break;
    }
    const text = readFileSync(resultsFile, "utf8");
    writeFileSync(join(runsDir, `${n}.json`), text);
    runs.push(JSON.parse(text) as Record<string, unknown>);
  }
  if (runs.length < RUNS) continue;
  const merged = mediansOf(runs, `BENCH_RUNS=${RUNS} npm run bench:repeat -- ${name}`);
  writeFileSync(resultsFile, JSON.stringify(merged, null, 2) + "\n");
  printFigures(name, runs, merged);
}
process.exit(failed ? 1 : 0);

/** Each catalogued figure of the bench: every run's value, then the median kept. */
function printFigures(name: string, runs: Record<string, unknown>[], merged: Record<string, unknown>) {
  const spec = BENCHES[name];
  if (!spec) return;
  const shown = (v: number | undefined) => (v == null ? "-" : String(Math.round(v * 100) / 100));
  const rows: string[][] = [];
  for (const figure of spec.figures) {
    const kept = figure.read(merged);
    kept.forEach((reading, i) => {
      const perRun = runs.map((run) => shown(figure.read(run)[i]?.value));
      rows.push([
        `${figure.label}${reading.storage ? ` (${reading.storage})` : ""}`,
        ...perRun,
        `${shown(reading.value)} ${figure.unit}`,
      ]);
    });
  }
  console.log(`\n${name}: ${RUNS} runs, medians kept in bench/results/${name}.json`);
  console.log(table(["Figure", ...runs.map((_, i) => `run ${i + 1}`), "median"], rows));
}
