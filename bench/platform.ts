/**
 * bench/platform (issue 38, "A city's size"): a platform with 1,000 workspaces and 10,000 registered
 * components. The API runs in its own process (as `npm start` runs it), filled through its own HTTP
 * API (about 13,000 POSTs: fast enough for setup, and the records are exactly what users make).
 * The components are context brokers, identity managers, VC verifiers, trusted issuers lists, policy
 * administration points and Mintaka temporal services; half point at a local peer that answers
 * every request after 100 to 300 ms, half at a closed port. Each workspace has its own service.
 *
 * At each step (100 workspaces and 1,000 components, then 1,000 and 10,000):
 * 1. without background checks: CLIENTS clients ask for the context brokers list for SECONDS
 *    (keep-alive connections), after a warm-up: its p95;
 * 2. the API restarted on the same database with background checks every 10 s (timeout 2 s), so
 *    that they run the whole time against every component: the same load, its p95, and how many
 *    checks reached the slow peer meanwhile; the p95 under checks should stay within 20%;
 * 3. still under checks, in Chromium: from the sign-in page to a usable workspaces list (the first
 *    workspace and the total shown), and the Status page usable (its summary and first rows), each
 *    in a fresh browser context; median of RUNS. Over HTTP, what the Status page reads (its summary
 *    and first page) and the whole list it read before, with their bytes.
 * Goals: sign-in < 1 s, Status page < 1 s, p95 under checks <= 1.2x without. Growth of each figure
 * against the number of workspaces or components (bench/lib/growth.ts).
 *
 * Run: `npx tsx bench/platform.ts` (builds the console when its sources changed). Environment:
 * BENCH_WORKSPACES (1000) and BENCH_COMPONENTS (10000) for the last step (the first is a tenth),
 * BENCH_RUNS (5), BENCH_CLIENTS (8), BENCH_SECONDS (10), BENCH_DRIVERS ("pglite"; "pglite,postgresql"
 * for both), BENCH_TIME_LIMIT_SECONDS (1800). BENCH_SMOKE=1: 10 workspaces, 40 components, one run.
 */
import { spawnSync } from "node:child_process";
import http from "node:http";
import { join, resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { chromiumLaunchOptions } from "../e2e/chromium.ts";
import { freePort, json, startApiProcess, type RunningApi } from "./lib/api.ts";
import { listUsable, signedInContexts, whenShown } from "./lib/browser.ts";
import { onCleanup } from "./lib/cleanup.ts";
import { pgliteDriver, postgresDriver, type DriverName, type Vacant } from "./lib/databases.ts";
import { growth, growthLine, type Growth } from "./lib/growth.ts";
import { hammer } from "./lib/hammer.ts";
import { median, type Figures } from "./lib/measure.ts";
import { lat, loadAverage, met, table, writeResults } from "./lib/report.ts";
import { runBench, stopping } from "./lib/run.ts";
import { smoke, sized } from "./lib/smoke.ts";

const root = resolve(import.meta.dirname, "..");
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? sized(1_000, 10));
const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? sized(10_000, 40));
const STEPS = [
  {
    workspaces: Math.max(1, Math.round(WORKSPACES / 10)),
    components: Math.max(10, Math.round(COMPONENTS / 10)),
  },
  { workspaces: WORKSPACES, components: COMPONENTS },
];
const RUNS = Number(process.env.BENCH_RUNS ?? sized(5, 1));
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? sized(8, 2));
const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(10, 1));
/** Load before each measured one, not counted: a process's first answers are slower. */
const WARM_UP_SECONDS = sized(3, 0.5);
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite")
  .split(",")
  .filter((d): d is DriverName => d === "pglite" || d === "postgresql");
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 1800);
const CHECKS = { HEALTH_CHECK_INTERVAL_SECONDS: "10", HEALTH_CHECK_TIMEOUT_SECONDS: "2" };
const GOALS = { signInToWorkspacesMs: 1000, statusPageMs: 1000, listP95UnderChecksRatio: 1.2 };
const LOAD_BEFORE = loadAverage();
/** Records created at once while filling. */
const FILL_CONCURRENCY = 8;

const pad = (i: number) => String(i).padStart(5, "0");
const workspaceName = (i: number) => `Workspace ${pad(i)}`;

/** A peer that answers every request, after 100 to 300 ms, with a small JSON body; counts them. */
async function slowPeer(): Promise<{ port: number; requests: () => number }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    const delay = 100 + ((requests * 37) % 201);
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("[]");
    }, delay);
  });
  const port = await freePort();
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
  onCleanup(
    () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  );
  return { port, requests: () => requests };
}

