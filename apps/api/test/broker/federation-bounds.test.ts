import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandalone, type StandaloneBroker } from "@orrery/broker/standalone";
import { freshDatabase } from "./receiver.ts";

/**
 * What a registered context source may make the embedded broker do (issue 35, "Federation has
 * bounds"): real HTTP sources that count what they are asked, never answer, or answer without end.
 * `plain` runs with the broker's defaults; `small` with a short federation timeout and a small
 * byte budget, so that the bounds show in a short test.
 */
const dirs: string[] = [];
const dbs: Array<Awaited<ReturnType<typeof freshDatabase>>> = [];
let plain: StandaloneBroker;
let small: StandaloneBroker;
const smallTimeoutMs = 800;
const smallBytes = 256 * 1024;

async function broker(options: NonNullable<Parameters<typeof startStandalone>[0]>["broker"]) {
  const dir = mkdtempSync(join(tmpdir(), "orrery-federation-bounds-"));
  const db = await freshDatabase();
  dirs.push(dir);
  dbs.push(db);
  return startStandalone({
    port: 0,
    dataDir: dir,
    databaseUrl: db.databaseUrl,
    logLevel: "warn",
    broker: options,
  });
}

beforeAll(async () => {
  plain = await broker({});
  small = await broker({ federation: { timeoutMs: smallTimeoutMs, maxBytes: smallBytes } });
}, 60_000);

