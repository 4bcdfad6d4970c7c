/**
 * What the audit trail costs, without what tells two processes apart: two APIs in one process of
 * their own, one with the trail and one without (AUDIT_TRAIL=off), each on its own database. Two
 * processes with the same settings differ by up to 15% here (JIT, heap, where the system runs
 * them), more than the trail should cost; in one process both run the same compiled code.
 * Imported: startTrailPair() spawns it. Run with TRAIL_PAIR set: serves, and prints where.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { buildApp } from "../../apps/api/src/app.ts";
import { loadConfig } from "../../apps/api/src/config.ts";
import { openStorage } from "../../apps/api/src/storage/database.ts";
import { adminToken, freePort, withoutBackgroundChecks } from "./api.ts";
import { onCleanup } from "./cleanup.ts";
import { request } from "./http.ts";

interface Place {
  dataDir: string;
  databaseUrl?: string;
}

export interface PairedApi {
  /** POSTs a JSON body as admin; the answer's text, or an error unless the status is `expect`. */
  post(path: string, expect: number, body: unknown): Promise<string>;
}

/** Starts the pair's process: [with the trail, without]. */
export async function startTrailPair(
  withTrail: Place,
  without: Place,
): Promise<{ trailOn: PairedApi; trailOff: PairedApi; cpu(): Promise<number>; close(): Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "trail-pair.ts")], {
    cwd: join(import.meta.dirname, "../.."),
    env: { ...process.env, TRAIL_PAIR: JSON.stringify([withTrail, without]) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = onCleanup(async () => {
    child.kill("SIGTERM");
    await exited;
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", () => reject(new Error("the trail pair's process did not start")));
  });
  const [on, off] = (JSON.parse(first) as Array<{ base: string; token: string }>).map(
    ({ base, token }): PairedApi => ({
      async post(path, expect, body) {
        const res = await request(
          base + path,
          "POST",
          { authorization: `Bearer ${token}`, "content-type": "application/json" },
          JSON.stringify(body),
        );
        if (res.status !== expect) throw new Error(`POST ${path}: ${res.status}: ${res.text.slice(0, 300)}`);
        return res.text;
      },
    }),
  );
  // The process's CPU time (user + system, µs), asked between turns: on a machine doing other work,
  // what a turn cost the process is steadier than how long it took.
  const cpu = () =>
    new Promise<number>((resolve) => {
      lines.once("line", (line) => resolve(Number(line)));
      child.stdin!.write("cpu\n");
    });
  return { trailOn: on!, trailOff: off!, cpu, close };
}

if (process.env.TRAIL_PAIR) {
  const places = JSON.parse(process.env.TRAIL_PAIR) as Place[];
  const running: Array<{ base: string; token: string; close(): Promise<void> }> = [];
  for (const [i, place] of places.entries()) {
    const port = await freePort();
    const config = loadConfig(
      {
        DATA_DIR: place.dataDir,
        DATABASE_URL: place.databaseUrl ?? "",
        LOG_LEVEL: "warn",
        ...withoutBackgroundChecks,
        HOST: "127.0.0.1",
        PORT: String(port),
        AUTH_PROVIDER: "dev",
        AUDIT_TRAIL: i === 0 ? "on" : "off",
      },
      ["--no-demo"],
    );
    const storage = await openStorage({ dataDir: place.dataDir, databaseUrl: place.databaseUrl });
    const { app, sessions } = await buildApp(config, storage, { logStream: process.stderr });
    await app.listen({ host: "127.0.0.1", port });
    running.push({
      base: `http://127.0.0.1:${port}`,
      token: await adminToken(sessions, config),
      close: async () => {
        await app.close();
        await storage.close();
      },
    });
  }
  process.stdout.write(`${JSON.stringify(running.map(({ base, token }) => ({ base, token })))}\n`);
  createInterface({ input: process.stdin }).on("line", () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${user + system}\n`);
  });
  process.once("SIGTERM", () => {
    void Promise.all(running.map((r) => r.close())).finally(() => process.exit(0));
  });
}
