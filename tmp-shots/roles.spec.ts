import { test } from "@playwright/test";
import { openSupermarket } from "../e2e/support.ts";
test("roles", async ({ page }) => {
  await openSupermarket(page);
  await page.getByRole("link", { name: "Roles" }).first().click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: "/tmp/shot-roles.png", fullPage: true });
  await page.getByRole("link", { name: "Stock analyst" }).click();
  await page.waitForTimeout(1200);
  await page.screenshot({ path: "/tmp/shot-role.png", fullPage: true });
});
