import { spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { buildApp } from "../../apps/api/src/app.ts";
import { loadPolicy } from "../../apps/api/src/auth/policy.ts";
import type { Sessions } from "../../apps/api/src/auth/sessions.ts";
import { loadConfig, type Config } from "../../apps/api/src/config.ts";
import type { Storage } from "../../apps/api/src/storage/database.ts";
import { onCleanup } from "./cleanup.ts";
import { request } from "./http.ts";

export interface RunningApi {
  /** scheme://host:port of the API. */
  base: string;
  /**
   * Calls the API over real HTTP as admin; fails unless the status is `expect`. Returns the body
   * text. A body is sent as JSON, or as it is with a `contentType`.
   */
  call(method: string, path: string, expect: number, body?: unknown, contentType?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The benches fill the platform with thousands of records at hosts that do not exist: the
 * background connection checks (issue 28) would spend the measured process's time on them.
 */
export const withoutBackgroundChecks = { HEALTH_CHECK_INTERVAL_SECONDS: "0" };

/** A RunningApi over node:http with a bearer token. */
function caller(base: string, token: string, close: () => Promise<void>): RunningApi {
  return {
    base,
    async call(method, path, expect, body, contentType) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers["content-type"] = contentType ?? "application/json";
      const text = body === undefined ? undefined : contentType ? (body as string) : JSON.stringify(body);
      // No per-request timeout: the run's time limit bounds a request that hangs.
      const res = await request(base + path, method, headers, text);
      if (res.status !== expect) {
        throw new Error(`${method} ${path}: ${res.status} instead of ${expect}: ${res.text.slice(0, 300)}`);
      }
      return res.text;
    },
    close,
  };
}

/**
 * The real app in this process on a free loopback port, logs at warn, with an admin session token.
 * PUBLIC_URL is its own address, so that the embedded broker can fetch the workspaces' published
 * @context from it.
 */
export async function startApi(
  place: {
    storage: Storage;
    dataDir: string;
  },
  env: Record<string, string> = {},
): Promise<
  RunningApi & { port: number; config: Config; token: string; tokenFor(role: string): Promise<string> }
> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    {
      DATA_DIR: place.dataDir,
      LOG_LEVEL: "warn",
      ...withoutBackgroundChecks,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: base,
      ...withoutBackgroundChecks,
      ...env,
    },
    ["--no-demo"],
  );
  // Warnings go to stderr: stdout carries only the results table.
  const { app, sessions } = await buildApp(config, place.storage, { logStream: process.stderr });
  const close = onCleanup(() => app.close());
  await app.listen({ host: "127.0.0.1", port });
  const token = await adminToken(sessions, config);
  const tokenFor = (role: string) => roleToken(sessions, config, role);
  return { ...caller(base, token, close), port, config, token, tokenFor };
}

/** Calls and parses the answer: `json(api.call(...))`. */
export const json = async <T = { id: string }>(text: Promise<string>) => JSON.parse(await text) as T;

/**
 * A context broker record for the app's embedded broker (`port` is the app's), its service and a
 * new workspace on it; with a tenant, the broker record is multi-tenant and the workspace uses it.
 */
export async function embeddedWorkspace(
  api: RunningApi,
  port: number,
  label: string,
  options: { tenant?: string; dataModelName?: string } = {},
): Promise<string> {
  const broker = await json(
    api.call("POST", "/api/context-brokers", 201, {
      name: `Embedded ${label}`,
      scheme: "http",
      host: "127.0.0.1",
      port,
      ...(options.tenant ? { multiTenancyEnabled: true } : {}),
      paginationMaxLimit: 1000,
      implementationName: "orrery",
      implementationVersion: "1",
    }),
  );
  const service = await json(
    api.call("POST", "/api/services", 201, { name: `Service ${label}`, hasContextBroker: broker.id }),
  );
  const workspace = await json(
    api.call("POST", "/api/workspaces", 201, {
      name: `Workspace ${label}`,
      dataModelName: options.dataModelName ?? `bench-${label}-${Math.random().toString(36).slice(2, 8)}`,
      hasService: service.id,
      ...(options.tenant ? { contextBrokerTenant: options.tenant } : {}),
    }),
  );
  return workspace.id;
}

/** A bearer token with a role of config/permissions.yaml. */
async function roleToken(sessions: Sessions, config: Config, role: string): Promise<string> {
  const { token } = await sessions.create({
    subject: `bench-${role}`,
    username: `bench-${role}`,
    provider: "bench",
    permissions: loadPolicy(config.permissionsFile).permissionsFor([role]),
    expiresAt: new Date(Date.now() + 3600_000),
  });
  return token;
}

/** A bearer token with the admin role of config/permissions.yaml, for a bench's own calls. */
export const adminToken = (sessions: Sessions, config: Config) => roleToken(sessions, config, "admin");

/**
 * The API as users run it: its own Node process (`tsx apps/api/src/main.ts`), so the load
 * generator's HTTP client does not share the server's thread. Signs in as the dev admin.
 */
export async function startApiProcess(place: {
  dataDir: string;
  databaseUrl?: string;
  /** More settings, over the benches' own (HEALTH_CHECK_INTERVAL_SECONDS to turn the checks on). */
  env?: Record<string, string>;
  /** The tree whose API runs (a worktree beside this one, to compare by turns); default: this one. */
  root?: string;
  /** More flags for node (`--inspect=...`). */
  nodeFlags?: string[];
}): Promise<RunningApi & { token: string; pid: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROFILE_DIR=<dir> writes a V8 CPU profile of the API process there when it exits.
  const profile = process.env.BENCH_CPU_PROFILE_DIR;
  const flags = [...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []), ...(place.nodeFlags ?? [])];
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "apps/api/src/main.ts", "--no-demo"], {
    cwd: place.root ?? join(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: place.dataDir,
      DATABASE_URL: place.databaseUrl ?? "",
      LOG_LEVEL: "warn",
      ...withoutBackgroundChecks,
      AUTH_PROVIDER: "dev",
      ...place.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = onCleanup(async () => {
    child.kill("SIGTERM");
    await exited;
  });
  for (let waited = 0; ; waited += 200) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    // A loaded machine starts it slowly (39 s at a load average of 25 on 2 cores); one that never
    // answers is stopped before the bench removes its data directory from under it.
    if (child.exitCode !== null || waited > 180_000) {
      await close();
      throw new Error("the API process did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = await fetch(`${base}/api/auth/dev-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "admin" }),
  });
  const { token } = (await login.json()) as { token: string };
  return { ...caller(base, token, close), token, pid: child.pid! };
}

/** A port free on 127.0.0.1 right now, for a server about to listen. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