/** The i-th component: a kind by turns, at the slow peer (even i) or at a closed port (odd i). */
function component(i: number, slowPort: number, closedPort: number): { path: string; body: object } {
  const at = { scheme: "http", host: "127.0.0.1", port: i % 2 === 0 ? slowPort : closedPort };
  const name = (label: string) => `${label} ${pad(i)}`;
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      return {
        path: "/api/context-brokers",
        body: {
          name: name("Broker"),
          ...at,
          paginationMaxLimit: 1000,
          implementationName: "orion-ld",
          implementationVersion: "1.6",
        },
      };
    case 3:
    case 4:
      return {
        path: "/api/identity-managers",
        body: {
          name: name("Identity manager"),
          ...at,
          oauth2TokenPath: "/oauth2/token",
          implementationName: "keyrock",
          implementationVersion: "8.4",
        },
      };
    case 5:
    case 6:
      return {
        path: "/api/vc-verifiers",
        body: {
          name: name("Verifier"),
          did: `did:web:verifier-${i}.example`,
          ...at,
          implementationName: "fiware-vc-verifier",
          implementationVersion: "6.0",
        },
      };
    case 7:
      return {
        path: "/api/trusted-issuers-lists",
        body: {
          name: name("Issuers list"),
          ...at,
          implementationName: "fiware-trusted-issuers-list",
          implementationVersion: "0.2",
        },
      };
    case 8:
      return {
        path: "/api/policy-administration-points",
        body: {
          name: name("Policy point"),
          ...at,
          implementationName: "odrl-pap",
          implementationVersion: "1.0",
          organizationDid: `did:web:pap-${i}.example`,
        },
      };
    default:
      return {
        path: "/api/temporal-services",
        body: { name: name("Mintaka"), temporalServiceType: "mintaka", version: "0.7", ...at },
      };
  }
}

/** Runs task(from..to-1), FILL_CONCURRENCY at a time. */
async function inParallel(from: number, to: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to && !stopping()) await task(next++);
  };
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
}

interface Filled {
  components: number;
  workspaces: number;
  brokers: string[];
}

/** Fills up to a step's sizes: the components first (a workspace's service needs a broker). */
async function fill(
  api: RunningApi,
  filled: Filled,
  step: { workspaces: number; components: number },
  ports: { slow: number; closed: number },
): Promise<void> {
  await inParallel(filled.components, step.components, async (i) => {
    const { path, body } = component(i, ports.slow, ports.closed);
    const created = await json(api.call("POST", path, 201, body));
    if (path === "/api/context-brokers") filled.brokers.push(created.id);
  });
  filled.components = step.components;
  await inParallel(filled.workspaces, step.workspaces, async (i) => {
    const service = await json(
      api.call("POST", "/api/services", 201, {
        name: `Service ${pad(i)}`,
        hasContextBroker: filled.brokers[i % filled.brokers.length],
      }),
    );
    await api.call("POST", "/api/workspaces", 201, {
      name: workspaceName(i),
      dataModelName: `platform-${i}`,
      hasService: service.id,
    });
  });
  filled.workspaces = step.workspaces;
}

/** CLIENTS callers asking for the context brokers list one after the other for SECONDS. */
const hammerBrokers = (api: RunningApi & { token: string }, seconds = SECONDS) =>
  hammer(api, "/api/context-brokers", CLIENTS, seconds);

const medianOf = (runs: number[]) => ({ median: Math.round(median(runs)), runs: runs.map(Math.round) });

/** From the sign-in page to a usable workspaces list: the first workspace, and the last or the total. */
async function signInToWorkspaces(browser: Browser, base: string, workspaces: number) {
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(`${base}/workspaces`);
    await page.getByRole("link", { name: "Continue" }).click();
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin");
    await page.getByRole("button", { name: "Sign in" }).click();
    const list = { first: workspaceName(0), last: workspaceName(workspaces - 1), total: workspaces };
    await whenShown(page, listUsable, list);
    runs.push(performance.now() - start);
    await context.close();
  }
  return medianOf(runs);
}

/** The Status page usable: its summary (how many are down) and its first component row. */
async function statusPage(browser: Browser, base: string) {
  const contexts = await signedInContexts(browser, base);
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await contexts();
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(`${base}/status`);
    // Generous wait: the page as it was drew every one of 10,000 rows, for over 30 s.
    await whenShown(
      page,
      () =>
        [...document.querySelectorAll('[role="status"]')].some((e) => /down\./.test(e.textContent ?? "")) &&
        !!document.querySelector("[data-component]"),
      undefined,
      180_000,
    );
    runs.push(performance.now() - start);
    await context.close();
  }
  return medianOf(runs);
}

