import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { databaseQueries } from "../metrics/registry.ts";
import { migrate } from "./migrations.ts";
import * as schema from "./schema.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The rows of a raw `execute`: both drivers return `{ rows }`, typed differently. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface Storage {
  db: Database;
  driver: "pglite" | "postgresql";
  version: string;
  /** node-postgres's pool: connections open, idle, and queries waiting for one (GET /metrics); PGlite has none. */
  pool?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** Counts each statement for GET /metrics: drizzle tells its logger of every query it sends, raw ones too. */
const countingLogger = (driver: Storage["driver"]) => {
  const labels = { driver };
  return { logQuery: () => databaseQueries.inc(labels) };
};

/** PostgreSQL through node-postgres when a URL is given, otherwise PGlite on disk under dataDir. */
export async function openStorage(options: { dataDir: string; databaseUrl?: string }): Promise<Storage> {
  let storage: Storage;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzleNodePg({
      client: pool,
      schema,
      logger: countingLogger("postgresql"),
    }) as unknown as Database;
    storage = {
      db,
      driver: "postgresql",
      version: "",
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  } else {
    const dir = join(options.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    const client = await PGlite.create(dir);
    const db = drizzlePglite({ client, schema, logger: countingLogger("pglite") }) as unknown as Database;
    storage = { db, driver: "pglite", version: "", close: () => client.close() };
  }
  const [version] = rowsOf<{ server_version: string }>(await storage.db.execute(sql`SHOW server_version`));
  storage.version = version?.server_version ?? "";
  await migrate(storage.db);
  return storage;
}
