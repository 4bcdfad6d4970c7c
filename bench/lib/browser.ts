import type { Browser, BrowserContext, Page } from "playwright-core";

const viewport = { width: 1280, height: 900 };

/**
 * Signs in as the dev admin once, and returns a maker of fresh browser contexts that already hold
 * the session: the console keeps it in localStorage, and a fresh context has none, so an init script puts it back
 * before the console's own scripts run. Each context starts with an empty HTTP cache.
 */
export async function signedInContexts(
  browser: Browser,
  base: string,
): Promise<() => Promise<BrowserContext>> {
  const login = await browser.newContext({ viewport });
  const page = await login.newPage();
  await page.goto(`${base}/workspaces`);
  await page.getByRole("link", { name: "Continue" }).click();
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("admin");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/workspaces"));
  const session = await page.evaluate(() => localStorage.getItem("orrery.session"));
  if (!session) throw new Error("no session after signing in");
  await login.close();
  return async () => {
    const context = await browser.newContext({ viewport });
    await context.addInitScript((value) => localStorage.setItem("orrery.session", value), session);
    return context;
  };
}

/**
 * Waits until the page shows what `shows` (run in the page) finds, testing at every animation frame.
 * A locator's waitFor() tests again after 0, 20, 50, 100, 100, then every 500 ms (Playwright's
 * backoff): a screen drawn at 530 ms was timed at 1,000 ms. A test begun in a document that then
 * navigates (a sign-in's redirects) is begun again in the next one.
 */
export async function whenShown<A>(
  page: Page,
  shows: (arg: A) => unknown,
  arg: A,
  timeout = 60_000,
): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    try {
      await page.waitForFunction(shows as (arg: unknown) => unknown, arg as unknown, {
        polling: "raf",
        timeout: Math.max(1, end - Date.now()),
      });
      return;
    } catch (error) {
      const navigated = /context was destroyed|navigation|Target closed/i.test(String(error));
      if (!navigated || Date.now() >= end) throw error;
    }
  }
}

/** A link of exactly this accessible text is in the page (whenShown's test). */
export const linkNamed = (name: string) =>
  [...document.querySelectorAll("a")].some((a) => a.textContent?.trim() === name);

/** The first link named `first` and the last named `last`, or the button that names `total` (a usable list). */
export const listUsable = ({ first, last, total }: { first: string; last: string; total: number }) => {
  const links = [...document.querySelectorAll("a")].map((a) => a.textContent?.trim());
  const buttons = [...document.querySelectorAll("button")].map((b) => b.textContent ?? "");
  return (
    links.includes(first) && (links.includes(last) || buttons.some((b) => b.includes(`of ${total} shown`)))
  );
};

/** A form field labelled `label` is in the page. */
export const fieldLabelled = (label: string) =>
  [...document.querySelectorAll("label")].some((l) => l.textContent?.trim() === label);
