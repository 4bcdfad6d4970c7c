#!/usr/bin/env node
// Runs the API test suite twice: on PGlite, then on PostgreSQL. PostgreSQL is TEST_DATABASE_URL
// when given; otherwise a throwaway server is started from the local PostgreSQL binaries
// (Debian's postgresql package) on a free loopback port and removed afterwards.
import { spawnSync } from "node:child_process";
import { findPgBin, startThrowawayPostgres } from "./throwaway-postgres.mjs";

const extra = process.argv.slice(2);
const vitest = (env) =>
  spawnSync("npx", ["vitest", "run", "--project", "api", ...extra], {
    stdio: "inherit",
    env: { ...process.env, ...env },
  }).status ?? 1;

console.log("\n== API tests on PGlite ==");
let failed = vitest({ TEST_STORAGE: "pglite" }) !== 0;

let url = process.env.TEST_DATABASE_URL;
let stop = () => {};
if (!url) {
  if (!findPgBin()) {
    console.error(
      "\nPostgreSQL binaries not found (install Debian's postgresql, or set TEST_DATABASE_URL). The API suite must run on both drivers.",
    );
    process.exit(1);
  }
  ({ url, stop } = await startThrowawayPostgres());
}
console.log("\n== API tests on PostgreSQL ==");
try {
  failed = vitest({ TEST_STORAGE: "postgresql", TEST_DATABASE_URL: url }) !== 0 || failed;
} finally {
  stop();
}
process.exit(failed ? 1 : 0);
