/**
 * Two builds of the console by turns, on one server with the same data and one browser: the sign-in
 * to a usable context brokers list (bench/console's flow) and the entities tab's first page
 * (bench/entities-console's), each timed in the page's own clock (performance.now() from the
 * document's navigation start: the sign-in page until its Continue link, the way back until the
 * list's first broker, the workspace's address until the list's rows and total), so that Playwright's
 * own steps and the machine's load weigh on both builds alike. A before/after on a busy machine.
 * The server's console directory holds both builds' hashed files; index.html is switched between runs.
 * Run: `AB_BASE=/path/to/other/apps/console/dist npx tsx bench/tools/ab-first-pages.ts` (the other
 * build, e.g. of `git worktree add ../base main`; this tree's apps/console/dist is "new"), with
 * AB_ROUNDS (default 10), AB_BROKERS (1000) and AB_ENTITIES (10,000). Prints medians; writes nothing.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Page } from "playwright-core";
import { chromiumLaunchOptions } from "../../e2e/chromium.ts";
import { embeddedWorkspace, json, startApi } from "../lib/api.ts";
import { brokerName, brokerPayload } from "../lib/broker-payload.ts";
import { signedInContexts } from "../lib/browser.ts";
import { onCleanup } from "../lib/cleanup.ts";
import { pgliteDriver } from "../lib/databases.ts";
import { median } from "../lib/measure.ts";
import { runBench } from "../lib/run.ts";

const builds = {
  base: process.env.AB_BASE ?? "",
  new: resolve(import.meta.dirname, "../../apps/console/dist"),
};
const ROUNDS = Number(process.env.AB_ROUNDS ?? 10);
const BROKERS = Number(process.env.AB_BROKERS ?? 1000);
const ENTITIES = Number(process.env.AB_ENTITIES ?? 10_000);
const indexFiles = ["index.html", "index.html.br", "index.html.gz"];
type Build = keyof typeof builds;

/**
 * Milliseconds in the page's clock, checked each frame, when the page shows a link of this text, or
 * (a number) the entities tab's first rows and this total.
 */
async function inPage(page: Page, shown: string | number): Promise<number> {
  const handle = await page.waitForFunction(
    (shown) => {
      const there =
        typeof shown === "string"
          ? [...document.querySelectorAll("a")].some((a) => a.textContent === shown)
          : document.querySelectorAll('table[aria-label="Entities of Sensor"] tbody tr').length >=
              Math.min(20, shown) &&
            (document.querySelector('[data-testid="entities-total"]')?.textContent ?? "").includes(
              String(shown),
            );
      return there ? performance.now() : false;
    },
    shown,
    { polling: "raf", timeout: 60_000 },
  );
  return Math.round((await handle.jsonValue()) as number);
}

async function main(): Promise<number> {
  if (!existsSync(join(builds.base, "index.html")))
    throw new Error("AB_BASE: the other build's dist directory");
  const dir = mkdtempSync(join(tmpdir(), "orrery-ab-"));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  for (const build of Object.values(builds))
    cpSync(join(build, "assets"), join(dir, "assets"), { recursive: true, force: false });
  const use = (build: Build) => {
    for (const file of indexFiles) {
      if (existsSync(join(dir, file))) unlinkSync(join(dir, file));
      if (existsSync(join(builds[build], file))) symlinkSync(join(builds[build], file), join(dir, file));
    }
  };
  use("new");
  console.error(`${readdirSync(join(dir, "assets")).length} files of both builds; filling...`);
  const api = await startApi(await pgliteDriver().fresh(), { CONSOLE_DIR: dir });
  for (let i = 0; i < BROKERS; i++) await api.call("POST", "/api/context-brokers", 201, brokerPayload(i));
  const ws = await embeddedWorkspace(api, api.port, "ab", { dataModelName: "ab-bench" });
  const type = await json(api.call("POST", `/api/workspace/${ws}/types`, 201, { name: "Sensor" }));
  await api.call("POST", `/api/workspace/${ws}/properties`, 201, {
    name: "name",
    ngsiLdType: "Property",
    propertyNgsiLdValueType: "String",
    hasType: type.id,
  });
  await api.call("POST", `/api/workspace/${ws}/data-model/generate`, 200, {});
  const model = await json<{ dataModelName: string; dataModelVersion: number }>(
    api.call("GET", `/api/workspaces/${ws}`, 200),
  );
  const context = `${api.config.dataModelsUrl}/${model.dataModelName}/${model.dataModelVersion}/context.jsonld`;
  for (let from = 0; from < ENTITIES; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, ENTITIES - from) }, (_, k) => ({
      id: `urn:ngsi-ld:Sensor:${String(from + k).padStart(7, "0")}`,
      type: "Sensor",
      name: { type: "Property", value: `Sensor ${from + k}` },
    }));
    const res = await fetch(`${api.base}/ngsi-ld/v1/entityOperations/upsert`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${api.token}`,
        link: `<${context}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
      },
      body: JSON.stringify(batch),
    });
    if (res.status !== 201 && res.status !== 204)
      throw new Error(`upsert: ${res.status} ${await res.text()}`);
  }

  const browser = await chromium.launch(chromiumLaunchOptions);
  onCleanup(() => browser.close());
  const signedIn = await signedInContexts(browser, api.base);
  const figures = ["signInPage", "wayBackToList", "entitiesTab"] as const;
  const times = Object.fromEntries(
    Object.keys(builds).map((b) => [b, Object.fromEntries(figures.map((f) => [f, [] as number[]]))]),
  ) as Record<Build, Record<(typeof figures)[number], number[]>>;
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of (round % 2 ? ["new", "base"] : ["base", "new"]) as Build[]) {
      use(build);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${api.base}/context-brokers`, { waitUntil: "commit" });
      times[build].signInPage.push(await inPage(page, "Continue"));
      await page.getByRole("link", { name: "Continue" }).click();
      await page.getByLabel("Username").fill("admin");
      await page.getByLabel("Password").fill("admin");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname !== "/idm/authorize", { waitUntil: "commit" });
      times[build].wayBackToList.push(await inPage(page, brokerName(0)));
      await context.close();

      const tab = await (await signedIn()).newPage();
      await tab.goto(`${api.base}/workspace/${ws}?typeId=${encodeURIComponent(type.id)}`, {
        waitUntil: "commit",
      });
      times[build].entitiesTab.push(await inPage(tab, ENTITIES));
      await tab.context().close();
    }
  }
  console.log(
    `first pages by turns, ${ROUNDS} rounds, ${BROKERS} brokers, ${ENTITIES} entities (load ${loadavg()[0].toFixed(1)}); medians in the page's clock, ms:`,
  );
  for (const figure of figures)
    console.log(
      `  ${figure.padEnd(14)} base ${String(median(times.base[figure])).padStart(4)}  new ${String(median(times.new[figure])).padStart(4)}   (runs base ${times.base[figure].join(" ")}; new ${times.new[figure].join(" ")})`,
    );
  return 0;
}

runBench(main, Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 900));
