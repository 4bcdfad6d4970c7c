import type { Browser, BrowserContext } from "playwright-core";

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
