/**
 * bench/console: what the console costs a user.
 * 1. The gzipped size of the JavaScript and CSS the first screen loads (the sign-in page, then the
 *    context brokers list), as Chromium actually fetches them.
 * 2. The time from opening the sign-in page to a usable context brokers list with 1,000 brokers
 *    stored: continue, sign in at the dev identity manager, land on the list showing its first
 *    broker and the total (a long list draws its first rows and a "Show more (… of 1000 shown)"
 *    button, as a user sees it). Median of 5, each in a fresh browser context.
 * Goals (issue 38): JS under 130 kB, under 500 ms (issue 26 asked 170 kB and 1 s). Run: `npx tsx bench/console.ts` (builds the console
 * first; BENCH_SKIP_BUILD=1 keeps apps/console/dist; BENCH_SMOKE=1: 30 brokers, one run, nothing written;
 * BENCH_TRACE=<file>: a Chromium trace of the last run, read with bench/tools/trace-summary.mjs).
 */
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { contextBrokers } from "@orrery/model";
import { buildApp } from "../apps/api/src/app.ts";
import { loadConfig } from "../apps/api/src/config.ts";
import { openStorage } from "../apps/api/src/storage/database.ts";
import { chromiumLaunchOptions } from "../e2e/chromium.ts";
import { withoutBackgroundChecks } from "./lib/api.ts";
import { fieldLabelled, linkNamed, listUsable, whenShown } from "./lib/browser.ts";
import { brokerName, brokerPayload } from "./lib/broker-payload.ts";
import { loadAverage } from "./lib/report.ts";
import { smoke, sized } from "./lib/smoke.ts";

const root = resolve(import.meta.dirname, "..");
const LOAD_BEFORE = loadAverage();
const BROKERS = sized(1_000, 30);
const RUNS = sized(5, 1);

if (!process.env.BENCH_SKIP_BUILD)
  execSync("npm run build -w @orrery/console", { cwd: root, stdio: "ignore" });
const dataDir = mkdtempSync(join(tmpdir(), "orrery-bench-console-"));
const port = 3390;
const config = loadConfig(
  { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", ...withoutBackgroundChecks },
  ["--no-demo"],
);
const storage = await openStorage(config);
const { app, records } = await buildApp(config, storage);
const browser = await chromium.launch(chromiumLaunchOptions);
const stepNames = [
  "signInPage",
  "identityManagerPage",
  "signInClicked",
  "backInConsole",
  "firstBroker",
  "usable",
] as const;
type Step = (typeof stepNames)[number];
/** What a BENCH_TRACE trace records: Chromium's timeline, and the code's samples. */
const traceCategories = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.screenshot",
  "v8.execute",
  "blink.user_timing",
  "loading",
  "disabled-by-default-v8.cpu_profiler",
];

