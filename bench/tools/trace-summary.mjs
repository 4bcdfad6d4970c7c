/**
 * Prints where a page load's time went from a Chromium trace that a bench wrote (BENCH_TRACE=<file>
 * with bench/console.ts or bench/entities-console.ts): the renderer's main-thread tasks of at least
 * MIN_MS (what ran in them), the network requests (sent, first byte, end) and the paint marks, in
 * ms from the first navigation; then the code's CPU samples, by function, mapped to the console's
 * sources through apps/console/dist's source maps (a build of the same code as the trace's).
 * Run: `node bench/tools/trace-summary.mjs <trace.json> [MIN_MS]`; PROFILE_FROM / PROFILE_TO (ms)
 * keep the samples of a window, TOP the number of functions shown.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const dist = resolve(root, "apps/console/dist/assets");
const { SourceMapConsumer } = createRequire(import.meta.url)("source-map-js");
const trace = JSON.parse(readFileSync(process.argv[2], "utf8"));
const events = trace.traceEvents ?? trace;
const minMs = Number(process.argv[3] ?? 2);
const top = Number(process.env.TOP ?? 40);
const from = Number(process.env.PROFILE_FROM ?? -Infinity);
const to = Number(process.env.PROFILE_TO ?? Infinity);

const mains = new Set(
  events
    .filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")
    .map((e) => `${e.pid}:${e.tid}`),
);
const t0 = Math.min(...events.filter((e) => e.name === "navigationStart").map((e) => e.ts));
const ms = (ts) => ((ts - t0) / 1000).toFixed(1).padStart(7);
const path = (url) =>
  String(url ?? "")
    .replace(/^https?:\/\/[^/]+/, "")
    .slice(0, 110);
const lines = [];

// Main-thread tasks and the kinds of work in each.
const onMain = events.filter((e) => mains.has(`${e.pid}:${e.tid}`) && e.ph === "X");
const kinds = new Set([
  "EvaluateScript",
  "v8.compile",
  "v8.compileModule",
  "v8.evaluateModule",
  "FunctionCall",
  "ParseHTML",
  "ParseAuthorStyleSheet",
  "UpdateLayoutTree",
  "Layout",
  "Paint",
  "TimerFire",
  "RunMicrotasks",
  "EventDispatch",
  "MinorGC",
  "MajorGC",
]);
for (const task of onMain.filter((e) => e.name === "RunTask" && e.dur / 1000 >= minMs)) {
  const by = {};
  for (const e of onMain)
    if (kinds.has(e.name) && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur) {
      const key = e.name + (e.args?.data?.url ? ` ${path(e.args.data.url)}` : "");
      by[key] = (by[key] ?? 0) + e.dur / 1000;
    }
  const parts = Object.entries(by)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);
  lines.push([
    task.ts,
    `task ${(task.dur / 1000).toFixed(1)} ms  ${parts.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(" | ")}`,
  ]);
}
// Requests, as the renderer saw them.
const requests = {};
for (const e of events.filter((e) => e.name.startsWith("Resource") && e.args?.data?.requestId)) {
  const r = (requests[e.args.data.requestId] ??= {});
  r.url ??= e.args.data.url;
  r[e.name] ??= e.ts;
}
for (const r of Object.values(requests))
  if (r.ResourceSendRequest)
    lines.push([
      r.ResourceSendRequest,
      `request ${path(r.url)}  first byte ${r.ResourceReceiveResponse ? ms(r.ResourceReceiveResponse) : "-"}, end ${r.ResourceFinish ? ms(r.ResourceFinish) : "-"}`,
    ]);
for (const e of events.filter((e) =>
  ["navigationStart", "firstContentfulPaint", "domContentLoadedEventEnd"].includes(e.name),
))
  lines.push([e.ts, `${e.name} ${path(e.args?.data?.documentLoaderURL)}`]);
for (const [ts, line] of lines.sort((a, b) => a[0] - b[0])) if (ts >= t0) console.log(ms(ts), line);

// CPU samples by function (self and total), mapped to the sources.
const maps = new Map();
function named(frame) {
  const file = String(frame.url ?? "").replace(/^.*\//, "");
  if (file.endsWith(".js") && !maps.has(file)) {
    const map = resolve(dist, `${file}.map`);
    maps.set(file, existsSync(map) ? new SourceMapConsumer(JSON.parse(readFileSync(map, "utf8"))) : null);
  }
  const found = maps
    .get(file)
    ?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  return found?.source
    ? `${found.name ?? ""} ${found.source.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, "")}:${found.line}`
    : `${frame.functionName || "(anonymous)"} ${file}`;
}
const nodes = new Map();
const parents = new Map();
const self = {};
const total = {};
const clock = {};
for (const e of events.filter((e) => e.name === "Profile")) clock[e.id] = e.args.data.startTime;
for (const chunk of events.filter((e) => e.name === "ProfileChunk")) {
  const { cpuProfile = {}, timeDeltas = [] } = chunk.args.data;
  for (const node of cpuProfile.nodes ?? []) {
    nodes.set(`${chunk.id}:${node.id}`, named(node.callFrame));
    if (node.parent) parents.set(`${chunk.id}:${node.id}`, `${chunk.id}:${node.parent}`);
  }
  (cpuProfile.samples ?? []).forEach((sample, i) => {
    clock[chunk.id] += timeDeltas[i] ?? 0;
    const at = (clock[chunk.id] - t0) / 1000;
    if (at < from || at > to) return;
    let id = `${chunk.id}:${sample}`;
    self[nodes.get(id)] = (self[nodes.get(id)] ?? 0) + 1;
    for (const seen = new Set(); id && !seen.has(nodes.get(id)); id = parents.get(id)) {
      seen.add(nodes.get(id));
      total[nodes.get(id)] = (total[nodes.get(id)] ?? 0) + 1;
    }
  });
}
for (const [title, counts] of [
  ["self", self],
  ["total", total],
]) {
  if (!Object.keys(counts).length) continue;
  console.log(`--- CPU samples, ${title} (top ${top})`);
  for (const [name, n] of Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(String(n).padStart(6), name);
}