afterAll(async () => {
  await plain?.close();
  await small?.close();
  for (const db of dbs) await db.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function http(url: string, method = "GET", body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

let n = 0;
const freshType = () => `Bounded${Date.now().toString(36)}${n++}`;

/** A context source over HTTP: `answer` writes each response; every request is recorded. */
async function source(answer: (url: URL, res: ServerResponse) => void) {
  const asked: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://source.invalid");
    asked.push(url);
    answer(url, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    asked,
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Answers every page it is asked for in full: a source with endless entities of `type`. */
const endless =
  (type: string, padding = 0) =>
  (url: URL, res: ServerResponse) => {
    const limit = Math.min(100, Number(url.searchParams.get("limit") ?? 20));
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const page = Array.from({ length: limit }, (_, i) => ({
      id: `urn:ngsi-ld:${type}:remote-${String(offset + i).padStart(7, "0")}`,
      type,
      ...(padding ? { note: { type: "Property", value: "x".repeat(padding) } } : {}),
    }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(page));
  };

async function register(at: StandaloneBroker, type: string, endpoint: string, extra: object = {}) {
  const r = await http(`${at.url}/csourceRegistrations`, "POST", {
    type: "ContextSourceRegistration",
    information: [{ entities: [{ type }] }],
    endpoint,
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return String(r.headers.get("location")).split("/").pop()!;
}

const localEntity = async (at: StandaloneBroker, type: string) => {
  const id = `urn:ngsi-ld:${type}:local`;
  expect((await http(`${at.url}/entities`, "POST", { id, type })).status).toBe(201);
  return id;
};

const warningsOf = (headers: Headers) => headers.get("ngsild-warning") ?? "";

describe("federation bounds: what a registered source may make the broker do", () => {
  it("asks a source for no more than offset+limit entities, and refuses offset+limit beyond the cap with 400 naming it", async () => {
    const type = freshType();
    const counting = await source(endless(type));
    const id = await register(plain, type, counting.endpoint);
    try {
      // The request that made the broker send 1,001 requests: refused before any is sent.
      const far = await http(`${plain.url}/entities?type=${type}&offset=100000`);
      expect(far.status).toBe(400);
      expect(far.body.type).toBe("https://uri.etsi.org/ngsi-ld/errors/BadRequestData");
      expect(far.body.detail).toContain("1000");
      expect(counting.asked).toHaveLength(0);

      const page = await http(`${plain.url}/entities?type=${type}&offset=150&limit=20`);
      expect(page.status).toBe(200);
      expect(page.body).toHaveLength(20);
      expect(page.body[0].id).toBe(`urn:ngsi-ld:${type}:remote-0000150`);
      const askedFor = counting.asked.reduce((sum, u) => sum + Number(u.searchParams.get("limit")), 0);
      expect(askedFor).toBe(170);
      expect(counting.asked.length).toBeLessThanOrEqual(2);

      // The cap is exactly reachable, and a local query (no source asked) is not capped.
      expect((await http(`${plain.url}/entities?type=${type}&offset=980&limit=20`)).status).toBe(200);
      expect((await http(`${plain.url}/entities?type=${type}&offset=100000&local=true`)).status).toBe(200);
    } finally {
      await http(`${plain.url}/csourceRegistrations/${id}`, "DELETE");
      await counting.close();
    }
  }, 30_000);

  it("answers within the broker's federation timeout when a source never answers, whatever the registration's management.timeout (kept as sent)", async () => {
    const type = freshType();
    const local = await localEntity(small, type);
    const silent = await source(() => undefined);
    const id = await register(small, type, silent.endpoint, { management: { timeout: 120_000 } });
    try {
      const started = Date.now();
      const r = await http(`${small.url}/entities?type=${type}`);
      expect(Date.now() - started).toBeLessThan(smallTimeoutMs + 1_500);
      expect(r.status).toBe(200);
      expect(r.body.map((e: { id: string }) => e.id)).toEqual([local]);
      expect(warningsOf(r.headers)).toMatch(/^199 .*no answer in time/);
      // The registration says what its client sent: the broker waits less, it does not rewrite it.
      const shown = await http(`${small.url}/csourceRegistrations/${id}`);
      expect(shown.body.management).toEqual({ timeout: 120_000 });
    } finally {
      await http(`${small.url}/csourceRegistrations/${id}`, "DELETE");
      await silent.close();
    }
  }, 15_000);

  it("gives a source one deadline per query, not one per page", async () => {
    const type = freshType();
    const local = await localEntity(small, type);
    const full = endless(type);
    // The first page comes at once; the second never does.
    const stalling = await source((url, res) => {
      if (url.searchParams.get("offset") === "0") full(url, res);
    });
    const id = await register(small, type, stalling.endpoint);
    try {
      const started = Date.now();
      const r = await http(`${small.url}/entities?type=${type}&limit=300`);
      expect(Date.now() - started).toBeLessThan(smallTimeoutMs + 1_500);
      expect(r.status).toBe(200);
      expect(r.body.map((e: { id: string }) => e.id)).toEqual([local]);
      expect(warningsOf(r.headers)).toContain("no answer in time");
      expect(stalling.asked.length).toBe(2);
    } finally {
      await http(`${small.url}/csourceRegistrations/${id}`, "DELETE");
      await stalling.close();
    }
  }, 15_000);

  it("reads no more than the byte budget from one source for one query, over all its pages: the source counts as failed", async () => {
    const type = freshType();
    const local = await localEntity(small, type);
    // Pages of about 100 kB each, under any one answer's limit; three of them pass the budget.
    const wordy = await source(endless(type, 1_000));
    const id = await register(small, type, wordy.endpoint);
    try {
      const r = await http(`${small.url}/entities?type=${type}&limit=300`);
      expect(r.status).toBe(200);
      expect(r.body.map((e: { id: string }) => e.id)).toEqual([local]);
      expect(warningsOf(r.headers)).toMatch(new RegExp(`^111 .*more than ${smallBytes} bytes`));
      expect(wordy.asked.length).toBe(3);
      // Within the budget, the same source is taken in.
      const few = await http(`${small.url}/entities?type=${type}&limit=50`);
      expect(few.body).toHaveLength(50);
      expect(warningsOf(few.headers)).toBe("");
    } finally {
      await http(`${small.url}/csourceRegistrations/${id}`, "DELETE");
      await wordy.close();
    }
  }, 15_000);

  it("stops reading a source that answers without end, and answers the rest", async () => {
    const type = freshType();
    const local = await localEntity(small, type);
    let written = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, " ");
    const flood = await source((_url, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      res.on("close", () => void (closed = true));
      const more = () => {
        while (!closed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
      };
      more();
    });
    const id = await register(small, type, flood.endpoint);
    try {
      const r = await http(`${small.url}/entities?type=${type}`);
      expect(r.status).toBe(200);
      expect(r.body.map((e: { id: string }) => e.id)).toEqual([local]);
      expect(warningsOf(r.headers)).toMatch(/^111 .*more than 262144 bytes/);
      await expect.poll(() => closed).toBe(true);
      // What the source could push is the budget and the sockets' buffers, far from the 16 MiB
      // a single answer could have been before.
      expect(written).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await http(`${small.url}/csourceRegistrations/${id}`, "DELETE");
      await flood.close();
    }
  }, 15_000);
});
