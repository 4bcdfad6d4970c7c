/**
 * bench/tools/data-model-chart-turns: the data-model chart's first render (bench/data-model's figure 2),
 * for two or more builds of the console by turns on one machine, so that a change can be judged on
 * a shared, noisy machine: one PGlite database and one app per build (CONSOLE_DIR), each run of
 * each build in a fresh signed-in context, build after build. Prints per build the median time from
 * navigation start to the chart on screen (`onScreen`) and the page's main-thread task time by then
 * (Chromium's TaskDuration in thread time: work, less noisy than time), and the type nodes drawn.
 * Writes nothing.
 * Run: `BENCH_CONSOLE_DIRS=/tmp/console-before,apps/console/dist npx tsx bench/tools/data-model-chart-turns.ts`
 * (build the other tree's console with `npx vite build --outDir /tmp/console-before` in its
 * apps/console). Environment: BENCH_TYPES (200), BENCH_RUNS (9), CHROMIUM_PATH.
 */
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../../e2e/chromium.ts";
import { embeddedWorkspace, startApi } from "../lib/api.ts";
import { signedInContexts } from "../lib/browser.ts";
import { onCleanup } from "../lib/cleanup.ts";
import { pgliteDriver } from "../lib/databases.ts";
import { buildModel, onScreen } from "../lib/data-model-chart.ts";
import { median } from "../lib/measure.ts";
import { runBench } from "../lib/run.ts";

const TYPES = Number(process.env.BENCH_TYPES ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const DIRS = (process.env.BENCH_CONSOLE_DIRS ?? "apps/console/dist").split(",");
const log = (...args: unknown[]) => console.error(...args);

async function main(): Promise<number> {
  const fresh = await pgliteDriver().fresh();
  onCleanup(() => fresh.dispose());
  const apps = [];
  for (const dir of DIRS) apps.push(await startApi(fresh, { CONSOLE_DIR: dir }));
  const ws = await embeddedWorkspace(apps[0]!, apps[0]!.port, "chart");
  log(`${TYPES} types...`);
  await buildModel(apps[0]!, ws, TYPES, 30, log);
  await apps[0]!.call("POST", `/api/workspace/${ws}/data-model/generate`, 200, {});
  const browser = await chromium.launch(chromiumLaunchOptions);
  onCleanup(() => browser.close());
  const signedIn = [];
  for (const app of apps) signedIn.push(await signedInContexts(browser, app.base));
  const times: number[][] = apps.map(() => []);
  const work: number[][] = apps.map(() => []);
  const drawn: number[] = [];
  for (let run = 0; run < RUNS; run++)
    for (const [i, app] of apps.entries()) {
      const context = await signedIn[i]!();
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      // Thread time: the work done, not the time waited for a core on a loaded machine.
      await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
      await tab.goto(`${app.base}/workspace/${ws}`, { waitUntil: "commit" });
      const at = await tab.waitForFunction(onScreen, TYPES, { polling: "raf", timeout: 60_000 });
      times[i]!.push(Math.round((await at.jsonValue()) as number));
      const { metrics } = await cdp.send("Performance.getMetrics");
      const task = metrics.find((m) => m.name === "TaskDuration")?.value ?? 0;
      work[i]!.push(Math.round(task * 1000));
      drawn[i] = await tab.locator(".react-flow__node").count();
      await context.close();
    }
  for (const [i, dir] of DIRS.entries())
    console.log(
      `${dir}: chart on screen median ${median(times[i]!)} ms (${times[i]!.join(", ")}); ` +
        `main-thread task time median ${median(work[i]!)} ms (${work[i]!.join(", ")}); type nodes drawn ${drawn[i]}`,
    );
  return 0;
}

runBench(main, Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 900));
