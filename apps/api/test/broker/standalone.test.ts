import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { startStandalone, type StandaloneBroker } from "@orrery/broker/standalone";
import { freshDatabase } from "./receiver.ts";

/**
 * The standalone broker (npm run broker): its own Fastify on a free port and its own database
 * (PGlite in DATA_DIR, or the test PostgreSQL), reached over real HTTP like a remote broker.
 */
let dataDir: string;
let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "orrery-standalone-"));
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () =>
  startStandalone({ port: 0, dataDir, databaseUrl: database.databaseUrl, logLevel: "warn" });

describe("TP/NGSI-LD/CB/STANDALONE the broker on its own port", () => {
  it("STANDALONE/001 creates and reads an entity over HTTP; the data survives a restart", async () => {
    let broker: StandaloneBroker | undefined = await start();
    try {
      expect(broker.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ngsi-ld\/v1$/);
      const id = "urn:ngsi-ld:Building:standalone-1";
      const created = await fetch(`${broker.url}/entities`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id, type: "Building", name: { type: "Property", value: "Alone" } }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get("location")).toBe(`/ngsi-ld/v1/entities/${id}`);
      const read = await fetch(`${broker.url}/entities/${id}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual({ id, type: "Building", name: { type: "Property", value: "Alone" } });
      const missing = await fetch(`${broker.url}/entities/urn:ngsi-ld:Building:none`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
      await broker.close();

      broker = await start();
      const again = await fetch(`${broker.url}/entities/${id}?options=keyValues`);
      expect(await again.json()).toEqual({ id, type: "Building", name: "Alone" });
      const temporal = await fetch(`${broker.url}/temporal/entities/${id}`);
      expect(((await temporal.json()) as { name: unknown[] }).name).toHaveLength(1);
    } finally {
      await broker?.close();
    }
  });

  it("STANDALONE/002 a port in use is an error, not a hang", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = blocker.address() as { port: number };
      await expect(
        startStandalone({ port, dataDir, databaseUrl: database.databaseUrl, logLevel: "fatal" }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
