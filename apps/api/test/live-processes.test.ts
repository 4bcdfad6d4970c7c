import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/fakes/browser.ts";
import { driver } from "./support/harness.ts";

// Several API processes on one PostgreSQL database (docs/deploy.md): each serves its own live
// listeners, and a change made through any of them reaches the listeners of the others. Two real
// processes, as `npm start` runs them, each with its embedded broker on the shared database.

const root = resolve(import.meta.dirname, "../../..");
const postgres = driver === "postgresql";

interface Api {
  base: string;
  child: ChildProcess;
  token: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/**
 * Processes sharing a database share ENCRYPTION_KEY (docs/deploy.md): their secrets, and the
 * credential each API presents to the embedded broker behind PUBLIC_URL, which may be another process.
 */
const encryptionKey = "0123456789abcdef".repeat(4);

async function startProcess(databaseUrl: string, dataDir: string, publicUrl?: string): Promise<Api> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "apps/api/src/main.ts", "--no-demo"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: publicUrl ?? base,
      ENCRYPTION_KEY: encryptionKey,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      AUTH_PROVIDER: "dev",
      LOG_LEVEL: "warn",
      HEALTH_CHECK_INTERVAL_SECONDS: "0",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let waited = 0; ; waited += 200) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null || waited > 60_000) throw new Error("the API process did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = await fetch(`${base}/api/auth/dev-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "admin" }),
  });
  const { token } = (await login.json()) as { token: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return { base, child, token, call };
}

/** The events of a Server-Sent Events response, as they come. */
function eventsOf(res: Response) {
  const stream = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return async (part: string) => {
    const until = Date.now() + 10_000;
    while (!text.includes(part)) {
      if (Date.now() > until) throw new Error(`no event with ${part} in: ${text}`);
      text += (await stream.read()).value ?? "";
    }
    return text;
  };
}

describe.skipIf(!postgres)("live listeners across API processes (postgresql)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "orrery-live-"));
  const name = `orrery_live_${Date.now()}`;
  const adminUrl = process.env.TEST_DATABASE_URL ?? "";
  let one: Api;
  let two: Api;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // One after the other: the first applies the migrations.
    one = await startProcess(url.toString(), join(dataDir, "one"));
    // Behind one address, as behind a load balancer that sends this test's requests to the first.
    two = await startProcess(url.toString(), join(dataDir, "two"), one.base);
  }, 120_000);

  afterAll(async () => {
    for (const api of [one, two]) {
      if (!api) continue;
      api.child.kill("SIGTERM");
      await new Promise((r) => api.child.once("exit", r));
    }
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("streams to a listener of one process the changes made through the other", async () => {
    const ok = async (api: Api, method: string, path: string, body?: unknown) => {
      const res = await api.call(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    // The workspace's broker is the first process's embedded one; the records are shared.
    const port = Number(new URL(one.base).port);
    const broker = await ok(one, "POST", "/api/context-brokers", {
      name: "Embedded",
      scheme: "http",
      host: "127.0.0.1",
      port,
      paginationMaxLimit: 1000,
      implementationName: "orrery",
      implementationVersion: "1",
    });
    const service = await ok(one, "POST", "/api/services", { name: "Service", hasContextBroker: broker.id });
    const workspace = await ok(one, "POST", "/api/workspaces", {
      name: "Shared",
      dataModelName: "shared",
      hasService: service.id,
    });
    const path = `/api/workspace/${workspace.id}`;
    const type = await ok(one, "POST", `${path}/types`, { name: "Building" });
    await ok(one, "POST", `${path}/properties`, {
      name: "name",
      hasType: type.id,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "String",
    });
    await ok(one, "POST", `${path}/data-model/generate`);

    // A listener on the second process.
    const stop = new AbortController();
    const res = await fetch(`${two.base}${path}/live/entities?type=Building`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${two.token}` },
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    const until = eventsOf(res);
    await until(": open");

    // A change through the first process's API reaches it.
    await ok(one, "POST", `${path}/entities`, {
      id: "urn:ngsi-ld:Building:via-one",
      type: "Building",
      name: { type: "Property", value: "Through the first" },
    });
    expect(await until("urn:ngsi-ld:Building:via-one")).toContain("Through the first");

    // A write straight into the second process's own embedded broker (the same database) too:
    // its notifier finds the subscription the first process's broker stored.
    const context = `${one.base}/data-models/shared/1/context.jsonld`;
    const direct = await fetch(`${two.base}/ngsi-ld/v1/entities`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${two.token}`,
        link: `<${context}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
      },
      body: JSON.stringify({
        id: "urn:ngsi-ld:Building:via-two",
        type: "Building",
        name: { type: "Property", value: "Straight in" },
      }),
    });
    expect(direct.status).toBe(201);
    expect(await until("urn:ngsi-ld:Building:via-two")).toContain("Straight in");
    stop.abort();
  }, 60_000);
});
