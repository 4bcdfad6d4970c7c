/**
 * `npm run bench:smoke`: every bench at a tiny size (BENCH_SMOKE=1), one after the other, so that
 * CI notices a bench that no longer runs. Same code paths as the real runs, figures printed, no
 * timing judged and nothing written to bench/results. The console is built first only when its
 * sources changed (scripts/build-console.mjs); the browser benches then reuse that build.
 * PostgreSQL (a throwaway local server) only for api-crud, the bench whose goals name it: the
 * others on PGlite keep the run within about two minutes. Fails when a bench fails; prints how
 * long each took.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const benches = readdirSync(import.meta.dirname)
  // repeat.ts runs other benches (named on its command line) and merges the results files a smoke
  // run does not write: its merging is tested in bench/test/medians.test.ts.
  .filter((file) => file.endsWith(".ts") && file !== "smoke.ts" && file !== "repeat.ts")
  .sort();

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });

const built = run([join(root, "scripts/build-console.mjs")]);
if (built.status !== 0) process.exit(built.status ?? 1);

const failed: string[] = [];
for (const bench of benches) {
  console.log(`\n== bench/${bench} (smoke) ==`);
  const start = performance.now();
  const result = run(["--import", "tsx", join("bench", bench)], {
    BENCH_SMOKE: "1",
    BENCH_SKIP_BUILD: "1",
    BENCH_TIME_LIMIT_SECONDS: "120",
    BENCH_DRIVERS: process.env.BENCH_DRIVERS ?? (bench === "api-crud.ts" ? "pglite,postgresql" : "pglite"),
  });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(`== bench/${bench}: ${result.status === 0 ? "ran" : "FAILED"} in ${seconds} s ==`);
  if (result.status !== 0) failed.push(bench);
}
if (failed.length) {
  console.error(`\nbench smoke: ${failed.join(", ")} failed`);
  process.exit(1);
}
console.log(`\nbench smoke: all ${benches.length} benches ran`);
