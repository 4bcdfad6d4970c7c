import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { brokerMigrations } from "./migrations.ts";
import type { BrokerDatabase } from "./storage.ts";
import { rowsOf } from "./subscription-store.ts";

/**
 * The standalone broker's own database: PostgreSQL through node-postgres when a URL is given,
 * otherwise PGlite on disk under dataDir/pglite. brokerMigrations are applied in one transaction
 * under an advisory lock, recorded in broker_migrations (the embedded broker's host records them
 * in its own table instead).
 */
export interface BrokerStorage {
  db: BrokerDatabase;
  driver: "pglite" | "postgresql";
  close(): Promise<void>;
}

export async function openBrokerStorage(options: {
  dataDir: string;
  databaseUrl?: string;
}): Promise<BrokerStorage> {
  let storage: BrokerStorage;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server drops must not crash the process; the pool replaces it.
    pool.on("error", () => undefined);
    storage = {
      db: drizzleNodePg({ client: pool }) as BrokerDatabase,
      driver: "postgresql",
      close: () => pool.end(),
    };
  } else {
    const dir = join(options.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    const client = await PGlite.create(dir);
    storage = {
      db: drizzlePglite({ client }) as BrokerDatabase,
      driver: "pglite",
      close: () => client.close(),
    };
  }
  try {
    await migrateBroker(storage.db);
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

export async function migrateBroker(db: BrokerDatabase): Promise<string[]> {
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS broker_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(4242002)`);
    const done = new Set(
      rowsOf<{ name: string }>(await tx.execute(sql`SELECT name FROM broker_migrations`)).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const m of brokerMigrations) {
      if (done.has(m.name)) continue;
      for (const statement of m.sql
        .split(";")
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.execute(sql.raw(statement));
      await tx.execute(sql`INSERT INTO broker_migrations (name) VALUES (${m.name})`);
      applied.push(m.name);
    }
    return applied;
  });
}
