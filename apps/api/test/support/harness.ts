import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { Permission } from "@orrery/model";
import { buildApp, type App } from "../../src/app.ts";
import { loadPolicy } from "../../src/auth/policy.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { openStorage, type Storage } from "../../src/storage/database.ts";

/** Which driver this run of the suite uses: scripts/test-api.mjs runs it once per driver. */
export const driver = process.env.TEST_STORAGE === "postgresql" ? "postgresql" : "pglite";

export interface TestApp extends App {
  config: Config;
  storage: Storage;
  dataDir: string;
  logs: string[];
  /** A bearer token for a demo role of config/permissions.yaml (admin, operator, viewer, showroom). */
  tokenFor(role: string): Promise<string>;
  /** A bearer token holding exactly these permissions. */
  tokenWith(permissions: Permission[]): Promise<string>;
  close(): Promise<void>;
}

/** A fresh database: a new PGlite directory, or a new database on the test PostgreSQL server. */
export async function openTestStorage(dataDir: string): Promise<{ storage: Storage; drop(): Promise<void> }> {
  if (driver === "pglite") {
    const storage = await openStorage({ dataDir });
    return { storage, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `orrery_test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const storage = await openStorage({ dataDir, databaseUrl: url.toString() });
  return {
    storage,
    // Without FORCE, waiting for the app's pool to go: a forced drop can kill a connection while it
    // closes, an unhandled 57P01 error in the test process.
    drop: async () => {
      for (let attempt = 0; ; attempt++) {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        try {
          return await c.query(`DROP DATABASE IF EXISTS ${name}`).then(() => undefined);
        } catch (error) {
          if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
        } finally {
          await c.end();
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

export async function startTestApp(
  env: Record<string, string> = {},
  existing?: { dataDir: string },
): Promise<TestApp> {
  const dataDir = existing?.dataDir ?? mkdtempSync(join(tmpdir(), "orrery-test-"));
  // No background health checks unless a test asks: they would call the test's fake peers on their own.
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: "debug", PORT: "0", HEALTH_CHECK_INTERVAL_SECONDS: "0", ...env },
    ["--no-demo"],
  );
  const { storage, drop } = await openTestStorage(dataDir);
  const logs: string[] = [];
  const built = await buildApp(config, storage, { logStream: { write: (line) => void logs.push(line) } });
  await built.app.ready();
  const policy = loadPolicy(config.permissionsFile);
  const tokenWith = async (permissions: Permission[]) =>
    (
      await built.sessions.create({
        subject: "test",
        username: "test",
        provider: "test",
        permissions,
        expiresAt: new Date(Date.now() + 3600_000),
      })
    ).token;
  return {
    ...built,
    config,
    storage,
    dataDir,
    logs,
    tokenWith,
    tokenFor: (role) => tokenWith(policy.permissionsFor([role])),
    async close() {
      await built.app.close();
      await storage.close();
      await drop();
      if (!existing) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls the app in process with a bearer token, returning status, parsed body and headers. */
export function client(t: TestApp, token?: string) {
  return async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({
      method: method as "GET",
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    let parsed: any;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = res.body;
    }
    return {
      status: res.statusCode,
      body: parsed,
      headers: res.headers as Record<string, unknown>,
      raw: res.body,
    };
  };
}

/** One app for the whole test file, and a client signed in with a demo role (admin by default). */
export function useTestApp(role = "admin") {
  const ctx = {} as { t: TestApp; api: ReturnType<typeof client> };
  beforeAll(async () => {
    ctx.t = await startTestApp();
    ctx.api = client(ctx.t, await ctx.t.tokenFor(role));
  });
  afterAll(() => ctx.t?.close());
  return ctx;
}
