import { expect, test, type Page } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { en, openSupermarket } from "./support.ts";

/*
 * Issue 25, "Records read by what they are", in the demo's Supermarket: an access reads "role →
 * data service", a routing's operations "sequence. action", and a refused delete says so in a
 * sentence with links to what uses the record, the server's answer folded. In English and French;
 * screenshots of each screen go to the test's output.
 */

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

async function toFrench(page: Page) {
  await page.evaluate(() => localStorage.setItem("orrery.language", "fr"));
  await page.reload();
}

test("records without a name read by what identifies them, in English and French", async ({ page }) => {
  await openSupermarket(page);
  const workspaceUrl = page.url();

  // The role's accesses: a link to the access, titled role → data service, and one to the data service.
  await page.getByRole("link", { name: en.kinds.roles.many, exact: true }).click();
  await page.getByRole("link", { name: "Stock analyst", exact: true }).click();
  const accesses = page.locator(".card").filter({ hasText: en.kinds["data-service-accesses"].many });
  await expect(accesses.getByRole("link", { name: "Stock analyst → Shelf stock levels" })).toBeVisible();
  await expect(accesses.getByRole("link", { name: "Shelf stock levels", exact: true })).toBeVisible();
  await shot(page, "role-en");
  const roleUrl = page.url();

  // A refused delete: the sentence, the linked users, the answer folded. (Its dialog names them
  // before Yes, e2e/delete-dialogs.spec.ts; here the check cannot be made, so Yes is the delete's.)
  await page.route("**/delete-check", (route) => route.fulfill({ status: 503, json: { status: 503 } }));
  await accesses.getByRole("link", { name: "Shelf stock levels", exact: true }).click();
  const serviceUrl = page.url();
  await page.getByRole("button", { name: en.common.delete }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.common.yes }).click();
  await page
    .getByRole("dialog", { name: en.common.errorTitle })
    .getByRole("button", { name: en.common.close })
    .last()
    .click();
  const alert = page.getByTestId("error-alert");
  await expect(alert).toContainText(en.errors.blockedBy);
  await expect(alert.getByRole("link", { name: /Stock analyst → Shelf stock levels/ })).toBeVisible();
  await expect(alert.getByRole("link", { name: /stockChanged/ })).toBeVisible();
  await expect(alert.locator("details")).not.toHaveAttribute("open");
  await expect(alert.getByRole("list", { name: en.errors.blockers })).not.toContainText("urn:");
  await shot(page, "refused-delete-en");

  // A routing's operations, by sequence and action.
  await page.goto(workspaceUrl);
  await page.getByRole("link", { name: en.kinds["wot-thing-descriptions"].many, exact: true }).click();
  await page.getByRole("link", { name: "Smart shelf", exact: true }).click();
  await page.getByRole("link", { name: "Night restock", exact: true }).click();
  const operations = page.locator(".card").filter({ hasText: en.kinds["routing-operations"].many });
  await expect(operations.getByRole("link", { name: "1. restock", exact: true })).toBeVisible();
  await expect(operations.getByRole("link", { name: "2. restock", exact: true })).toBeVisible();
  await shot(page, "routing-en");
  const routingUrl = page.url();
  await operations.getByRole("link", { name: "2. restock", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "2. restock" })).toBeVisible();
  await expect(page).toHaveTitle(/2\. restock/);
  await shot(page, "operation-en");

  // The same screens in French.
  await toFrench(page);
  await expect(page.getByRole("heading", { level: 1, name: "2. restock" })).toBeVisible();
  await page.goto(routingUrl);
  await expect(page.getByRole("link", { name: "1. restock", exact: true })).toBeVisible();
  await shot(page, "routing-fr");
  await page.goto(roleUrl);
  await expect(page.getByRole("link", { name: "Stock analyst → Shelf stock levels" })).toBeVisible();
  await shot(page, "role-fr");
  await page.goto(serviceUrl);
  await page.getByRole("button", { name: fr.common.delete }).click();
  await page.getByRole("dialog").getByRole("button", { name: fr.common.yes }).click();
  await page
    .getByRole("dialog", { name: fr.common.errorTitle })
    .getByRole("button", { name: fr.common.close })
    .last()
    .click();
  await expect(page.getByTestId("error-alert")).toContainText(fr.errors.blockedBy);
  await expect(
    page.getByTestId("error-alert").getByRole("link", { name: "événement WoT « stockChanged »" }),
  ).toBeVisible();
  await expect(page.getByTestId("error-alert").locator("summary")).toHaveText(fr.errors.answer);
  await shot(page, "refused-delete-fr");
});
