/**
 * A probe, not a bench (bench/smoke.ts does not run it; nothing is written to bench/results): the
 * API of one or more trees, each in its own process (as `npm start` runs it), measured by turns on
 * one machine, so that the trees meet the same load from whatever else runs. Prints, for each tree,
 * the wall rate and latency, the API process's CPU time per request (/proc/<pid>/stat) and the
 * statements it sent to the database per request (GET /metrics, orrery_database_queries_total).
 *
 *   PROBE_ROOTS=/work/wt-api,/work/wt-api-base npx tsx bench/tools/probe-api.ts
 *     creates (PROBE_RECORDS, PROBE_CONCURRENCY in flight, after PROBE_WARM not measured), then
 *     PROBE_LISTS lists right after a write and cached
 *   PROBE_HAMMER=<seconds>: instead, 50 clients on the list of 100 context brokers (bench/load.ts)
 *   PROBE_DRIVER=postgresql: on a throwaway PostgreSQL (or BENCH_DATABASE_URL)
 *   PROBE_PROFILE_DIR=<dir>: a V8 CPU profile of each measured phase (over the inspector)
 */
import { freePort, startApiProcess } from "../lib/api.ts";
import { ownCpu, processCpu as cpuOf } from "../lib/cpu.ts";
import { pgliteDriver, postgresDriver } from "../lib/databases.ts";
import { Sample } from "../lib/measure.ts";
import { writeFileSync } from "node:fs";
import WebSocket from "ws";
import { brokerPayload as payload } from "../lib/broker-payload.ts";

const ROOTS = (process.env.PROBE_ROOTS ?? process.cwd()).split(",");
const DRIVER = process.env.PROBE_DRIVER ?? "pglite";
const N = Number(process.env.PROBE_RECORDS ?? 4000);
const WARM = Number(process.env.PROBE_WARM ?? 3000);
const CONC = Number(process.env.PROBE_CONCURRENCY ?? 32);
const CHUNK = 500;
const LISTS = Number(process.env.PROBE_LISTS ?? 20);
const PROFILE = process.env.PROBE_PROFILE_DIR;

const queriesOf = async (api: { call: (m: string, p: string, e: number) => Promise<string> }) => {
  const text = await api.call("GET", "/metrics", 200);
  return Number(/^orrery_database_queries_total\{[^}]*\} (\d+)/m.exec(text)?.[1] ?? NaN);
};

async function start(root: string, place: { dataDir: string; databaseUrl?: string }) {
  const inspectPort = PROFILE ? await freePort() : 0;
  const api = await startApiProcess({
    ...place,
    root,
    nodeFlags: PROFILE ? [`--inspect=127.0.0.1:${inspectPort}`] : [],
  });
  let ws: WebSocket | undefined;
  let seq = 0;
  const pending = new Map<number, (r: unknown) => void>();
  const cdp = async (method: string, params: object = {}) => {
    if (!ws) {
      const [target] = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
        webSocketDebuggerUrl: string;
      }[];
      ws = new WebSocket(target!.webSocketDebuggerUrl);
      await new Promise((r) => ws!.once("open", r));
      ws.on("message", (m) => {
        const msg = JSON.parse(String(m)) as { id?: number; result?: unknown };
        if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
      });
    }
    const id = ++seq;
    return new Promise<unknown>((r) => {
      pending.set(id, r);
      ws!.send(JSON.stringify({ id, method, params }));
    });
  };
  return {
    root,
    base: api.base,
    token: api.token,
    pid: api.pid,
    profile: async (phase: "start" | "stop", name = "") => {
      if (!PROFILE) return;
      if (phase === "start") {
        await cdp("Profiler.enable");
        await cdp("Profiler.setSamplingInterval", { interval: 200 });
        await cdp("Profiler.start");
      } else {
        const { profile } = (await cdp("Profiler.stop")) as { profile: unknown };
        writeFileSync(`${PROFILE}/${name}.cpuprofile`, JSON.stringify(profile));
      }
    },
    call: api.call,
    close: async () => {
      ws?.terminate();
      await api.close();
    },
  };
}

