import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandalone, type StandaloneBroker } from "@orrery/broker/standalone";
import { freshDatabase } from "./receiver.ts";

/**
 * Distributed reads (ETSI GS CIM 009 v1.8, 4.3.6 inclusive registrations, 6.3.17 NGSILD-Warning,
 * 6.3.18 Via and local): two embedded brokers in two processes, over real HTTP. Broker A runs in
 * this process (startStandalone), broker B in a child process started as `npm run broker` does;
 * A holds a registration of B. Named after the test suite's DistributedOperations TPs (D010
 * retrieve, D011 query, D018 loop detection).
 */
const root = join(import.meta.dirname, "../../../..");
let dirA: string;
let dirB: string;
let dbA: Awaited<ReturnType<typeof freshDatabase>>;
let dbB: Awaited<ReturnType<typeof freshDatabase>>;
let a: StandaloneBroker;
let b: ChildProcess;
let bBase: string; // http://127.0.0.1:port (the registration's endpoint)
let bUrl: string; // .../ngsi-ld/v1

const freePort = async () => {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
};

beforeAll(async () => {
  dirA = mkdtempSync(join(tmpdir(), "orrery-federation-a-"));
  dirB = mkdtempSync(join(tmpdir(), "orrery-federation-b-"));
  [dbA, dbB] = await Promise.all([freshDatabase(), freshDatabase()]);
  const port = await freePort();
  b = spawn(process.execPath, ["--import", "tsx", "packages/broker/src/standalone.ts"], {
    cwd: root,
    env: {
      ...process.env,
      BROKER_PORT: String(port),
      DATA_DIR: dirB,
      DATABASE_URL: dbB.databaseUrl ?? "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  bBase = `http://127.0.0.1:${port}`;
  bUrl = `${bBase}/ngsi-ld/v1`;
  a = await startStandalone({ port: 0, dataDir: dirA, databaseUrl: dbA.databaseUrl, logLevel: "warn" });
  for (;;) {
    if (b.exitCode !== null) throw new Error(`broker B exited with ${b.exitCode}`);
    const up = await fetch(`${bUrl}/types`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

afterAll(async () => {
  await a?.close();
  if (b && b.exitCode === null) {
    const exited = new Promise((resolve) => b.once("exit", resolve));
    b.kill("SIGTERM");
    await exited;
  }
  await dbA?.drop();
  await dbB?.drop();
  for (const dir of [dirA, dirB]) if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}
async function http(
  url: string,
  method = "GET",
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
const create = async (url: string, entity: Record<string, unknown>, headers: Record<string, string> = {}) =>
  expect((await http(`${url}/entities`, "POST", entity, headers)).status).toBe(201);
const register = async (at: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const r = await http(
    `${at}/csourceRegistrations`,
    "POST",
    { type: "ContextSourceRegistration", ...body },
    headers,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return String(r.headers.get("location")).split("/").pop()!;
};
const unregister = (at: string, id: string, headers: Record<string, string> = {}) =>
  http(`${at}/csourceRegistrations/${id}`, "DELETE", undefined, headers);
const ids = (list: Array<{ id: string }>) => list.map((e) => e.id);
let n = 0;
/** A fresh type per test, so that tests do not see each other's entities. */
const freshType = () => `Vehicle${Date.now().toString(36)}${n++}`;

/** A context source that answers as told and records what it was asked. */
async function fakeSource(answer: (url: string) => { status: number; body?: string } | "hang") {
  const asked: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    asked.push({ url: req.url ?? "", headers: req.headers });
    const a = answer(req.url ?? "");
    if (a === "hang") return;
    res.writeHead(a.status, { "content-type": a.body?.startsWith("<") ? "text/html" : "application/json" });
    res.end(a.body ?? "");
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

describe("TP/NGSI-LD/DIST two brokers, one registered in the other, over HTTP", () => {
  it("D011_01 a query on A includes B's entities of a registered type; local=true stays on A", async () => {
    const type = freshType();
    await create(a.url, { id: `urn:ngsi-ld:${type}:onA`, type, speed: { type: "Property", value: 10 } });
    await create(bUrl, { id: `urn:ngsi-ld:${type}:onB`, type, speed: { type: "Property", value: 20 } });
    const registration = await register(a.url, { information: [{ entities: [{ type }] }], endpoint: bBase });
    try {
      const both = await http(`${a.url}/entities?type=${type}&count=true`);
      expect(both.status).toBe(200);
      expect(ids(both.body)).toEqual([`urn:ngsi-ld:${type}:onA`, `urn:ngsi-ld:${type}:onB`]);
      expect(both.body[1]).toEqual({
        id: `urn:ngsi-ld:${type}:onB`,
        type,
        speed: { type: "Property", value: 20 },
      });
      expect(both.headers.get("ngsild-results-count")).toBe("2");
      expect(both.headers.get("ngsild-warning")).toBeNull();
      // The representation and the filters apply to B's entities too.
      const simplified = await http(`${a.url}/entities?type=${type}&options=keyValues&q=speed>15`);
      expect(simplified.body).toEqual([{ id: `urn:ngsi-ld:${type}:onB`, type, speed: 20 }]);
      const local = await http(`${a.url}/entities?type=${type}&local=true`);
      expect(ids(local.body)).toEqual([`urn:ngsi-ld:${type}:onA`]);
      // POST /entityOperations/query (queryBatch, in federationOps) goes to B with its body.
      const query = { type: "Query", entities: [{ type }], q: "speed>15" };
      const posted = await http(`${a.url}/entityOperations/query`, "POST", query);
      expect(ids(posted.body)).toEqual([`urn:ngsi-ld:${type}:onB`]);
      const postedLocal = await http(`${a.url}/entityOperations/query?local=true`, "POST", query);
      expect(postedLocal.body).toEqual([]);
      // Paging cuts the merged list.
      const second = await http(`${a.url}/entities?type=${type}&limit=1&offset=1`);
      expect(ids(second.body)).toEqual([`urn:ngsi-ld:${type}:onB`]);
    } finally {
      await unregister(a.url, registration);
    }
    // Without the registration, A answers its own entities only.
    expect(ids((await http(`${a.url}/entities?type=${type}`)).body)).toEqual([`urn:ngsi-ld:${type}:onA`]);
  });

  it("D010_01 retrieving an entity only B holds goes through A; with local=true it is 404", async () => {
    const type = freshType();
    const id = `urn:ngsi-ld:${type}:onlyB`;
    await create(bUrl, { id, type, brandName: { type: "Property", value: "Mercedes" } });
    const registration = await register(a.url, {
      information: [{ entities: [{ idPattern: `^urn:ngsi-ld:${type}:`, type }] }],
      endpoint: bBase,
    });
    try {
      const read = await http(`${a.url}/entities/${id}?options=keyValues`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ id, type, brandName: "Mercedes" });
      expect((await http(`${a.url}/entities/${id}?local=true`)).status).toBe(404);
      // An id the registration does not cover is not asked for.
      expect((await http(`${a.url}/entities/urn:ngsi-ld:Other:1`)).status).toBe(404);
    } finally {
      await unregister(a.url, registration);
    }
  });

  it("4.3.6.2 an entity held by both is merged: union of attributes, the latest observedAt wins", async () => {
    const type = freshType();
    const id = `urn:ngsi-ld:${type}:both`;
    await create(a.url, {
      id,
      type,
      name: { type: "Property", value: "on A" },
      speed: { type: "Property", value: 1, observedAt: "2026-01-01T00:00:00.000Z" },
      fuel: { type: "Property", value: 50, observedAt: "2026-06-01T00:00:00.000Z" },
    });
    await create(bUrl, {
      id,
      type,
      speed: { type: "Property", value: 2, observedAt: "2026-03-01T00:00:00.000Z" },
      fuel: { type: "Property", value: 40, observedAt: "2026-02-01T00:00:00.000Z" },
      isParked: { type: "Relationship", object: "urn:ngsi-ld:Parking:1" },
    });
    const registration = await register(a.url, { information: [{ entities: [{ type }] }], endpoint: bBase });
    try {
      const expected = { id, type, name: "on A", speed: 2, fuel: 50, isParked: "urn:ngsi-ld:Parking:1" };
      expect((await http(`${a.url}/entities/${id}?options=keyValues`)).body).toEqual(expected);
      expect((await http(`${a.url}/entities?type=${type}&options=keyValues`)).body).toEqual([expected]);
      // Only the asked attributes: B is asked for them only, and they are shown only.
      expect((await http(`${a.url}/entities?type=${type}&options=keyValues&attrs=isParked`)).body).toEqual([
        { id, type, isParked: "urn:ngsi-ld:Parking:1" },
      ]);
    } finally {
      await unregister(a.url, registration);
    }
  });

  it("asks B in the registration's tenant with A's @context and a Via header, and only the matching attributes", async () => {
    const type = freshType();
    const source = await fakeSource(() => ({ status: 200, body: "[]" }));
    const registration = await register(a.url, {
      information: [{ entities: [{ type }], propertyNames: ["speed"] }],
      endpoint: source.endpoint,
      tenant: "fleet",
    });
    try {
      await http(`${a.url}/entities?type=${type}&attrs=name`);
      expect(source.asked).toHaveLength(0); // the registration offers speed only
      await http(`${a.url}/entities?type=${type}&attrs=speed,name`, "GET", undefined, { via: "1.1 gateway" });
      expect(source.asked).toHaveLength(1);
      const { url, headers } = source.asked[0]!;
      const params = new URL(url, "http://x").searchParams;
      expect(new URL(url, "http://x").pathname).toBe("/ngsi-ld/v1/entities");
      expect(params.get("type")).toBe(type);
      expect(params.get("attrs")).toBe("speed,name");
      expect(headers["ngsild-tenant"]).toBe("fleet");
      expect(headers.link).toContain("ngsi-ld-core-context");
      expect(headers.via).toMatch(/^1\.1 gateway, 1\.1 orrery-[0-9a-f-]+$/);
    } finally {
      await unregister(a.url, registration);
      await source.close();
    }
  });

  it("6.3.17 a failing source is reported in NGSILD-Warning and A answers its own data (199, 299, 111; 404 is no failure)", async () => {
    const type = freshType();
    await create(a.url, { id: `urn:ngsi-ld:${type}:onA`, type });
    const answers: Record<string, { status: number; body?: string } | "hang"> = {
      forbidden: {
        status: 403,
        body: JSON.stringify({ type: "https://uri.etsi.org/ngsi-ld/errors/Forbidden" }),
      },
      html: { status: 200, body: "<html><body>Gateway</body></html>" },
      notEntities: { status: 200, body: JSON.stringify([{ no: "id" }]) },
      missing: { status: 404, body: "" },
      // More than the 8 MiB a source may answer for one query (the default): not read in full, and not taken in.
      huge: { status: 200, body: `[${" ".repeat(9 * 1024 * 1024)}]` },
      hang: "hang",
    };
    const sources = await Promise.all(Object.values(answers).map((x) => fakeSource(() => x)));
    const registrations = await Promise.all(
      sources.map((s, i) =>
        register(a.url, {
          information: [{ entities: [{ type }] }],
          endpoint: s.endpoint,
          ...(Object.keys(answers)[i] === "hang" ? { management: { timeout: 300 } } : {}),
        }),
      ),
    );
    // A source that is not there at all, under an id a header cannot carry as it is.
    const gone = await fakeSource(() => ({ status: 200 }));
    await gone.close();
    const oddId = `urn:ngsi-ld:ContextSourceRegistration:.*+?(é${type}`;
    registrations.push(
      await register(a.url, { id: oddId, information: [{ entities: [{ type }] }], endpoint: gone.endpoint }),
    );
    try {
      const r = await http(`${a.url}/entities?type=${type}`);
      expect(r.status).toBe(200);
      expect(ids(r.body)).toEqual([`urn:ngsi-ld:${type}:onA`]);
      const warnings = r.headers.get("ngsild-warning") ?? "";
      const codes = warnings.split(/,\s*(?=\d{3} )/).map((w) => w.slice(0, 3));
      expect(codes.sort()).toEqual(["111", "111", "111", "199", "199", "299"]);
      expect(warnings).toContain("answered more than 8388608 bytes for this query");
      expect(warnings).toContain("answered 403");
      expect(warnings).toContain("no answer in time");
      expect(warnings).toContain(`ContextSourceRegistration:.*+?(%C3%A9${type} not reachable`);
      // A retrieval the sources cannot answer stays 404, with the warnings.
      const read = await http(`${a.url}/entities/urn:ngsi-ld:${type}:nowhere`);
      expect(read.status).toBe(404);
      expect(read.headers.get("ngsild-warning")).toContain("299");
    } finally {
      for (const id of registrations) await unregister(a.url, id);
      for (const s of sources) await s.close();
    }
  });

  it("D018 a loop (A registers B, B registers A) ends: both brokers' entities once, with a 199 warning", async () => {
    const type = freshType();
    await create(a.url, { id: `urn:ngsi-ld:${type}:onA`, type });
    await create(bUrl, { id: `urn:ngsi-ld:${type}:onB`, type });
    const aBase = a.url.replace(/\/ngsi-ld\/v1$/, "");
    const inA = await register(a.url, { information: [{ entities: [{ type }] }], endpoint: bBase });
    const inB = await register(bUrl, { information: [{ entities: [{ type }] }], endpoint: aBase });
    try {
      for (const [at, name] of [
        [a.url, "A"],
        [bUrl, "B"],
      ] as const) {
        const r = await http(`${at}/entities?type=${type}`);
        expect(r.status, name).toBe(200);
        expect(ids(r.body), name).toEqual([`urn:ngsi-ld:${type}:onA`, `urn:ngsi-ld:${type}:onB`]);
        expect(r.headers.get("ngsild-warning"), name).toMatch(/^199 .*loop/);
      }
    } finally {
      await unregister(a.url, inA);
      await unregister(bUrl, inB);
    }
  });
});
