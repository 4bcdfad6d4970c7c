import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { routePaths } from "../apps/console/src/routes.ts";
import { odrlOf } from "@orrery/model/odrl";
import { samplePayload } from "../test/samples/platform.ts";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, registerFdscComponents, signIn, useFdscFakes } from "./support.ts";

/*
 * Issue 37, "Usable by everyone": every page of the console, with the demo data, has no serious or
 * critical axe-core violation of WCAG 2.1 A and AA, in English and in French. The pages are found as
 * a person finds them: by following the links of each page (and of the top bar's menus), from the
 * workspaces list and the demo workspace's view and its tabs; one page of each route (routes.ts) is
 * checked, and the workspace view once for each of its tabs and selections (an entity of each type).
 */

/** Routes the crawl cannot visit, each with its reason (none today: add one only with its reason). */
const unvisitable: Record<string, string> = {};

const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** A route's path as a pattern: `/workspace/:workspaceId/types` → /^\/workspace\/[^/]+\/types$/. */
const patterns = Object.entries(routePaths).map(([name, path]) => ({
  name,
  regex: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}$`),
  // react-router ranks static segments first: "properties/import" above "properties/:propertyId".
  statics: path.split("/").filter((s) => s && !s.startsWith(":")).length,
}));

function routeOf(pathname: string): string | undefined {
  return patterns.filter((p) => p.regex.test(pathname)).sort((a, b) => b.statics - a.statics)[0]?.name;
}

/** What a page is for the crawl: its route, and for the workspace view its tab and what is selected. */
function pageKey(href: string): string | undefined {
  const url = new URL(href, "http://console");
  const route = routeOf(url.pathname);
  if (!route || route === "callbacks.authentication") return undefined;
  if (route !== "workspace") return route;
  const tab = url.searchParams.get("activeTab") ?? "entities";
  const chosen = ["typeId", "entityId"].filter((name) => url.searchParams.has(name));
  // An entity of each type: their cards differ (a shelf's attributes have histories).
  const type = url.searchParams.has("entityId") ? [url.searchParams.get("typeId")] : [];
  return [route, tab, ...chosen, ...type].join(" ");
}

/**
 * The workspace view's tabs are buttons, not links: with a type chosen, its subscriptions and map
 * tabs are queued too (the subscriptions tab of a type links to creating one).
 */
function otherTabs(href: string): string[] {
  const url = new URL(href, "http://console");
  if (
    routeOf(url.pathname) !== "workspace" ||
    !url.searchParams.has("typeId") ||
    url.searchParams.has("entityId")
  )
    return [];
  return ["subscriptions", "map"].map((tab) => {
    url.searchParams.set("activeTab", tab);
    return url.pathname + url.search;
  });
}

/** Waits until the page's data is on screen: no spinner or placeholder left in the main area. */
async function settled(page: Page) {
  await expect(page.locator("main .spinner-border, main .placeholder-glow")).toHaveCount(0, {
    timeout: 10_000,
  });
}

/** Serious and critical violations, each with its first elements and why. */
async function serious(page: Page, whole: boolean) {
  const axe = new AxeBuilder({ page }).withTags(wcag).options({ resultTypes: ["violations"] });
  // The top bar is the same on every page: checked with the first page of each run.
  const result = await (whole ? axe : axe.include("main")).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      help: v.help,
      nodes: v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n")[1] ?? ""}`),
    }));
}

