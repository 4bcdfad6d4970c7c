import { expect, test, type Locator, type Page } from "@playwright/test";
import { bearer, en, openSupermarket, selectType, workspaceIdOf } from "./support.ts";

/*
 * Google Sheets import and export of the demo's Product entities, through the API's proxy to the
 * fake Google that playwright.config.ts starts before the server (test/fakes/google-sheets-server.ts:
 * token endpoint with the service account's JWT grant, Sheets v4 values API). The tests seed and
 * read its sheets through the fake's test-only /_fake/sheets endpoint.
 * Screenshots go to test-results/google-sheets/ when SCREENSHOTS is set.
 */

const google = `http://127.0.0.1:${process.env.E2E_GOOGLE_PORT}`;
const spreadsheetId = "1e2e-Supermarket-spreadsheet";
const serviceAccount = "orrery@demo-project.iam.gserviceaccount.com";
const sheetPath = (sheetName: string) =>
  `${google}/_fake/sheets/${encodeURIComponent(spreadsheetId)}/${encodeURIComponent(sheetName)}`;

async function setSheet(sheetName: string, rows: string[][]) {
  const response = await fetch(sheetPath(sheetName), { method: "PUT", body: JSON.stringify(rows) });
  expect(response.status).toBe(200);
}

async function sheetOf(sheetName: string): Promise<string[][]> {
  const response = await fetch(sheetPath(sheetName));
  expect(response.status).toBe(200);
  return (await response.json()) as string[][];
}

const shots = !!process.env.SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `test-results/google-sheets/${name}.png`, fullPage: true });
}

/** The Product list's import/export dialog, open. */
async function openProductsDialog(page: Page) {
  await openSupermarket(page);
  await selectType(page, "Product");
  await page.getByRole("button", { name: en.importExport.button }).click();
  const dialog = page.getByRole("dialog", { name: "Import and export Product entities" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Google Sheets chosen in a tab of the dialog, with the sheet's address. */
async function chooseSheet(panel: Locator, sheetName: string) {
  await panel.getByLabel("Google Sheets").check();
  // The sheet must be shared with the service account: the dialog says which.
  await expect(panel.getByText(serviceAccount)).toBeVisible();
  await panel.getByLabel(`${en.importExport.spreadsheetId} *`).fill(spreadsheetId);
  await panel.getByLabel(`${en.importExport.sheetName} *`).fill(sheetName);
}

test("an operator imports entities from a Google sheet, with a preview and a report per row", async ({
  page,
}) => {
  await setSheet("Products", [
    ["id", "type", "name", "price", "size"],
    ["urn:ngsi-ld:Product:sheet-1", "Product", "Lemons", "1,25", "S"],
    ["urn:ngsi-ld:Product:sheet-2", "Product", "Limes", "0.5", "M"],
    ["urn:ngsi-ld:Product:sheet-3", "Product", "Figs", "cheap", "L"],
  ]);
  const dialog = await openProductsDialog(page);
  const panel = dialog.getByRole("tabpanel", { name: en.importExport.importTab });
  await chooseSheet(panel, "Products");
  await panel.getByRole("button", { name: en.importExport.readSheet }).click();

  // The preview: the sheet's rows as read, and what the import would do with each.
  const preview = panel.getByRole("table", { name: en.importExport.previewTable });
  await expect(preview.getByRole("row")).toHaveCount(4);
  await expect(preview.getByRole("row").nth(1)).toContainText("urn:ngsi-ld:Product:sheet-1");
  await expect(preview.getByRole("cell", { name: "Lemons" })).toBeVisible();
  await expect(panel.getByText("2 to create, 0 to update, 1 rejected.")).toBeVisible();
  const planned = panel.getByRole("table", { name: en.importExport.rejectedRows });
  await expect(planned.getByRole("row")).toHaveCount(2);
  await expect(planned.getByRole("row").nth(1)).toContainText("urn:ngsi-ld:Product:sheet-3");
  await expect(planned).toContainText("is not a number");
  await shot(page, "import-preview");

  await panel.getByRole("button", { name: en.importExport.import, exact: true }).click();
  await expect(panel.getByText("2 created, 0 updated, 1 rejected.")).toBeVisible();
  const failure = page.getByRole("dialog", { name: en.common.errorTitle });
  await expect(failure).toContainText(en.importExport.importFailure);
  await failure.getByRole("button", { name: en.common.close }).last().click();
  await expect(failure).toBeHidden();
  // The report names the refused row (the header is row 1) and why.
  const reported = panel.getByRole("table", { name: en.importExport.rejectedRows });
  await expect(reported.getByRole("row")).toHaveCount(2);
  await expect(reported.getByRole("row").nth(1).getByRole("cell").first()).toHaveText("4");
  await expect(reported).toContainText('"cheap" is not a number');
  await shot(page, "import-report");
  await dialog.getByRole("button", { name: en.common.close }).last().click();
  await expect(dialog).toBeHidden();

  // The two good rows are entities of the list; the refused one is not.
  await page.getByRole("searchbox", { name: en.entities.search }).fill("Product:sheet-");
  const list = page.getByRole("table", { name: "Entities of Product" });
  await expect(list.getByRole("link", { name: "urn:ngsi-ld:Product:sheet-1" })).toBeVisible();
  await expect(list.getByRole("link", { name: "urn:ngsi-ld:Product:sheet-2" })).toBeVisible();
  await expect(list.getByRole("link", { name: "urn:ngsi-ld:Product:sheet-3" })).toHaveCount(0);
  const lemons = await page.request.get(
    `/api/workspace/${workspaceIdOf(page)}/entities/${encodeURIComponent("urn:ngsi-ld:Product:sheet-1")}`,
    { headers: await bearer(page) },
  );
  expect(lemons.status()).toBe(200);
  const entity = await lemons.json();
  expect(entity.name.value).toBe("Lemons");
  expect(entity.price.value).toBe(1.25);
});

test("an operator exports a type's entities to a Google sheet, replacing what it held", async ({ page }) => {
  await setSheet("Export", [["stale"], ["content"]]);
  const dialog = await openProductsDialog(page);
  await dialog.getByRole("tab", { name: en.importExport.exportTab }).click();
  const panel = dialog.getByRole("tabpanel", { name: en.importExport.exportTab });
  await chooseSheet(panel, "Export");
  await panel.getByRole("button", { name: en.importExport.writeSheet }).click();
  const success = page.getByRole("dialog", { name: en.common.successTitle });
  await expect(success).toContainText(en.importExport.exportSuccess);
  await shot(page, "export-success");
  await success.getByRole("button", { name: en.common.close }).last().click();

  const rows = await sheetOf("Export");
  const [header, ...body] = rows;
  expect(header!.slice(0, 2)).toEqual(["id", "type"]);
  expect(header).toEqual(expect.arrayContaining(["name", "price", "size"]));
  expect(rows.flat()).not.toContain("stale");
  // One row per Product entity of the broker.
  const counted = await page.request.get(`/api/workspace/${workspaceIdOf(page)}/entities`, {
    headers: await bearer(page),
    params: { type: "Product", count: "true", limit: "1" },
  });
  expect(body).toHaveLength(Number(counted.headers()["x-total-count"]));
  const column = (name: string) => header!.indexOf(name);
  const apples = body.find((row) => row[0] === "urn:ngsi-ld:Product:001");
  expect(apples?.[column("type")]).toBe("Product");
  expect(apples?.[column("name")]).toBe("Apples");
  expect(Number(apples?.[column("price")])).toBe(0.99);
  expect(apples?.[column("size")]).toBe("S");
});
