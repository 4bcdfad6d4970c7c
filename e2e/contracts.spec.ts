import { expect, test, type Page } from "@playwright/test";
import { en, label, openSupermarket } from "./support.ts";

/*
 * Contracts, contract details and users on the demo's Supermarket workspace, whose types Building
 * and Shelf have scope names and whose users are the development identity manager's: a contract
 * over a store, a detail scoped to a shelf of that store with a role scope name, that role given
 * to a demo user, seen in the users panel, then removed.
 */

const create = (kind: string) => new RegExp(`^${en.common.create}: ${kind}$`);
const submit = (page: Page, name: string) => page.getByRole("button", { name, exact: true }).click();
const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), text);

test("an administrator makes a scoped contract and detail, and gives its role to a demo user", async ({
  page,
}) => {
  await openSupermarket(page);
  await page.getByRole("link", { name: en.kinds.contracts.many, exact: true }).click();
  // The demo's own contract is listed by its stakeholder.
  await expect(page.getByRole("link", { name: "Fresh Foods Logistics" })).toBeVisible();
  await page.getByRole("link", { name: create(en.kinds.contracts.one) }).click();

  await page.getByLabel(label("stakeholderDid")).fill("did:web:greengrocer.example.org");
  await page.getByLabel(label("stakeholderName")).fill("Green Grocer");
  await page.getByLabel(label("validFromTime")).fill("2027-01-01T00:00");
  await page.getByLabel(label("validToTime")).fill("2028-01-01T00:00");
  await page.getByLabel(label("verifiableCredentialType")).fill("GrocerCredential");
  // Only the types with a scope name are offered.
  const scopeType = page.getByLabel(label("scopeType"));
  await expect(scopeType.locator("option")).toHaveText([en.common.choose, "Building", "Shelf", "StockOrder"]);
  await scopeType.selectOption({ label: "Building" });
  // The scope entity is chosen among the broker's buildings, narrowed by a search.
  await page.getByPlaceholder(fill(en.entities.searchTargets, { type: "Building" })).fill("store001");
  const scopeEntity = page.getByLabel(label("scopeEntity"));
  await expect(scopeEntity.locator("option")).toHaveCount(2);
  await scopeEntity.selectOption("urn:ngsi-ld:Building:store001");
  // A stakeholder that is not a DID is refused under its field, and nothing is made.
  await page.getByLabel(label("stakeholderDid")).fill("greengrocer.example.org");
  await submit(page, en.common.create);
  await expect(page.getByText(en.formats.did)).toBeVisible();
  await page.getByLabel(label("stakeholderDid")).fill("did:web:greengrocer.example.org");
  await submit(page, en.common.create);

  await expect(page.getByRole("heading", { level: 1, name: "Green Grocer" })).toBeVisible();
  await expect(page.getByRole("link", { name: "urn:ngsi-ld:Building:store001" })).toBeVisible();
  await expect(page.getByRole("button", { name: en.common.delete })).toBeDisabled();
  await expect(page.getByText(en.contracts.deleteLocked)).toBeVisible();

  // A detail: a role, a role scope name, and a scope on a shelf of that store.
  const details = page.locator(".card").filter({ hasText: en.kinds["contract-details"].many });
  await details.getByRole("link", { name: create(en.kinds["contract-details"].one) }).click();
  await page.getByLabel(label("hasRole")).selectOption({ label: "Stock analyst" });
  await page.getByLabel(label("roleScopeName")).fill("greengrocer-shelf-team");
  await expect(page.getByLabel(label("scopeType"))).toHaveCount(0);
  await page.getByLabel(en.contractDetails.setScope).check();
  const detailType = page.getByLabel(label("scopeType"));
  // The types with a scope name and a relationship to Building (Product has neither).
  await expect(detailType.locator("option")).toHaveText([en.common.choose, "Shelf", "StockOrder"]);
  await detailType.selectOption({ label: "Shelf" });
  // Only the shelves located in store001 are offered.
  const shelf = page.getByLabel(label("scopeEntity"));
  await expect(shelf.locator("option")).toHaveCount(2);
  await shelf.selectOption("urn:ngsi-ld:Shelf:unit001");
  await submit(page, en.common.create);
  // A detail goes by its role scope name.
  await expect(page.getByRole("heading", { level: 1, name: "greengrocer-shelf-team" })).toBeVisible();
  await expect(page.getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" })).toBeVisible();

  // The users panel: nobody holds the role; the viewer is given it, then it is removed.
  const panel = page.getByRole("region", { name: en.users.title });
  await expect(panel.getByText(fill(en.users.none, { role: "greengrocer-shelf-team" }))).toBeVisible();
  await panel.getByPlaceholder(en.users.search).fill("view");
  await panel
    .getByLabel(fill(en.users.assignLabel, { role: "greengrocer-shelf-team" }))
    .selectOption({ label: "viewer (viewer@example.org)" });
  await panel.getByRole("button", { name: en.users.assign }).click();
  await expect(panel.getByRole("cell", { name: "viewer", exact: true })).toBeVisible();

  await panel.getByRole("button", { name: fill(en.users.remove, { user: "viewer" }) }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.common.yes }).click();
  await expect(panel.getByText(fill(en.users.none, { role: "greengrocer-shelf-team" }))).toBeVisible();

  // The contract's page lists the detail.
  await page.getByRole("link", { name: "Green Grocer" }).first().click();
  await expect(details.getByRole("link", { name: "greengrocer-shelf-team" })).toBeVisible();
  await expect(details.getByRole("link", { name: "Stock analyst" })).toBeVisible();
});
