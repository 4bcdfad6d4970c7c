import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import Papa from "papaparse";
import { expect, test, type Page } from "@playwright/test";
import { bearer, en, openSupermarket, selectType, workspaceIdOf } from "./support.ts";

/*
 * Context data in the workspace view, on the demo's "Supermarket" workspace (tutorial entities in
 * the embedded broker: Building, Shelf, Product; Shelf numberOfItems has an hour of history).
 * Screenshots go to test-results/context-data/ when SCREENSHOTS is set.
 */

const shots = !!process.env.SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `test-results/context-data/${name}.png`, fullPage: true });
}

test("an operator browses entities, follows a relationship and adds then deletes an attribute", async ({
  page,
}) => {
  await openSupermarket(page);
  await expect(page.getByText(en.entities.noTypeSelected)).toBeVisible();
  await selectType(page, "Shelf");
  const list = page.getByRole("table", { name: "Entities of Shelf" });
  await expect(list.getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" })).toBeVisible();
  await shot(page, "entities-list");

  // Opened at its address, the list is asked for by the start-up script in index.html; the
  // console takes that answer and the preloaded view code instead of asking again.
  const asked: string[] = [];
  page.on("request", (request) => asked.push(new URL(request.url()).pathname));
  await page.reload();
  await expect(list.getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" })).toBeVisible();
  const times = (test: (path: string) => boolean) => asked.filter(test).length;
  // The list once (its live stream, /live/entities, is another request).
  expect(times((path) => path.endsWith("/entities") && !path.includes("/live/"))).toBe(1);
  expect(times((path) => path.endsWith("/types"))).toBe(1);
  expect(times((path) => /\/assets\/WorkspaceView-.*\.js$/.test(path))).toBe(1);

  // The entity card: a property table, the relationship to its building, history clocks.
  await list.getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" }).click();
  await expect(page.getByRole("heading", { level: 2, name: /\(Shelf\)$/ })).toBeVisible();
  const properties = page.getByRole("table", { name: en.entities.properties });
  await expect(properties.getByRole("link", { name: "locatedIn" })).toBeVisible();
  await expect(page.getByRole("link", { name: "History of numberOfItems" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: en.entities.ascending })).toBeVisible();
  await shot(page, "entity-card");
  await properties.getByRole("link", { name: "urn:ngsi-ld:Building:store001" }).click();
  await expect(page.getByRole("heading", { level: 2, name: /\(Building\)$/ })).toBeVisible();
  // What points to the building: its shelves.
  const descending = page.getByRole("navigation", { name: en.entities.descending });
  await expect(descending.getByRole("button", { name: /^Shelf \(\d+\)$/ })).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Shelf" }).getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" }),
  ).toBeVisible();

  // Add an attribute to a shelf that has no numberOfItems, then delete it.
  await selectType(page, "Shelf");
  await page
    .getByRole("table", { name: "Entities of Shelf" })
    .getByRole("link", { name: "urn:ngsi-ld:Shelf:unit002" })
    .click();
  await page.getByRole("link", { name: en.entities.addAttribute }).click();
  await page.getByLabel("Attribute *").selectOption({ label: "numberOfItems" });
  await page.getByLabel("Value of numberOfItems *").fill("7,5");
  await expect(page.getByLabel("Observed at *")).toHaveValue(/^\d{4}-\d\d-\d\dT/);
  await shot(page, "attribute-form");
  await page.getByRole("button", { name: en.common.create, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "numberOfItems" })).toBeVisible();
  await expect(page.getByText("7.5", { exact: true })).toBeVisible();
  await shot(page, "attribute-page");
  await page.getByRole("button", { name: en.common.delete }).click();
  await page.getByRole("button", { name: en.common.yes }).click();
  await expect(page.getByRole("heading", { level: 2, name: /\(Shelf\)$/ })).toBeVisible();
  await expect(
    page.getByRole("table", { name: en.entities.properties }).getByRole("link", { name: "numberOfItems" }),
  ).toHaveCount(0);
});

