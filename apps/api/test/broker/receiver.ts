import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { ngsiLdBroker, type BrokerOptions } from "@orrery/broker";
import pg from "pg";
import { driver } from "../support/harness.ts";
import { openStorage, type Storage } from "../../src/storage/database.ts";
import type { TestApp } from "../support/harness.ts";
import { ngsi } from "./ngsi.ts";

/** A notification as a real HTTP receiver got it. */
export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * A notification receiver on 127.0.0.1 (node:http). `answer` decides each response: a status
 * code, or "hang" to never answer. `next(n)` resolves once n notifications have arrived in total.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (n: number) => number | "hang" = () => 204;
  private server?: Server;
  private waiters: Array<{ n: number; resolve: () => void }> = [];
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/notify`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        const answer = this.answer(this.received.length + 1);
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // kept as text
        }
        if (answer !== "hang") {
          this.received.push({ url: req.url ?? "", headers: req.headers, body });
          res.statusCode = answer;
          res.end();
          for (const w of this.waiters.filter((w) => this.received.length >= w.n)) w.resolve();
          this.waiters = this.waiters.filter((w) => this.received.length < w.n);
        } else this.hung++;
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  hung = 0;

  /** Waits until n notifications in total have been received (the test's timeout bounds it). */
  next(n = this.received.length + 1): Promise<Received> {
    if (this.received.length >= n) return Promise.resolve(this.received[n - 1]!);
    return new Promise((resolve) => this.waiters.push({ n, resolve: () => resolve(this.received[n - 1]!) }));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Polls until check() is truthy (bounded by the test's timeout); no timing is asserted. */
export async function eventually<T>(check: () => Promise<T> | T, everyMs = 25): Promise<T> {
  for (;;) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A fresh database of this run's driver. On PostgreSQL it is dropped without FORCE, retrying
 * while the closed pool's connections are still going away (a forced drop would kill them
 * mid-close: an unhandled 57P01 error in the pool).
 */
export async function openBrokerStorage(
  dataDir: string,
): Promise<{ storage: Storage; drop(): Promise<void> }> {
  const { databaseUrl, drop } = await freshDatabase();
  return { storage: await openStorage({ dataDir, databaseUrl }), drop };
}

/** An empty database on the test PostgreSQL (no URL on PGlite), and how to drop it. */
export async function freshDatabase(): Promise<{ databaseUrl?: string; drop(): Promise<void> }> {
  if (driver === "pglite") return { drop: async () => {} };
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `orrery_broker_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    async drop() {
      for (let attempt = 0; ; attempt++) {
        try {
          return await admin(`DROP DATABASE IF EXISTS ${name}`);
        } catch (error) {
          if ((error as { code?: string }).code !== "55006" || attempt >= 100) throw error;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    },
  };
}

/**
 * The broker plugin alone on a bare Fastify, over the test database of this run's driver, with
 * options of the test's choosing (small retry delays, short timeouts).
 */
export async function startPluginBroker(
  options: Partial<BrokerOptions> = {},
  existing?: { storage: Storage; dataDir: string },
): Promise<{
  app: FastifyInstance;
  storage: Storage;
  dataDir: string;
  call: ReturnType<typeof ngsi>;
  close(): Promise<void>;
}> {
  const dataDir = existing?.dataDir ?? mkdtempSync(join(tmpdir(), "orrery-broker-test-"));
  const opened = existing
    ? { storage: existing.storage, drop: async () => {} }
    : await openBrokerStorage(dataDir);
  const app = Fastify({ logger: { level: "warn" } });
  await app.register(ngsiLdBroker, { prefix: "/ngsi-ld/v1", db: opened.storage.db, ...options });
  await app.ready();
  return {
    app,
    storage: opened.storage,
    dataDir,
    call: ngsi({ app } as unknown as TestApp),
    async close() {
      await app.close();
      if (!existing) {
        await opened.storage.close();
        await opened.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
