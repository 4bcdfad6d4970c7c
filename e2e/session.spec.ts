import { expect, test } from "@playwright/test";
import { en, signIn } from "./support.ts";

test("an unauthenticated visitor is sent to the authentication page", async ({ page }) => {
  await page.goto("/context-brokers");
  await expect(page).toHaveURL(/\/authentication$/);
  await expect(page.getByText(en.auth.mustAuthenticate)).toBeVisible();
  await expect(page.getByRole("navigation", { name: en.app.mainNavigation })).toHaveCount(0);
});

test("admin signs in, lands on the page asked for, keeps the session on reload, and signs out", async ({
  page,
}) => {
  await signIn(page, "admin", "/context-brokers");
  await expect(page).toHaveURL(/\/context-brokers$/);
  await expect(page.getByRole("heading", { name: en.kinds["context-brokers"].many })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("link", { name: "Embedded broker" })).toBeVisible();
  // One sign-in per browser: a new tab is signed in too, and signing out here signs it out.
  const tab = await page.context().newPage();
  await tab.goto("/context-brokers");
  await expect(tab.getByRole("link", { name: "Embedded broker" })).toBeVisible();
  await page.getByRole("button", { name: en.app.signOut }).click();
  await expect(page).toHaveURL(/\/authentication$/);
  await expect(tab).toHaveURL(/\/authentication$/);
  await tab.close();
  await page.goto("/context-brokers");
  await expect(page).toHaveURL(/\/authentication$/);
});

test("a wrong password is refused by the identity manager", async ({ page }) => {
  await page.goto("/authentication");
  await page.getByRole("link", { name: en.auth.continue }).click();
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong username or password.");
});

test("the callback is ignored when a value is missing", async ({ page }) => {
  await page.goto("/callbacks/authentication?token=abc&token_type=Bearer");
  await expect(page.getByText(en.auth.callbackIgnored)).toBeVisible();
});

test("a viewer sees no create, edit or delete button", async ({ page }) => {
  await signIn(page, "viewer", "/context-brokers");
  await expect(page.getByRole("link", { name: "Embedded broker" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Create/ })).toHaveCount(0);
  await page.getByRole("link", { name: "Embedded broker" }).click();
  await expect(page.getByRole("heading", { name: "Embedded broker" })).toBeVisible();
  await expect(page.getByRole("link", { name: en.common.edit })).toHaveCount(0);
  await expect(page.getByRole("button", { name: en.common.delete })).toHaveCount(0);
  // Its address typed in, a form it may not use is a clear "not allowed" page, not a form the API refuses.
  await page.goto("/context-brokers/create");
  await expect(page.getByRole("heading", { name: en.common.notAllowedTitle })).toBeVisible();
  await expect(page.getByLabel(/^Host/)).toHaveCount(0);
  await page.goto("/tools/authorization-registries");
  await expect(page.getByRole("heading", { name: en.common.notAllowedTitle })).toBeVisible();
});

test("the showroom user sees no Administration or Tools menu", async ({ page }) => {
  await signIn(page, "showroom");
  await expect(page.getByRole("link", { name: en.app.workspaces, exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: en.app.administration })).toHaveCount(0);
  await expect(page.getByRole("button", { name: en.app.tools })).toHaveCount(0);
  // Its workspaces name their service, as plain text (it may not open the service's page).
  const supermarket = page.getByRole("row", { name: /Supermarket/ });
  await expect(supermarket.getByText("Demo service", { exact: true })).toBeVisible();
  await expect(supermarket.getByRole("link", { name: "Demo service" })).toHaveCount(0);
  await expect(page.getByText(/urn:ngsi-ld:Service:/)).toHaveCount(0);
  // It may read the lists the console loads at sign-in, not a record of the platform: by its
  // address, "not allowed", never a raw 403.
  await page.goto("/context-brokers/urn:ngsi-ld:ContextBroker:00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: en.common.notAllowedTitle })).toBeVisible();
  await expect(page.getByTestId("error-alert")).toHaveCount(0);
});

test("switching to French changes every visible label, and the choice survives a reload", async ({
  page,
}) => {
  await signIn(page, "admin", "/context-brokers/create");
  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await expect(page.getByRole("heading", { name: "Création : courtier de contexte" })).toBeVisible();
  for (const text of [
    "Nom",
    "Schéma",
    "Hôte",
    "Limite maximale de pagination",
    "Multi-locataire activé",
    "Espaces de travail",
    "Se déconnecter",
  ]) {
    await expect(page.getByText(new RegExp(`^${text}( \\*)?$`)).first()).toBeVisible();
  }
  const english = Object.values(en.fields).filter(
    (v) => !["Port", "Description", "Version", "DID", "Type"].includes(v),
  );
  const body = await page.locator("body").innerText();
  for (const text of english) expect(body).not.toContain(text);
  await page.reload();
  await expect(page.getByText("Limite maximale de pagination")).toBeVisible();
  await page.getByRole("button", { name: "Anglais" }).click();
  await expect(page.getByText(en.fields.paginationMaxLimit)).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`list, show and form pages fit ${width} px without horizontal scrolling`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await signIn(page, "admin", "/identity-managers");
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await expect(page.getByRole("link", { name: /Keyrock/ })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole("link", { name: /Keyrock/ }).click();
    await expect(page.locator("dl").first()).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.goto("/context-brokers/create");
    await expect(page.getByRole("button", { name: en.common.create, exact: true })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
}