/** A path opened inside the single-page console, as its links do (no reload). */
async function open(page: Page, href: string) {
  await page.evaluate((to) => {
    history.pushState(null, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, href);
  await expect(page).toHaveURL((url) => url.pathname + url.search === href);
}

const hrefsIn = (page: Page, scope: string) =>
  page.locator(`${scope} a[href^='/'], ${scope} a[href^='?']`).evaluateAll((as) =>
    as.map((a) => {
      const url = new URL((a as HTMLAnchorElement).href);
      return url.pathname + url.search;
    }),
  );

/** Same-origin links of the page, and of the top bar's menus (one open at a time) when asked. */
async function linksOf(page: Page, withMenus: boolean): Promise<string[]> {
  const hrefs = await hrefsIn(page, "body");
  if (!withMenus) return hrefs;
  const menus = page.locator("header button.dropdown-toggle");
  for (let i = 0; i < (await menus.count()); i++) {
    const menu = menus.nth(i);
    if (!(await menu.isVisible())) continue;
    await menu.click();
    hrefs.push(...(await hrefsIn(page, "header .dropdown-menu")));
    await page.keyboard.press("Escape");
  }
  return hrefs;
}

async function crawl(page: Page, start: string[]) {
  const checked = new Map<string, string>(); // page key → path checked
  const found: Record<string, unknown> = {};
  const queue = [...start];
  while (queue.length > 0) {
    const href = queue.shift()!;
    const key = pageKey(href);
    if (!key || checked.has(key)) continue;
    checked.set(key, href);
    await open(page, href);
    await settled(page);
    const violations = await serious(page, checked.size === 1);
    if (violations.length > 0) found[`${key}: ${href}`] = violations;
    // The top bar is the same on every page: its menus are opened on the first only.
    for (const next of [...(await linksOf(page, checked.size === 1)), ...otherTabs(href)]) {
      const nextKey = pageKey(next);
      if (nextKey && !checked.has(nextKey)) queue.push(next);
    }
  }
  return { checked, found };
}

// The demo has no FDSC component nor broker client: some are registered for the crawl (against
// fakes answering as the real services do), and deleted after it.
const fakes = useFdscFakes();

interface Registered {
  /** Pages the demo's links do not lead to: the FDSC workspace's policies, a service's configuration. */
  start: string[];
  /** Deletes what was registered, last made first. */
  unregister: () => Promise<void>;
}

/**
 * Registers the records the demo lacks, through the API as a person's console would: an FDSC
 * service and a workspace on it with an ODRL policy, a trusted issuer in the list, an authorization
 * registry and its grant, a VC verifier, a subscription and an offer of a data service in
 * Supermarket.
 */
async function registered(page: Page, language: string): Promise<Registered> {
  const headers = await bearer(page);
  const tag = `a11y ${language} ${Date.now().toString(36)}`;
  const made: string[] = [];
  const unregister = async () => {
    for (const path of made.reverse()) {
      const res = await page.request.delete(path, { headers });
      expect(res.status(), `DELETE ${path}: ${await res.text()}`).toBe(204);
    }
  };
  const get = async <T>(path: string) => {
    const res = await page.request.get(`/api${path}`, { headers });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as T;
  };
  const post = async (path: string, data: object, idOf = (body: { id: string }) => body.id) => {
    const res = await page.request.post(`/api${path}`, { headers, data });
    expect(res.status(), `POST ${path}: ${await res.text()}`).toBe(201);
    const id = idOf((await res.json()) as { id: string });
    made.push(`/api${path}/${encodeURIComponent(id)}`);
    return id;
  };
  const none = () => "";
  try {
    const { papId, ccsId, tilId } = await registerFdscComponents(
      (path, data) => post(path, data),
      fakes,
      tag,
    );
    await post("/broker-clients", { name: `Client ${tag}`, tenants: [""], access: "read" });
    await post(
      `/trusted-issuers-lists/${encodeURIComponent(tilId)}/issuers`,
      {
        // Hostile bytes in the DID: its pages are reached through encoded path segments.
        did: `did:key:z6Mk${language}.*+?(|\\`,
        credentials: [
          {
            credentialsType: "OperatorCredential",
            validFor: { from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" },
            claims: [{ name: "roles", path: "$.roles[*].names[*]", allowedValues: ["OPERATOR"] }],
          },
        ],
      },
      (body) => (body as unknown as { did: string }).did,
    );

    const registryId = await post("/authorization-registries", {
      ...samplePayload("authorization-registries", none),
      name: `AR ${tag}`,
    });
    await post("/authorization-registry-grants", {
      ...samplePayload("authorization-registry-grants", () => registryId),
      name: `AR grant ${tag}`,
    });
    await post("/vc-verifiers", { ...samplePayload("vc-verifiers", none), name: `Verifier ${tag}` });

    // A service in FDSC mode on the embedded broker, and a workspace on it with a policy.
    const brokers = await get<Array<{ id: string; name: string }>>("/context-brokers");
    const serviceId = await post("/services", {
      name: `FDSC service ${tag}`,
      hasContextBroker: brokers.find((b) => b.name === "Embedded broker")!.id,
      authorizationRequired: true,
      authorizationMode: "fdsc",
      hasPolicyAdministrationPoint: papId,
      hasCredentialsConfigService: ccsId,
      hasTrustedIssuersList: tilId,
      clientId: `a11y-${language}`,
    });
    const workspaceId = await post("/workspaces", {
      name: `FDSC ${tag}`,
      dataModelName: `a11y-${language}-${Date.now().toString(36)}`,
      hasService: serviceId,
    });
    const workspace = `/workspace/${encodeURIComponent(workspaceId)}`;
    await post(`${workspace}/odrl-policies`, {
      odrl: odrlOf({
        uid: `urn:orrery:policy:a11y-${language}`,
        assignee: { kind: "role", role: "OPERATOR", credentialType: "OperatorCredential" },
        actions: ["odrl:read"],
        target: { kind: "entityType", entityType: "K8SCluster" },
        constraints: [],
      }),
    });

    // An offer of a Supermarket data service (its offerings card shows on an offer service only).
    const supermarket = (await get<Array<{ id: string; name: string }>>("/workspaces")).find(
      (w) => w.name === "Supermarket",
    )!;
    const market = `/workspace/${encodeURIComponent(supermarket.id)}`;
    const types = await get<Array<{ id: string; name: string }>>(`${market}/types`);
    const subscriptionId = await post(`${market}/subscriptions`, {
      type: "Subscription",
      subscriptionName: `Subscription ${tag}`,
      entities: [{ type: types[0]!.name }],
      notification: {
        format: "keyValues",
        endpoint: { uri: "http://127.0.0.1:9/notify", accept: "application/json" },
      },
    });
    const serviceOffered = await post(`${market}/data-services`, {
      name: `Offered ${tag}`,
      hasEntityType: types[0]!.id,
      isOffer: true,
    });
    await post(`${market}/data-service-offers`, {
      description: `Offer ${tag}`,
      url: "https://market.example.org/offers/1",
      hasDataService: serviceOffered,
    });
    return {
      start: [
        `${workspace}/odrl-policies`,
        `/services/${encodeURIComponent(serviceId)}/credential-configuration`,
        `/trusted-issuers-lists/${encodeURIComponent(tilId)}/issuers`,
        `${market}/data-services/${encodeURIComponent(serviceOffered)}`,
        `${market}/subscriptions/${encodeURIComponent(subscriptionId)}`,
      ],
      unregister,
    };
  } catch (error) {
    await unregister();
    throw error;
  }
}

for (const language of ["en", "fr"]) {
  test(`every page has no serious or critical axe violation (${language})`, async ({ page }) => {
    // About 110 pages: two minutes on a quiet machine, up to six on a busy one.
    test.setTimeout(Number(process.env.A11Y_TIMEOUT ?? 360_000));
    const found: Record<string, unknown> = {};
    // Checked once shown, not while a tab or alert fades in (Bootstrap's fades stop with reduced motion).
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/authentication");
    await page.evaluate((l) => localStorage.setItem("orrery.language", l), language);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    const signInPage = await serious(page, true);
    if (signInPage.length > 0) found.authentication = signInPage;
    // The way back from the identity manager, without its token: it says the sign-in was ignored.
    await page.goto("/callbacks/authentication");
    await expect(
      page.getByRole("link", { name: language === "fr" ? fr.auth.title : en.auth.title }),
    ).toBeVisible();
    const callback = await serious(page, true);
    if (callback.length > 0) found["callbacks.authentication"] = callback;

    // Signed in as support.ts does, in English; then the language of the run.
    await page.evaluate(() => localStorage.setItem("orrery.language", "en"));
    await signIn(page, "admin");
    const { start, unregister } = await registered(page, language);
    await page.evaluate((l) => localStorage.setItem("orrery.language", l), language);
    await page.goto("/workspaces");
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    await page
      .getByRole("button", { name: /Supermarket/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/workspace\/urn/);
    const workspace = new URL(page.url()).pathname;
    const tabs = ["entities", "subscriptions", "map"].map((tab) => `${workspace}?activeTab=${tab}`);
    const { checked, found: crawled } = await crawl(page, [
      ...tabs,
      "/workspaces",
      "/tools/authorization-registries",
      ...start,
    ]).finally(unregister);
    Object.assign(found, crawled);

    const routes = new Set([...checked.keys()].map((key) => key.split(" ")[0]));
    const missing = Object.keys(routePaths).filter(
      (r) =>
        !routes.has(r) && !["authentication", "callbacks.authentication"].includes(r) && !(r in unvisitable),
    );
    console.log(`${language}: ${checked.size} pages checked`);
    expect(found).toEqual({});
    // Every route of routes.ts is checked, or said above why it cannot be.
    expect(missing, "routes neither visited nor listed in `unvisitable`").toEqual([]);
    // The demo data reaches at least these: the console's own pages and the generic ones of every kind it has.
    expect(checked.size).toBeGreaterThan(100);
  });
}

test("at 390 px wide the menus and lists stay usable", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const shot = (name: string) =>
    page.screenshot({ path: test.info().outputPath(`${name}-390.png`), fullPage: true });
  /** Nothing wider than the screen: the page never scrolls sideways (a wide table scrolls in its own box). */
  const fits = async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await signIn(page, "admin");
  await fits();
  await shot("workspaces");

  // The collapsed menu opens from its toggle; the Administration menu's links are on screen and lead on.
  const toggle = page.getByRole("button", { name: en.app.toggleNavigation });
  await toggle.click();
  const administration = page.getByRole("button", { name: en.app.administration });
  await administration.click();
  const brokers = page.getByRole("link", { name: en.kinds["context-brokers"].many });
  await expect(brokers).toBeInViewport();
  await shot("menu");
  await brokers.click();
  await expect(page.getByRole("heading", { level: 1, name: en.kinds["context-brokers"].many })).toBeVisible();
  await expect(page.getByRole("link", { name: "Embedded broker" })).toBeInViewport();
  await fits();
  await shot("context-brokers");

  // A workspace: its actions wrap, the types read as a list, the entities listed and opened.
  await page.goto("/workspaces");
  await page.getByRole("button", { name: "Open Supermarket" }).click();
  await expect(page).toHaveURL(/\/workspace\/urn/);
  await page.getByRole("button", { name: en.workspace.asList }).click();
  const shelf = page
    .getByRole("table", { name: en.workspace.listCaption })
    .getByRole("button", { name: `${en.workspace.showEntities} (Shelf)` });
  await shelf.click();
  const entities = page.getByRole("table", { name: "Entities of Shelf" });
  await expect(entities.getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" })).toBeVisible();
  await shot("workspace");
  await fits();
  await entities.getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" }).click();
  await expect(page.getByRole("heading", { level: 2, name: /\(Shelf\)$/ })).toBeVisible();
  await shot("entity");
  await fits();
});
