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
