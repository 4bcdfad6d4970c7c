import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openStorage, type Storage } from "../../apps/api/src/storage/database.ts";
import { startThrowawayPostgres } from "../../scripts/throwaway-postgres.mjs";
import { onCleanup } from "./cleanup.ts";

export type DriverName = "pglite" | "postgresql";

export interface Fresh {
  storage: Storage;
  dataDir: string;
  /** Closes the storage and removes the data directory and database. */
  dispose(): Promise<void>;
}

/** A new database not opened here, for a server in another process to open (and migrate). */
export interface Vacant {
  dataDir: string;
  databaseUrl?: string;
  dispose(): Promise<void>;
}

export interface Driver {
  name: DriverName;
  /** Where the server comes from, for the report. */
  source: string;
  /** A new, empty, migrated database (and a new temp DATA_DIR for the encryption key / PGlite). */
  fresh(): Promise<Fresh>;
  /** A new, empty database for another process: a temp DATA_DIR, and a database on PostgreSQL. */
  vacant(): Promise<Vacant>;
  close(): Promise<void>;
}

function tempDir(): { dir: string; remove: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), "orrery-bench-"));
  const remove = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, remove };
}

export function pgliteDriver(): Driver {
  return {
    name: "pglite",
    source: "embedded, temp DATA_DIR",
    async fresh() {
      const { dir, remove } = tempDir();
      const storage = await openStorage({ dataDir: dir });
      const close = onCleanup(() => storage.close());
      return {
        storage,
        dataDir: dir,
        dispose: async () => {
          await close();
          await remove();
        },
      };
    },
    async vacant() {
      const { dir, remove } = tempDir();
      return { dataDir: dir, dispose: remove };
    },
    close: async () => {},
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Drops without FORCE, waiting for the pool's connections to go: node-postgres' pool.end() resolves
 * before its clients have closed, and a forced drop would kill them mid-close (an unhandled error).
 */
async function dropDatabase(url: string, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await admin(url, `DROP DATABASE IF EXISTS ${name}`);
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** BENCH_DATABASE_URL (a role that may CREATE DATABASE) when set, otherwise a throwaway local server. */
export async function postgresDriver(): Promise<Driver> {
  let url = process.env.BENCH_DATABASE_URL;
  let source = "BENCH_DATABASE_URL";
  let stopServer = async () => {};
  if (!url) {
    const server = await startThrowawayPostgres();
    stopServer = onCleanup(() => server.stop());
    url = server.url;
    source = "throwaway local server (fsync=off)";
  }
  const serverUrl = url;
  const driver: Driver = {
    name: "postgresql",
    source,
    async vacant() {
      const { dir, remove } = tempDir();
      const name = `orrery_bench_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
      await admin(serverUrl, `CREATE DATABASE ${name}`);
      const drop = onCleanup(() => dropDatabase(serverUrl, name));
      const dbUrl = new URL(serverUrl);
      dbUrl.pathname = `/${name}`;
      return {
        dataDir: dir,
        databaseUrl: dbUrl.toString(),
        dispose: async () => {
          await drop();
          await remove();
        },
      };
    },
    async fresh() {
      const { dataDir: dir, databaseUrl, dispose: disposeVacant } = await driver.vacant();
      const storage = await openStorage({ dataDir: dir, databaseUrl });
      const close = onCleanup(() => storage.close());
      return {
        storage,
        dataDir: dir,
        dispose: async () => {
          await close();
          await disposeVacant();
        },
      };
    },
    close: () => stopServer(),
  };
  return driver;
}

/**
 * One driver's part of a bench: opens the driver, runs `body` with the result to fill and a way to
 * register what to close, keeps a failure as the result's `error` (the other driver still runs),
 * then closes everything registered, last first, and the driver.
 */
export async function onDriver<R extends { driver: DriverName; source?: string; error?: string }>(
  name: DriverName,
  body: (driver: Driver, result: R, closing: (close: () => Promise<void>) => void) => Promise<void>,
): Promise<R> {
  const result = { driver: name } as R;
  const closers: Array<() => Promise<void>> = [];
  let driver: Driver | undefined;
  try {
    driver = name === "pglite" ? pgliteDriver() : await postgresDriver();
    result.source = driver.source;
    await body(driver, result, (close) => closers.push(close));
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    console.error(`[${name}] failed:`, error);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
    await driver?.close();
  }
  return result;
}
