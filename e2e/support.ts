import { expect, type Page } from "@playwright/test";
import en from "../apps/console/src/i18n/en.json" with { type: "json" };

export { en };

/** Signs in through the development identity manager, as a person would. */
export async function signIn(page: Page, user: string, path = "/workspaces") {
  await page.goto(path);
  await expect(page).toHaveURL(/\/authentication/);
  await page.getByRole("link", { name: en.auth.continue }).click();
  await page.getByLabel("Username").fill(user);
  await page.getByLabel("Password").fill(user);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The navigation bar appears once signed in (its buttons may sit in the collapsed menu on a phone).
  await expect(page.getByRole("navigation", { name: en.app.mainNavigation })).toBeVisible();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A field's label as the form shows it: its English name, with a star when required. */
export const label = (field: string) =>
  new RegExp(`^${escape((en.fields as Record<string, string>)[field]!)}( \\*)?$`);

/** Signed in as admin, the demo's "Supermarket" workspace open on its entities tab. */
export async function openSupermarket(page: Page) {
  await signIn(page, "admin");
  await page.getByRole("button", { name: "Open Supermarket" }).click();
  await expect(page).toHaveURL(/\/workspace\/urn/);
  await expect(page.getByRole("tab", { name: en.entities.tab })).toBeVisible();
}

/** The type chosen in the data-model chart; its entities listed. */
export async function selectType(page: Page, name: string) {
  // The node's name, then perhaps its data services' marker (↑↓).
  await page
    .getByTestId("chart-node")
    .filter({ has: page.getByText(name, { exact: true }) })
    .click();
  await expect(page.getByRole("heading", { level: 2, name, exact: true })).toBeVisible();
}

/** The bearer header of the signed-in page, for API calls made by the test itself. */
export async function bearer(page: Page) {
  const session = await page.evaluate(() => JSON.parse(localStorage.getItem("orrery.session") ?? "{}"));
  return { authorization: `${session.tokenType} ${session.token}` };
}

/** The workspace id of the workspace view the page is on. */
export const workspaceIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split("/")[2]!);
