// A throwaway PostgreSQL server for tests and benchmarks: started from the local binaries
// (Debian's postgresql package, /usr/lib/postgresql/*/bin; as the postgres user through `su` when
// running as root) in a new temporary directory, on a free loopback port, without fsync. `stop()`
// stops it and removes the directory; it is safe to call more than once.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The bin directory of the newest installed PostgreSQL, or undefined. */
export function findPgBin() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((d) => existsSync(join(d, "initdb")));
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * Starts the server; throws when the binaries are missing or it does not start (the temporary
 * directory is removed then).
 * @returns {Promise<{ url: string; stop(): void }>} url: `postgres://postgres@127.0.0.1:PORT/postgres`
 */
export async function startThrowawayPostgres() {
  const bin = findPgBin();
  if (!bin) {
    throw new Error(
      "PostgreSQL binaries not found under /usr/lib/postgresql (install Debian's postgresql package).",
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "orrery-pg-"));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd) =>
    asRoot
      ? execFileSync("su", ["postgres", "-c", cmd], { stdio: "pipe" })
      : execFileSync("sh", ["-c", cmd], { stdio: "pipe" });
  let started = false;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (started) {
      try {
        run(`${bin}/pg_ctl -D ${dir}/data -m immediate -w stop`);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await freePort();
    run(`${bin}/initdb -D ${dir}/data -U postgres --auth=trust -E UTF8 >/dev/null`);
    started = true;
    run(
      `${bin}/pg_ctl -D ${dir}/data -l ${dir}/pg.log -w start -o "-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off"`,
    );
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
