import { expect, test } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, signIn } from "./support.ts";

/**
 * The embedded broker enforces (issue 35): a stranger and a viewer are refused at /ngsi-ld/v1, and
 * the administrator finds each refusal with its reason in Administration → Data access, and the
 * Supermarket's own part of it on the workspace's page.
 */
test("refusals of the embedded broker show in Data access with their reason, in English and French", async ({
  page,
  browser,
  baseURL,
}) => {
  const shelves = `${baseURL}/ngsi-ld/v1/entities?type=Shelf`;
  const tenant = { "NGSILD-Tenant": "supermarket" };
  // A stranger, without a credential.
  const stranger = await fetch(shelves, { headers: tenant });
  expect(stranger.status).toBe(401);
  expect(stranger.headers.get("www-authenticate")).toContain("Bearer");

  // A viewer reads the Supermarket's data and may not change it.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, "viewer");
  const viewer = await bearer(viewerPage);
  expect((await fetch(shelves, { headers: { ...tenant, ...viewer } })).status).toBe(200);
  const refused = await fetch(`${baseURL}/ngsi-ld/v1/entities/urn:ngsi-ld:Shelf:unit001/attrs`, {
    method: "PATCH",
    headers: { ...tenant, ...viewer, "content-type": "application/json" },
    body: JSON.stringify({ numberOfItems: { type: "Property", value: 0 } }),
  });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { reason: string }).reason).toBe("readOnly");
  // The viewer has no Data access page.
  await viewerPage.getByRole("button", { name: en.app.administration }).click();
  await expect(viewerPage.getByRole("link", { name: en.dataAccess.title })).toHaveCount(0);
  await viewerContext.close();

  await signIn(page, "admin");
  await page.getByRole("button", { name: en.app.administration }).click();
  await page.getByRole("link", { name: en.dataAccess.title }).click();
  await expect(page.getByRole("heading", { level: 1, name: en.dataAccess.title })).toBeVisible();
  await page.getByLabel(en.dataAccess.decision, { exact: true }).selectOption("false");
  await page.getByLabel(en.dataAccess.tenant, { exact: true }).fill("supermarket");
  await page.getByRole("button", { name: en.dataAccess.apply }).click();
  const viewerRow = page.getByRole("row").filter({ hasText: en.dataAccess.reasons.readOnly });
  await expect(viewerRow).toContainText("viewer");
  await expect(viewerRow).toContainText("PATCH /entities/urn:ngsi-ld:Shelf:unit001/attrs");
  await expect(viewerRow).toContainText(en.dataAccess.deny);
  const strangerRow = page.getByRole("row").filter({ hasText: en.dataAccess.reasons.noToken });
  await expect(strangerRow.first()).toContainText(en.dataAccess.holders.anonymous);
  await page.screenshot({ path: "/tmp/data-access.png", fullPage: true });

  // The Supermarket's page has its part of the log.
  const list = await fetch(`${baseURL}/api/workspaces`, { headers: await bearer(page) });
  const supermarket = ((await list.json()) as Array<{ id: string; name: string }>).find(
    (w) => w.name === "Supermarket",
  )!;
  await page.goto(`/workspaces/${encodeURIComponent(supermarket.id)}`);
  await page.getByRole("button", { name: en.dataAccess.show }).click();
  const panel = page.getByLabel(en.dataAccess.title);
  await expect(
    panel.getByRole("row").filter({ hasText: en.dataAccess.reasons.readOnly }).first(),
  ).toContainText("viewer");

  // In French.
  await page.getByRole("button", { name: "French" }).click();
  await page.goto("/data-access");
  await expect(page.getByRole("heading", { level: 1, name: fr.dataAccess.title })).toBeVisible();
  await page.getByLabel(fr.dataAccess.decision, { exact: true }).selectOption("false");
  await page.getByRole("button", { name: fr.dataAccess.apply }).click();
  await expect(
    page.getByRole("row").filter({ hasText: fr.dataAccess.reasons.readOnly }).first(),
  ).toContainText(fr.dataAccess.deny);
  await page.screenshot({ path: "/tmp/data-access-fr.png", fullPage: true });
});