test("an operator deletes one value of a multi-valued attribute and the other stays", async ({ page }) => {
  await openSupermarket(page);
  // The demo has no multi-valued attribute: give a shelf two values of numberOfItems, one per datasetId.
  const workspaceId = workspaceIdOf(page);
  const shelf = "urn:ngsi-ld:Shelf:unit004";
  const entityPath = `/api/workspace/${workspaceId}/entities/${encodeURIComponent(shelf)}`;
  const [left, right] = ["urn:ngsi-ld:Dataset:e2e-left", "urn:ngsi-ld:Dataset:e2e-right"];
  const added = await page.request.post(`${entityPath}/attrs`, {
    headers: await bearer(page),
    data: {
      numberOfItems: [
        { type: "Property", value: 12, datasetId: left },
        { type: "Property", value: 34, datasetId: right },
      ],
    },
  });
  expect(added.status(), await added.text()).toBe(200);

  await selectType(page, "Shelf");
  await page.getByRole("table", { name: "Entities of Shelf" }).getByRole("link", { name: shelf }).click();
  await page
    .getByRole("table", { name: en.entities.properties })
    .getByRole("link", { name: "numberOfItems", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "numberOfItems" })).toBeVisible();
  const values = page.getByRole("table", { name: en.entities.values });
  await expect(values.getByRole("row")).toHaveCount(3);
  await expect(values.getByText(left)).toBeVisible();
  await expect(values.getByText(right)).toBeVisible();
  await shot(page, "attribute-values");

  const deleteValue = (datasetId: string) =>
    page.getByRole("button", {
      name: en.entities.deleteValue.replace("{{datasetId}}", datasetId),
      exact: true,
    });
  await deleteValue(left).click();
  const confirm = page.getByRole("dialog", { name: en.common.confirmTitle });
  await expect(confirm).toContainText(left);
  await expect(confirm).toHaveCSS("opacity", "1"); // faded in, for the screenshot
  await shot(page, "attribute-value-confirm");
  await confirm.getByRole("button", { name: en.common.yes }).click();
  await expect(values.getByText(left)).toHaveCount(0);
  await expect(values.getByText(right)).toBeVisible();
  await expect(values.getByText("34", { exact: true })).toBeVisible();
  await expect(deleteValue(right)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "numberOfItems" })).toBeVisible();
  await shot(page, "attribute-value-deleted");

  // The broker holds the one value left.
  const stored = await (await page.request.get(entityPath, { headers: await bearer(page) })).json();
  expect([stored.numberOfItems].flat().map((i: { datasetId?: string }) => i.datasetId)).toEqual([right]);
});

test("the map shows the shelves as markers, and a temporal property its history", async ({ page }) => {
  await openSupermarket(page);
  await selectType(page, "Shelf");
  await page.getByRole("tab", { name: en.map.tab }).click();
  const map = page.getByRole("region", { name: "Map of the Shelf entities" });
  await expect(map).toBeVisible();
  // Leaflet draws markers and clusters as icons inside the map (no roles of their own).
  await expect(map.locator(".leaflet-marker-icon").first()).toBeVisible();
  await expect(page.getByTestId("map-count")).toHaveText(/^\d+ shapes$/);
  // Every shape is in view: the map is fitted to them, and so after a cluster is expanded.
  const inView = async () => {
    const box = (await map.boundingBox())!;
    const icons = await map.locator(".leaflet-marker-icon").evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }),
    );
    expect(icons.length).toBeGreaterThan(0);
    for (const c of icons) {
      expect(c.x).toBeGreaterThanOrEqual(box.x);
      expect(c.x).toBeLessThanOrEqual(box.x + box.width);
      expect(c.y).toBeGreaterThanOrEqual(box.y);
      expect(c.y).toBeLessThanOrEqual(box.y + box.height);
    }
  };
  await page.waitForTimeout(500); // the fit's animation
  await inView();
  const cluster = map.locator(".marker-cluster").first();
  if (await cluster.count()) {
    await cluster.click();
    await page.waitForTimeout(800);
    await inView();
  }
  await shot(page, "map");

  await page.getByRole("tab", { name: en.entities.tab }).click();
  await page
    .getByRole("table", { name: "Entities of Shelf" })
    .getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" })
    .click();
  await page.getByRole("link", { name: "History of numberOfItems" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "History of numberOfItems" })).toBeVisible();
  const values = page.getByRole("table", { name: en.temporal.values });
  await expect(values.getByRole("row").nth(1)).toBeVisible();
  const dates = await values.locator("tbody tr td:first-child").allTextContents();
  expect(dates.length).toBeGreaterThan(1);
  expect([...dates].sort().reverse()).toEqual(dates);
  await expect(page.getByRole("img", { name: "Values of numberOfItems over time" })).toBeVisible();
  await shot(page, "temporal");
});

