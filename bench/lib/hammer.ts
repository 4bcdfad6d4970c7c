import http from "node:http";
import type { RunningApi } from "./api.ts";
import { request } from "./http.ts";
import { Sample, type Figures } from "./measure.ts";
import { stopping } from "./run.ts";

/**
 * `clients` callers asking the API for `path` one after the other, each on its own keep-alive
 * connection, for `seconds`: latency percentiles, and the rate over the real wall time (Sample
 * records each latency as wall time). Stops at the first answer that is not 200.
 */
export async function hammer(
  api: RunningApi & { token: string },
  path: string,
  clients: number,
  seconds: number,
): Promise<Figures & { wallMs: number }> {
  const pool = new http.Agent({ keepAlive: true, maxSockets: clients });
  const headers = { authorization: `Bearer ${api.token}`, accept: "application/json" };
  const sample = new Sample();
  const until = performance.now() + seconds * 1000;
  let failure: string | undefined;
  const client = async () => {
    while (performance.now() < until && !failure && !stopping()) {
      const start = performance.now();
      const res = await request(api.base + path, "GET", headers, undefined, pool);
      if (res.status !== 200) failure = `${path}: ${res.status} ${res.text.slice(0, 200)}`;
      sample.record(performance.now() - start);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const wallMs = performance.now() - start;
  pool.destroy();
  if (failure) throw new Error(failure);
  const figures = sample.figures();
  return { ...figures, wallMs: Math.round(wallMs), perSecond: Math.round((figures.count / wallMs) * 1000) };
}
