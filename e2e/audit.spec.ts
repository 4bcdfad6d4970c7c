import { expect, test } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, label, signIn } from "./support.ts";

test("an administrator changes a record, then finds the change in Activity and in the record's History", async ({
  page,
}) => {
  await signIn(page, "admin", "/context-brokers");
  await page.getByRole("link", { name: "Embedded broker" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Embedded broker" })).toBeVisible();
  const recordUrl = page.url();
  const recordId = decodeURIComponent(new URL(recordUrl).pathname.split("/").at(-1)!);
  const version = `9.${Date.now() % 1000}`;
  await page.getByRole("link", { name: en.common.edit }).click();
  const before = await page.getByLabel(label("implementationVersion")).inputValue();
  await page.getByLabel(label("implementationVersion")).fill(version);
  await page.getByRole("button", { name: en.common.save, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Embedded broker" })).toBeVisible();

  // Administration → Activity, filtered on the record.
  await page.getByRole("button", { name: en.app.administration }).click();
  await page.getByRole("link", { name: en.audit.title }).click();
  await expect(page.getByRole("heading", { level: 1, name: en.audit.title })).toBeVisible();
  await page.getByLabel(en.audit.record).fill(recordId);
  await page.getByRole("button", { name: en.audit.apply }).click();
  const row = page.getByRole("row").filter({ hasText: en.audit.actions.update }).first();
  await expect(row).toContainText("admin");
  await expect(row).toContainText("Embedded broker");
  await row.getByRole("button").click();
  const change = page.getByLabel(en.audit.change);
  const diff = change.getByRole("table", { name: en.audit.diff });
  const versionRow = diff.getByRole("row", { name: new RegExp(en.fields.implementationVersion) });
  await expect(versionRow.locator("del")).toHaveText(before);
  await expect(versionRow.locator("ins")).toHaveText(version);
  await page.screenshot({ path: "/tmp/audit-activity.png", fullPage: true });

  // The row leads to the record, whose History shows the same change.
  await change.getByRole("link", { name: en.audit.openRecord }).click();
  await expect(page).toHaveURL(recordUrl);
  await page.getByRole("button", { name: en.audit.showHistory }).click();
  const update = page.getByRole("region", { name: en.audit.actions.update }).first();
  await expect(update.locator("ins")).toHaveText(version);
  await expect(update).toContainText("admin (dev)");
  await page.screenshot({ path: "/tmp/audit-history.png", fullPage: true });

  // In French.
  await page.getByRole("button", { name: "French" }).click();
  await expect(page.getByRole("heading", { name: fr.audit.history })).toBeVisible();
  // Still open, now in French.
  await expect(page.getByRole("button", { name: fr.audit.hideHistory })).toBeVisible();
  await expect(page.getByRole("region", { name: fr.audit.actions.update }).first()).toContainText(
    "Par admin",
  );
  await page.goto("/activity");
  await expect(page.getByRole("heading", { level: 1, name: fr.audit.title })).toBeVisible();
  await expect(page.getByRole("button", { name: fr.audit.exportCsv })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: fr.audit.when })).toBeVisible();
  await page.screenshot({ path: "/tmp/audit-activity-fr.png", fullPage: true });
});

test("an operator has no Activity page and no History", async ({ page }) => {
  await signIn(page, "operator", "/context-brokers");
  await page.getByRole("link", { name: "Embedded broker" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Embedded broker" })).toBeVisible();
  await expect(page.getByRole("button", { name: en.audit.showHistory })).toHaveCount(0);
  await page.goto("/activity");
  await expect(page.getByText(en.common.notAllowed)).toBeVisible();
});

test("a record created by another client shows in its History as created, with the values it was given", async ({
  page,
}) => {
  await signIn(page, "admin", "/context-brokers");
  const name = `Audited ${Date.now()}`;
  const created = await page.request.post("/api/context-brokers", {
    headers: await bearer(page),
    data: {
      name,
      scheme: "http",
      host: "audited.example.org",
      port: 1026,
      multiTenancyEnabled: false,
      paginationMaxLimit: 1000,
      implementationName: "orion-ld",
      implementationVersion: "1.5.1",
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/context-brokers/${encodeURIComponent(id)}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.getByRole("button", { name: en.audit.showHistory }).click();
  const create = page.getByRole("region", { name: en.audit.actions.create });
  await expect(create).toContainText("admin (dev)");
  await expect(create.getByRole("row", { name: new RegExp(en.fields.host) }).locator("ins")).toHaveText(
    "audited.example.org",
  );
  await expect(create.getByRole("row", { name: new RegExp(en.fields.port) }).locator("ins")).toHaveText(
    "1026",
  );
  await page.screenshot({ path: "/tmp/audit-created.png", fullPage: true });
});