async function main() {
  const driver = DRIVER === "pglite" ? pgliteDriver() : await postgresDriver();
  const apis = [];
  const places = [];
  for (const root of ROOTS) {
    const place = await driver.vacant();
    places.push(place);
    apis.push(await start(root, place));
  }
  try {
    for (const api of apis)
      await new Sample().run(0, WARM, CONC, async (i) => {
        await api.call("POST", "/api/temporal-services", 201, {
          name: `Warm ${i}`,
          temporalServiceType: "mintaka",
          version: "0.7",
          scheme: "http",
          host: `m-${i}.example`,
          port: 8080,
        });
      });
    for (const api of apis) await api.profile("start");
    if (process.env.PROBE_HAMMER) {
      const { hammer } = await import("../lib/hammer.ts");
      for (const api of apis) {
        for (let i = 0; i < 100; i++) await api.call("POST", "/api/context-brokers", 201, payload(i));
        const token = (api as unknown as { token: string }).token;
        const running = { base: api.base, token, call: api.call, close: api.close } as never;
        await hammer(running, "/api/context-brokers", 50, 2);
        await api.profile("start");
        const q0 = await queriesOf(api);
        const before = cpuOf(api.pid);
        const f = await hammer(running, "/api/context-brokers", 50, Number(process.env.PROBE_HAMMER));
        console.log(
          `${api.root}: brokers list x50 clients ${f.perSecond}/s p50 ${f.p50Ms} p95 ${f.p95Ms}, CPU ${Math.round((cpuOf(api.pid) - before) / f.count)} µs/request, ${(((await queriesOf(api)) - q0) / f.count).toFixed(3)} queries/request`,
        );
        await api.profile("stop", "hammer");
      }
      return;
    }
    const stats = apis.map(() => ({
      q: 0,
      lq: 0,
      create: new Sample(),
      cpu: 0,
      clientCpu: 0,
      listCpu: 0,
      list: new Sample(),
      after: new Sample(),
    }));
    for (let from = 0; from < N; from += CHUNK)
      for (const [k, api] of (from / CHUNK) % 2 ? [...apis.entries()].reverse() : [...apis.entries()]) {
        const q0 = await queriesOf(api);
        const before = cpuOf(api.pid);
        const client = ownCpu();
        await stats[k]!.create.run(from, Math.min(N, from + CHUNK), CONC, async (i) => {
          await api.call("POST", "/api/context-brokers", 201, payload(i));
        });
        stats[k]!.cpu += cpuOf(api.pid) - before;
        stats[k]!.clientCpu += ownCpu() - client;
        stats[k]!.q += (await queriesOf(api)) - q0 - 0;
      }
    for (const [k, api] of apis.entries()) await api.profile("stop", `create-${k}`);
    for (const api of apis) await api.profile("start");
    for (let r = 0; r < LISTS; r++)
      for (const [k, api] of apis.entries()) {
        // After a write: the first list builds it again.
        await api.call("POST", "/api/context-brokers", 201, payload(N + r, "Later"));
        let t = performance.now();
        await api.call("GET", "/api/context-brokers", 200);
        stats[k]!.after.record(performance.now() - t);
        const q0 = await queriesOf(api);
        const before = cpuOf(api.pid);
        t = performance.now();
        await api.call("GET", "/api/context-brokers", 200);
        stats[k]!.list.record(performance.now() - t);
        stats[k]!.listCpu += cpuOf(api.pid) - before;
        stats[k]!.lq += (await queriesOf(api)) - q0;
      }
    for (const [k, api] of apis.entries()) await api.profile("stop", `list-${k}`);
    for (const api of apis) await api.profile("start");
    const cached = apis.map(() => ({ s: new Sample(), cpu: 0 }));
    for (let r = 0; r < LISTS; r++)
      for (const [k, api] of apis.entries()) {
        const before = cpuOf(api.pid);
        const t = performance.now();
        await api.call("GET", "/api/context-brokers", 200);
        cached[k]!.s.record(performance.now() - t);
        cached[k]!.cpu += cpuOf(api.pid) - before;
      }
    for (const [k, api] of apis.entries()) {
      await api.profile("stop", `cached-${k}`);
      const f = cached[k]!.s.figures();
      console.log(
        `${api.root}: cached lists only: p50 ${f.p50Ms} p95 ${f.p95Ms} ms, CPU ${Math.round(cached[k]!.cpu / LISTS)} µs`,
      );
    }
    for (const [k, api] of apis.entries()) {
      const s = stats[k]!;
      const c = s.create.figures();
      console.log(
        `${api.root} ${DRIVER}: create ${c.perSecond}/s p50 ${c.p50Ms} p95 ${c.p95Ms} ms, CPU ${Math.round(s.cpu / c.count)} µs/create (load generator ${Math.round(s.clientCpu / c.count)}), ${(s.q / c.count).toFixed(2)} queries/create; ` +
          `list(${N}) cached p50 ${s.list.figures().p50Ms} p95 ${s.list.figures().p95Ms} ms CPU ${Math.round(s.listCpu / LISTS)} µs ${(s.lq / LISTS).toFixed(2)} queries; ` +
          `after write p50 ${s.after.figures().p50Ms} p95 ${s.after.figures().p95Ms} ms`,
      );
    }
  } finally {
    for (const api of apis) await api.close();
    for (const p of places) await p.dispose();
    await driver.close();
  }
}

await main();
process.exit(0);