/**
 * What the Status page reads over HTTP, median of three: its summary and its first page of
 * components, asked together (GET /api/health/summary, GET /api/health/components?limit=100), and
 * their bytes; and the whole list it read before (GET /api/health/components), for comparison.
 */
async function statusList(api: RunningApi) {
  const timed = async (paths: string[]) => {
    const runs: number[] = [];
    let bytes = 0;
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      const bodies = await Promise.all(paths.map((path) => api.call("GET", path, 200)));
      runs.push(performance.now() - start);
      bytes = bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
    }
    return { ...medianOf(runs), bytes };
  };
  return {
    ...(await timed(["/api/health/summary", "/api/health/components?limit=100&offset=0"])),
    wholeList: await timed(["/api/health/components"]),
  };
}

/** Waits until the background checks reach the slow peer (the first tick runs once the API listens). */
async function checksRunning(requests: () => number): Promise<void> {
  const before = requests();
  for (let waited = 0; requests() - before < 10; waited += 100) {
    if (waited > 30_000) throw new Error("the background checks did not start within 30 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function measureStep(
  place: Vacant,
  browser: Browser,
  filled: Filled,
  step: { workspaces: number; components: number },
  peer: { port: number; requests: () => number },
  closedPort: number,
) {
  // Each load after the same warm-up: the process under checks is started afresh, and a cold
  // process's first answers (code, database pages) are not the checks' doing.
  const quiet = await startApiProcess(place);
  let withoutChecks: Figures;
  try {
    console.error(`  filling to ${step.workspaces} workspaces, ${step.components} components...`);
    const fillStart = performance.now();
    await fill(quiet, filled, step, { slow: peer.port, closed: closedPort });
    console.error(`  filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);
    await hammerBrokers(quiet, WARM_UP_SECONDS);
    console.error(`  ${CLIENTS} clients on the brokers list for ${SECONDS} s, no checks...`);
    withoutChecks = await hammerBrokers(quiet);
  } finally {
    await quiet.close();
  }
  const checked = await startApiProcess({ ...place, env: CHECKS });
  try {
    await checksRunning(peer.requests);
    await hammerBrokers(checked, WARM_UP_SECONDS);
    console.error(`  the same under background checks...`);
    const before = peer.requests();
    const withChecks = await hammerBrokers(checked);
    const checksDuringLoad = peer.requests() - before;
    console.error(`  in Chromium (under checks): sign-in to the workspaces list, the Status page...`);
    const signInToWorkspacesMs = await signInToWorkspaces(browser, checked.base, step.workspaces);
    const statusPageMs = await statusPage(browser, checked.base);
    const statusListMs = await statusList(checked);
    console.error(
      `  sign-in ${signInToWorkspacesMs.median} ms, Status page ${statusPageMs.median} ms` +
        ` (its reads ${statusListMs.median} ms, ${statusListMs.bytes} bytes; the whole list` +
        ` ${statusListMs.wholeList.median} ms, ${statusListMs.wholeList.bytes} bytes), brokers list p95` +
        ` ${withoutChecks.p95Ms} ms, under checks ${withChecks.p95Ms} ms (${checksDuringLoad} checks)`,
    );
    return {
      ...step,
      signInToWorkspacesMs,
      statusPageMs,
      statusListMs,
      brokersList: {
        brokers: filled.brokers.length,
        withoutChecks,
        withChecks,
        ratio: Math.round((withChecks.p95Ms / withoutChecks.p95Ms) * 100) / 100,
        checksDuringLoad,
      },
    };
  } finally {
    await checked.close();
  }
}

async function benchDriver(name: DriverName, browser: Browser) {
  const driver = name === "pglite" ? pgliteDriver() : await postgresDriver();
  const place = await driver.vacant();
  const peer = await slowPeer();
  const closedPort = await freePort();
  const filled: Filled = { components: 0, workspaces: 0, brokers: [] };
  try {
    const steps = [];
    for (const step of STEPS) {
      console.error(`[${name}] ${step.workspaces} workspaces, ${step.components} components`);
      steps.push(await measureStep(place, browser, filled, step, peer, closedPort));
    }
    const last = steps.at(-1)!;
    const growths: Growth[] = [
      growth(
        "sign-in to the workspaces list",
        "workspaces",
        "ms",
        steps.map((s) => ({ size: s.workspaces, cost: s.signInToWorkspacesMs.median })),
        name,
      ),
      growth(
        "Status page usable",
        "components",
        "ms",
        steps.map((s) => ({ size: s.components, cost: s.statusPageMs.median })),
        name,
      ),
      growth(
        "brokers list p95, no checks",
        "components",
        "ms",
        steps.map((s) => ({ size: s.components, cost: s.brokersList.withoutChecks.p95Ms })),
        name,
      ),
      growth(
        "brokers list p95, under checks",
        "components",
        "ms",
        steps.map((s) => ({ size: s.components, cost: s.brokersList.withChecks.p95Ms })),
        name,
      ),
    ];
    return {
      driver: name,
      ...last,
      goals: {
        signInUnder1s: last.signInToWorkspacesMs.median < GOALS.signInToWorkspacesMs,
        statusPageUnder1s: last.statusPageMs.median < GOALS.statusPageMs,
        listUnderChecksWithin20pct: last.brokersList.ratio <= GOALS.listP95UnderChecksRatio,
      },
      steps,
      growth: growths,
    };
  } finally {
    await place.dispose();
    await driver.close();
  }
}

async function main(): Promise<number> {
  if (!process.env.BENCH_SKIP_BUILD) {
    const built = spawnSync(process.execPath, [join(root, "scripts/build-console.mjs")], {
      stdio: "inherit",
    });
    if (built.status !== 0) throw new Error("the console did not build");
  }
  const browser = await chromium.launch(chromiumLaunchOptions);
  onCleanup(() => browser.close());
  const results: Awaited<ReturnType<typeof benchDriver>>[] = [];
  for (const name of DRIVERS) results.push(await benchDriver(name, browser));
  if (stopping()) return 2;

  console.log(
    `\nA platform of ${WORKSPACES} workspaces and ${COMPONENTS} components, node ${process.version}` +
      ` (${CLIENTS} clients for ${SECONDS} s; Chromium medians of ${RUNS})\n`,
  );
  const col = (f: (r: (typeof results)[number]) => string) => results.map(f);
  console.log(
    table(
      ["", ...results.map((r) => r.driver)],
      [
        ["Sign-in to the workspaces list, median", ...col((r) => `${r.signInToWorkspacesMs.median} ms`)],
        ["Status page usable, median", ...col((r) => `${r.statusPageMs.median} ms`)],
        [
          "  its reads (summary, first page), median",
          ...col((r) => `${r.statusListMs.median} ms, ${r.statusListMs.bytes} B`),
        ],
        [
          "  the whole list, median",
          ...col((r) => `${r.statusListMs.wholeList.median} ms, ${r.statusListMs.wholeList.bytes} B`),
        ],
        ["Brokers list p50 / p95, no checks", ...col((r) => lat(r.brokersList.withoutChecks))],
        ["  under checks", ...col((r) => lat(r.brokersList.withChecks))],
        ["  p95 ratio", ...col((r) => `${r.brokersList.ratio}x`)],
        ["  checks that reached the slow peer", ...col((r) => String(r.brokersList.checksDuringLoad))],
        [`Goal: sign-in < ${GOALS.signInToWorkspacesMs} ms`, ...col((r) => met(r.goals.signInUnder1s))],
        [`Goal: Status page < ${GOALS.statusPageMs} ms`, ...col((r) => met(r.goals.statusPageUnder1s))],
        [
          `Goal: p95 under checks <= ${GOALS.listP95UnderChecksRatio}x`,
          ...col((r) => met(r.goals.listUnderChecksWithin20pct)),
        ],
      ],
    ),
  );
  console.log("\nGrowth:");
  for (const r of results) for (const g of r.growth) console.log(`  ${growthLine(g)}`);
  const allGoalsMet = results.every((r) => Object.values(r.goals).every(Boolean));
  const out = writeResults("platform", LOAD_BEFORE, {
    settings: {
      workspaces: WORKSPACES,
      components: COMPONENTS,
      steps: STEPS,
      runs: RUNS,
      clients: CLIENTS,
      seconds: SECONDS,
      checks: CHECKS,
      fill: "through the API over HTTP, 8 at a time",
      peers: "even components at a local peer answering after 100-300 ms, odd ones at a closed port",
    },
    goals: GOALS,
    allGoalsMet,
    drivers: results,
  });
  console.log(`\nGoals ${allGoalsMet ? "met" : "NOT met"}. Written: ${out}`);
  return 0;
}

if (smoke) console.error("smoke run: tiny sizes, nothing written");
runBench(main, TIME_LIMIT_S);
