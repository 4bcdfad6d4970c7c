import { expect, test, type Page } from "@playwright/test";
import { en, label, openSupermarket, signIn } from "./support.ts";

/*
 * Data services and roles on the demo's Supermarket workspace, as an administrator builds them:
 * a role, a data service with two properties and two actions, an offer, an access from the role's
 * page; the direction markers in the list and on the chart; the service's links edited and
 * replaced. A viewer then sees the same screens without add, edit or delete buttons.
 */

const create = (kind: string) => new RegExp(`^${en.common.create}: ${kind}$`);
const submit = (page: Page, name: string) => page.getByRole("button", { name, exact: true }).click();

test("an administrator builds a role, a data service, its offer and an access, then edits the links", async ({
  page,
}) => {
  await openSupermarket(page);
  const workspaceUrl = page.url();

  // The demo's own data services are listed, with their markers.
  await page.getByRole("link", { name: en.kinds["data-services"].many, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: en.kinds["data-services"].many })).toBeVisible();
  await expect(page.getByRole("row", { name: /Restocking orders/ }).getByRole("img")).toHaveAccessibleName(
    en.dataServices.direction.both,
  );

  // A role, its validity entered as dates and times.
  await page.goto(workspaceUrl);
  await page.getByRole("link", { name: en.kinds.roles.many, exact: true }).click();
  await page.getByRole("link", { name: create(en.kinds.roles.one) }).click();
  await page.getByLabel(label("name")).fill("Auditor");
  await page.getByLabel(label("notBefore")).fill("2027-01-01T00:00");
  await page.getByLabel(label("notOnOrAfter")).fill("2026-01-01T00:00");
  await page.getByLabel(label("dataServiceProviderId")).fill("did:web:audit.example.org");
  await page.getByLabel(label("verifiableCredentialType")).fill("AuditCredential");
  await submit(page, en.common.create);
  // The server says the end comes before the start, under the field.
  const failed = page.getByRole("dialog", { name: en.common.errorTitle });
  await expect(failed).toBeVisible();
  await failed.getByRole("button", { name: en.common.close }).last().click();
  await expect(
    page.getByText(en.validation.afterField.replace("{{field}}", en.fields.notBefore), { exact: true }),
  ).toBeVisible();
  await page.getByLabel(label("notOnOrAfter")).fill("2028-01-01T00:00");
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "Auditor" })).toBeVisible();
  const roleUrl = page.url();
  await expect(page.getByText(en.roles.deleteLocked)).toBeVisible();
  await expect(page.getByRole("button", { name: en.common.delete })).toBeDisabled();

  // A data service: the type first, then that type's properties and the actions.
  await page.goto(workspaceUrl);
  await page.getByRole("link", { name: en.kinds["data-services"].many, exact: true }).click();
  await page.getByRole("link", { name: create(en.kinds["data-services"].one) }).click();
  await page.getByLabel(label("name")).fill("Shelf audit");
  await expect(page.getByText(/Choose the Type first/)).toBeVisible();
  await page.getByLabel(label("hasEntityType")).selectOption({ label: "Shelf" });
  const properties = page.getByRole("group").filter({ has: page.getByLabel("maxCapacity") });
  await properties.getByLabel("name", { exact: true }).check();
  await properties.getByLabel("numberOfItems").check();
  await page.getByLabel("GET", { exact: true }).check();
  await page.getByLabel("PATCH", { exact: true }).check();
  await page.getByLabel(label("isOffer")).check();
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "Shelf audit" })).toBeVisible();
  const serviceUrl = page.url();
  await expect(page.getByRole("link", { name: "numberOfItems" })).toBeVisible();

  // Its offering, from the offerings card (shown because the service is an offer).
  const offerings = page.locator(".card").filter({ hasText: en.kinds["data-service-offers"].many });
  await offerings.getByRole("link", { name: create(en.kinds["data-service-offers"].one) }).click();
  await page.getByLabel(label("description")).fill("Shelf audits for insurers");
  await page.getByLabel(label("url")).fill("https://market.example.org/offers/audit");
  await submit(page, en.common.create);
  await page.goto(serviceUrl);
  await expect(page.getByRole("link", { name: "Shelf audits for insurers" })).toBeVisible();

  // An access from the role's page.
  await page.goto(roleUrl);
  const accesses = page.locator(".card").filter({ hasText: en.kinds["data-service-accesses"].many });
  await accesses.getByRole("link", { name: create(en.kinds["data-service-accesses"].one) }).click();
  await page.getByLabel(label("hasDataService")).selectOption({ label: "Shelf audit" });
  await submit(page, en.common.create);
  await expect(page.getByText("Auditor", { exact: true }).first()).toBeVisible();
  // An access goes by its role and data service: the page's title; on the role's page its row links
  // to the access and to the data service (spec section 2, Roles).
  await expect(page.getByRole("heading", { level: 1, name: "Auditor → Shelf audit" })).toBeVisible();
  await page.goto(roleUrl);
  await expect(accesses.getByRole("link", { name: "Auditor → Shelf audit", exact: true })).toHaveCount(1);
  await expect(accesses.getByRole("link", { name: "Shelf audit", exact: true })).toHaveAttribute(
    "href",
    /\/data-services\/urn/,
  );
  await expect(accesses.getByRole("columnheader", { name: en.fields.hasDataService })).toBeVisible();

  // The chart marks Shelf as offered.
  await page.goto(workspaceUrl);
  const shelf = page.getByTestId("chart-node").filter({ has: page.getByText("Shelf", { exact: true }) });
  await expect(shelf.getByRole("img")).toHaveAccessibleName(en.dataServices.direction.offer);

  // The links edited: one property swapped, replaced in one save.
  await page.goto(`${serviceUrl}/edit`);
  const editProperties = page.getByRole("group").filter({ has: page.getByLabel("maxCapacity") });
  await editProperties.getByLabel("numberOfItems").uncheck();
  await editProperties.getByLabel("maxCapacity").check();
  await submit(page, en.common.save);
  await expect(page.getByRole("heading", { level: 1, name: "Shelf audit" })).toBeVisible();
  await expect(page.getByRole("link", { name: "maxCapacity" })).toBeVisible();
  await expect(page.getByRole("link", { name: "numberOfItems" })).toHaveCount(0);
});

test("a viewer sees data services and roles without add, edit or delete buttons", async ({ page }) => {
  await signIn(page, "viewer");
  await page.getByRole("button", { name: "Open Supermarket" }).click();
  await page.getByRole("link", { name: en.kinds["data-services"].many, exact: true }).click();
  await expect(page.getByRole("link", { name: "Shelf stock levels" })).toBeVisible();
  await expect(page.getByRole("link", { name: create(en.kinds["data-services"].one) })).toHaveCount(0);
  await page.getByRole("link", { name: "Shelf stock levels" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Shelf stock levels" })).toBeVisible();
  await expect(page.getByRole("link", { name: en.common.edit })).toHaveCount(0);
  await expect(page.getByRole("button", { name: en.common.delete })).toHaveCount(0);
  await expect(page.getByRole("link", { name: create(en.kinds["data-service-offers"].one) })).toHaveCount(0);
});
