/**
 * What the audit trail costs, without what tells two processes apart: two APIs in one process of
 * their own, each on its own database, the trail switched on in one and off in the other between
 * turns (Records.keepTrail, what AUDIT_TRAIL=off sets at start). Two processes with the same
 * settings differ by up to 15% here (JIT, heap, where the system runs them), more than the trail
 * should cost; in one process both run the same compiled code. Even there the two APIs are not
 * quite equal (up to 7% apart with the trail off in both), so each takes both roles in turn.
 * Imported: startTrailPair() spawns it. Run with TRAIL_PAIR set: serves, and prints where.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { buildApp } from "../../apps/api/src/app.ts";
import { loadConfig } from "../../apps/api/src/config.ts";
import { openStorage } from "../../apps/api/src/storage/database.ts";
import type { Records } from "../../apps/api/src/resources/records.ts";
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

export interface TrailPair {
  apis: readonly [PairedApi, PairedApi];
  /** Switches the trail on in apis[withTrail] and off in the other. */
  trailIn(withTrail: 0 | 1): Promise<void>;
  /** The process's CPU time so far (user + system, µs). */
  cpu(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the pair's process, the trail on in the first API. */
export async function startTrailPair(first: Place, second: Place): Promise<TrailPair> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "trail-pair.ts")], {
    cwd: join(import.meta.dirname, "../.."),
    env: { ...process.env, TRAIL_PAIR: JSON.stringify([first, second]) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = onCleanup(async () => {
    child.kill("SIGTERM");
    await exited;
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", () => reject(new Error("the trail pair's process did not start")));
  });
  const apis = (JSON.parse(ready) as Array<{ base: string; token: string }>).map(
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
  // Asked between turns: the process answers each line with one line.
  const ask = (command: string) =>
    new Promise<string>((resolve) => {
      lines.once("line", resolve);
      child.stdin!.write(`${command}\n`);
    });
  return {
    apis: [apis[0]!, apis[1]!],
    trailIn: async (withTrail) => void (await ask(`trail ${withTrail}`)),
    // On a machine doing other work, what a turn cost the process is steadier than how long it took.
    cpu: async () => Number(await ask("cpu")),
    close,
  };
}

if (process.env.TRAIL_PAIR) {
  const places = JSON.parse(process.env.TRAIL_PAIR) as Place[];
  const running: Array<{ base: string; token: string; records: Records; close(): Promise<void> }> = [];
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
        AUDIT_TRAIL: "on",
      },
      ["--no-demo"],
    );
    const storage = await openStorage({ dataDir: place.dataDir, databaseUrl: place.databaseUrl });
    const { app, records, sessions } = await buildApp(config, storage, { logStream: process.stderr });
    records.keepTrail(i === 0);
    await app.listen({ host: "127.0.0.1", port });
    running.push({
      base: `http://127.0.0.1:${port}`,
      token: await adminToken(sessions, config),
      records,
      close: async () => {
        await app.close();
        await storage.close();
      },
    });
  }
  process.stdout.write(`${JSON.stringify(running.map(({ base, token }) => ({ base, token })))}\n`);
  createInterface({ input: process.stdin }).on("line", (line) => {
    const [command, which] = line.split(" ");
    // BENCH_TRAIL_AA=1: the trail off in both, to see what the measure differs by on its own.
    if (command === "trail")
      running.forEach((api, i) => api.records.keepTrail(!process.env.BENCH_TRAIL_AA && i === Number(which)));
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${user + system}\n`);
  });
  process.once("SIGTERM", () => {
    void Promise.all(running.map((r) => r.close())).finally(() => process.exit(0));
  });
}
