#!/usr/bin/env node
// Runs the API test suite twice: on PGlite, then on PostgreSQL. PostgreSQL is TEST_DATABASE_URL
// when given; otherwise a throwaway server is started from the local PostgreSQL binaries
// (Debian's postgresql package) on a free loopback port and removed afterwards.
import { spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const extra = process.argv.slice(2);
const vitest = (env) =>
  spawnSync("npx", ["vitest", "run", "--project", "api", ...extra], {
    stdio: "inherit",
    env: { ...process.env, ...env },
  }).status ?? 1;

function findPgBin() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((d) => existsSync(join(d, "initdb")));
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

console.log("\n== API tests on PGlite ==");
let failed = vitest({ TEST_STORAGE: "pglite" }) !== 0;

let url = process.env.TEST_DATABASE_URL;
let stop = () => {};
if (!url) {
  const bin = findPgBin();
  if (!bin) {
    console.error(
      "\nPostgreSQL binaries not found (install Debian's postgresql, or set TEST_DATABASE_URL). The API suite must run on both drivers.",
    );
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), "orrery-pg-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd) =>
    asRoot
      ? execFileSync("su", ["postgres", "-c", cmd], { stdio: "pipe" })
      : execFileSync("sh", ["-c", cmd], { stdio: "pipe" });
  run(`${bin}/initdb -D ${dir}/data -U postgres --auth=trust -E UTF8 >/dev/null`);
  run(
    `${bin}/pg_ctl -D ${dir}/data -l ${dir}/pg.log -w start -o "-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off"`,
  );
  stop = () => {
    try {
      run(`${bin}/pg_ctl -D ${dir}/data -m immediate -w stop`);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  url = `postgres://postgres@127.0.0.1:${port}/postgres`;
}
console.log("\n== API tests on PostgreSQL ==");
try {
  failed = vitest({ TEST_STORAGE: "postgresql", TEST_DATABASE_URL: url }) !== 0 || failed;
} finally {
  stop();
}
process.exit(failed ? 1 : 0);
