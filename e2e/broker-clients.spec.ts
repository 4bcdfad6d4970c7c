import { expect, test } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { en, label, signIn } from "./support.ts";

// Broker clients (issue 35): an administrator makes one for a machine, sees its key once, and the
// key is gone from the page as soon as its dialog is closed.

const names = en.kinds["broker-clients"];
const keyDialog = (name: string) => ({ name: en.brokerClients.keyTitle.replace("{{name}}", name) });

test("an admin creates a broker client, sees its key once, then in French revokes it", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("button", { name: en.app.administration }).click();
  await page.getByRole("link", { name: names.many, exact: true }).click();
  await expect(page.getByRole("heading", { name: names.many })).toBeVisible();
  await page.getByRole("link", { name: `${en.common.create}: ${names.one}` }).click();

  await page.getByLabel(label("name")).fill("Shelf counter");
  await page.getByLabel(label("description")).fill("Counts the shelves of the demo supermarket");
  await page.getByRole("checkbox", { name: en.brokerClients.defaultTenant }).check();
  await page.getByLabel(label("tenants")).fill("supermarket");
  await page.getByRole("button", { name: en.strings.add, exact: true }).click();
  await page.getByLabel(label("access")).selectOption({ label: en.options.access.write });
  await page.getByRole("button", { name: en.common.create, exact: true }).click();

  // The key, once, with the sentence that says so and a curl call that uses it.
  const dialog = page.getByRole("dialog", keyDialog("Shelf counter"));
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(en.brokerClients.keyOnce);
  const key = (await dialog.getByTestId("client-key").textContent())!;
  expect(key).toMatch(/^obk_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.locator("pre")).toContainText(`Authorization: Bearer ${key}`);
  await expect(dialog.locator("pre")).toContainText("NGSILD-Tenant: supermarket");
  await expect(dialog.getByRole("button", { name: en.brokerClients.copyKey })).toBeVisible();
  // Escape does not close it: only its button does.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: en.brokerClients.keyCopied }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator("body")).not.toContainText(key.slice(4));

  // The record, with the default tenant written readably; a reload shows no key either.
  await expect(page.getByRole("heading", { name: "Shelf counter" })).toBeVisible();
  const fields = page.locator("dl").first();
  await expect(fields).toContainText(`${en.brokerClients.defaultTenant}, supermarket`);
  await expect(fields).toContainText(en.options.access.write);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Shelf counter" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await page.content()).not.toContain(key.slice(4));

  // In French: the labels, then Revoke, asked first.
  await page.getByRole("button", { name: "French" }).click();
  await expect(fields).toContainText(fr.fields.tenants);
  await expect(fields).toContainText(`${fr.brokerClients.defaultTenant}, supermarket`);
  await expect(fields).toContainText(fr.options.access.write);
  await expect(page.getByRole("button", { name: fr.brokerClients.newKey })).toBeVisible();
  await page.getByRole("button", { name: fr.brokerClients.revoke }).click();
  await expect(page.getByRole("dialog")).toContainText(
    fr.brokerClients.confirmRevoke.replace("{{name}}", "Shelf counter"),
  );
  await page.getByRole("button", { name: fr.common.yes }).click();
  await expect(page.getByText(fr.brokerClients.revokedNote)).toBeVisible();
  await expect(page.getByRole("button", { name: fr.brokerClients.newKey })).toHaveCount(0);

  // The list says which clients are revoked.
  await page.getByRole("link", { name: fr.kinds["broker-clients"].many }).first().click();
  const row = page.getByRole("row", { name: /Shelf counter/ });
  await expect(row).toContainText(fr.common.true);
});

test("a viewer has no broker clients in the Administration menu", async ({ page }) => {
  await signIn(page, "viewer");
  await page.getByRole("button", { name: en.app.administration }).click();
  await expect(page.getByRole("link", { name: en.kinds["context-brokers"].many, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: names.many, exact: true })).toHaveCount(0);
});