test("a subscription delivers a notification to a receiver after an entity changes", async ({ page }) => {
  const received: unknown[] = [];
  const receiver = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push(body ? JSON.parse(body) : null);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    await openSupermarket(page);
    await selectType(page, "Shelf");
    await page.getByRole("tab", { name: en.subscriptions.tab }).click();
    await page.getByRole("link", { name: en.subscriptions.add }).click();
    await expect(page.getByLabel(en.subscriptions.entityType, { exact: true })).toHaveValue("Shelf");
    await page.getByLabel(en.subscriptions.subscriptionName).fill("Shelf changes");
    await page.getByLabel(`${en.subscriptions.uri} *`).fill(`http://127.0.0.1:${port}/notify`);
    await shot(page, "subscription-form");
    await page.getByRole("button", { name: en.common.create, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Shelf changes" })).toBeVisible();

    // Change a shelf through the API; the broker notifies the receiver.
    const workspaceId = workspaceIdOf(page);
    const response = await page.request.put(
      `/api/workspace/${workspaceId}/entities/${encodeURIComponent("urn:ngsi-ld:Shelf:unit003")}/attrs/maxCapacity`,
      { headers: await bearer(page), data: { type: "Property", value: 77 } },
    );
    expect(response.status()).toBe(200);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(async () => {
      await page.getByRole("button", { name: en.subscriptions.refresh }).click();
      expect(Number(await page.getByTestId("times-sent").textContent())).toBeGreaterThanOrEqual(1);
    }).toPass({ timeout: 15_000 });
    await shot(page, "subscription-page");
  } finally {
    receiver.close();
  }
});

test("500 products imported from a CSV come back in the exported CSV", async ({ page }) => {
  test.setTimeout(90_000);
  await openSupermarket(page);
  await selectType(page, "Product");
  const rows = Array.from({ length: 500 }, (_, i) => ({
    id: `urn:ngsi-ld:Product:e2e-${String(i).padStart(3, "0")}`,
    type: "Product",
    name: `Imported product ${i}`,
    price: (i / 4).toFixed(2),
    size: ["S", "M", "L"][i % 3]!,
  }));
  const csv = Papa.unparse(rows);

  await page.getByRole("button", { name: en.importExport.button }).click();
  const dialog = page.getByRole("dialog", { name: "Import and export Product entities" });
  await dialog.getByLabel(en.importExport.file).setInputFiles({
    name: "products.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await expect(
    dialog.getByRole("table", { name: en.importExport.previewTable }).getByRole("row"),
  ).toHaveCount(11);
  await expect(dialog.getByText("500 to create, 0 to update, 0 rejected.")).toBeVisible();
  await shot(page, "import-preview");
  await dialog.getByRole("button", { name: en.importExport.import, exact: true }).click();
  await expect(dialog.getByText("500 created, 0 updated, 0 rejected.")).toBeVisible({ timeout: 60_000 });
  const success = page.getByRole("dialog", { name: en.common.successTitle });
  await expect(success).toContainText(en.importExport.importSuccess);
  await shot(page, "import-report");
  await success.getByRole("button", { name: en.common.close }).last().click();

  await dialog.getByRole("tab", { name: en.importExport.exportTab }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download Product.csv" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("Product.csv");
  const exported = Papa.parse<Record<string, string>>(readFileSync(await download.path()!, "utf8"), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const byId = new Map(exported.map((row) => [row.id, row]));
  for (const row of rows) {
    const back = byId.get(row.id);
    expect(back, row.id).toBeDefined();
    expect(back!.type).toBe("Product");
    expect(back!.name).toBe(row.name);
    expect(Number(back!.price)).toBe(Number(row.price));
    expect(back!.size).toBe(row.size);
  }
});