try {
  await app.listen({ port, host: "127.0.0.1" });
  for (let i = 0; i < BROKERS; i++) {
    await records.create(contextBrokers, brokerPayload(i));
  }
  const base = `http://127.0.0.1:${port}`;
  const timings: number[] = [];
  const firstScreen = { js: 0, css: 0, files: [] as string[] };
  // Where the time goes: each step's end (ms from opening the sign-in page), a run each.
  const steps: Record<Step, number>[] = [];
  let waterfall: string[] = [];

  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const assets = new Map<string, Buffer>();
    page.on("response", async (response) => {
      const url = response.url();
      if (/\.(js|css)$/.test(new URL(url).pathname))
        assets.set(url, await response.body().catch(() => Buffer.alloc(0)));
    });
    const requests: { url: string; method: string; at: number; end?: number; status?: number }[] = [];
    const step = {} as Record<Step, number>;
    page.on("request", (request) => {
      requests.push({ url: request.url(), method: request.method(), at: performance.now() });
    });
    page.on("requestfinished", async (request) => {
      const entry = requests.findLast((r) => r.url === request.url() && r.end === undefined);
      if (entry) {
        entry.end = performance.now();
        entry.status = (await request.response())?.status();
      }
    });
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame() && new URL(frame.url()).pathname === "/callbacks/authentication")
        step.backInConsole = performance.now() - start;
    });
    // BENCH_TRACE=<file>: a Chromium trace of the last run (network, main-thread tasks), to see
    // where the time goes (bench/tools/trace-summary.mjs prints it).
    const tracing = process.env.BENCH_TRACE && run === RUNS - 1;
    if (tracing)
      await browser.startTracing(page, {
        path: process.env.BENCH_TRACE,
        screenshots: true,
        categories: traceCategories,
      });
    const start = performance.now();
    await page.goto(`${base}/context-brokers`);
    await whenShown(page, linkNamed, "Continue");
    step.signInPage = performance.now() - start;
    await page.getByRole("link", { name: "Continue" }).click();
    await whenShown(page, fieldLabelled, "Username");
    step.identityManagerPage = performance.now() - start;
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin");
    const signIn = performance.now();
    await page.getByRole("button", { name: "Sign in" }).click();
    // Usable: the first broker is there, and so is the last one or the button that names the total.
    await whenShown(page, linkNamed, brokerName(0));
    step.firstBroker = performance.now() - start;
    await whenShown(page, listUsable, {
      first: brokerName(0),
      last: brokerName(BROKERS - 1),
      total: BROKERS,
    });
    step.usable = performance.now() - start;
    if (tracing) await browser.stopTracing();
    step.signInClicked = signIn - start;
    steps.push(step);
    timings.push(step.usable);
    waterfall = requests.map(
      (r) =>
        `${String(Math.round(r.at - start)).padStart(5)} → ${r.end === undefined ? "  ..." : String(Math.round(r.end - start)).padStart(5)} ms  ${r.method} ${r.status ?? ""} ${new URL(r.url).pathname}`,
    );
    if (run === 0) {
      for (const [url, body] of assets) {
        const size = gzipSync(body).length;
        if (url.endsWith(".css")) firstScreen.css += size;
        else firstScreen.js += size;
        firstScreen.files.push(`${new URL(url).pathname} ${(size / 1024).toFixed(1)} kB`);
      }
    }
    await context.close();
  }

  const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const median = medianOf(timings);
  const breakdown = Object.fromEntries(
    stepNames.map((name) => [name, Math.round(medianOf(steps.map((s) => s[name] ?? NaN)))]),
  ) as Record<Step, number>;
  const kB = (n: number) => Math.round((n / 1024) * 10) / 10;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    // The machine's load (1-minute average) as the run began and ended: the sign-in's time is wall-clock.
    loadAverage: { before: LOAD_BEFORE, after: loadAverage() },
    brokers: BROKERS,
    firstScreenGzipKB: {
      js: kB(firstScreen.js),
      css: kB(firstScreen.css),
      total: kB(firstScreen.js + firstScreen.css),
      files: firstScreen.files,
    },
    signInToUsableListMs: { median: Math.round(median), runs: timings.map(Math.round) },
    // Medians of each step's end, ms from opening the sign-in page (a user's own typing and clicks
    // take Playwright a few ms each).
    breakdownMs: breakdown,
    goals: {
      firstScreenJsUnder130KB: firstScreen.js / 1024 < 130,
      signInToListUnder500Ms: median < 500,
    },
  };
  console.log(
    `\nconsole bench (${BROKERS} context brokers, Chromium, median of ${RUNS}; load ${result.loadAverage.before} -> ${result.loadAverage.after})`,
  );
  console.log(
    `  first screen, gzipped: JS ${result.firstScreenGzipKB.js} kB + CSS ${result.firstScreenGzipKB.css} kB = ${result.firstScreenGzipKB.total} kB (goal: JS under 130 kB: ${result.goals.firstScreenJsUnder130KB ? "met" : "NOT met"})`,
  );
  for (const f of firstScreen.files) console.log(`    ${f}`);
  console.log("  where the time goes (median end of each step, ms from opening the sign-in page):");
  let previous = 0;
  for (const name of stepNames) {
    console.log(
      `    ${name.padEnd(20)} ${String(breakdown[name]).padStart(5)}  (+${breakdown[name] - previous})`,
    );
    previous = breakdown[name];
  }
  console.log("  requests of the last run (start → end, ms from opening the sign-in page):");
  for (const line of waterfall) console.log(`    ${line}`);
  console.log(
    `  sign-in page to usable list: median ${result.signInToUsableListMs.median} ms, runs ${result.signInToUsableListMs.runs.join(", ")} (goal under 500 ms: ${result.goals.signInToListUnder500Ms ? "met" : "NOT met"})`,
  );
  if (!smoke) {
    mkdirSync(join(root, "bench/results"), { recursive: true });
    writeFileSync(join(root, "bench/results/console.json"), JSON.stringify(result, null, 2) + "\n");
  }
} finally {
  await browser.close();
  await app.close();
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
}
