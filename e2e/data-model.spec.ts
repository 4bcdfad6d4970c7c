import { expect, test, type Page } from "@playwright/test";
import { startFakeSmartDataModels } from "../test/fakes/smart-data-models.ts";
import { bearer, en, label, signIn } from "./support.ts";

/*
 * The data model from outside: properties imported from a Smart Data Models definition (served by
 * a fake host on 127.0.0.1, which the server may reach because playwright.config.ts sets
 * PROXY_ALLOW_PRIVATE_NETWORKS), and types auto-discovered from entities written straight into the
 * embedded broker. The names avoid "E2E workspace" and every workspace here ends past version 1,
 * so that workspaces.spec.ts still finds its own workspace and its version "1" link alone.
 */

const create = (kind: string) => new RegExp(`^${en.common.create}: ${kind}$`);

async function createWorkspace(page: Page, name: string, dataModelName: string) {
  await page.goto("/workspaces");
  await page.getByRole("link", { name: create(en.kinds.workspaces.one) }).click();
  await page.getByLabel(label("name")).fill(name);
  await page.getByLabel(label("dataModelName")).fill(dataModelName);
  await page.getByLabel(label("hasService")).selectOption({ label: "Demo service" });
  await page.getByRole("button", { name: en.common.create, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.goto("/workspaces");
  await page.getByRole("button", { name: `Open ${name}` }).click();
  await expect(page).toHaveURL(/\/workspace\/urn/);
  return page.url();
}

/** Generate on the current page (workspace view or types list), confirmed, and the success dialog closed. */
async function generate(page: Page, version: number) {
  await page.getByRole("button", { name: en.dataModel.generate }).click();
  await page.getByRole("button", { name: en.common.yes }).click();
  const success = page.getByRole("dialog", { name: en.common.successTitle });
  await expect(success).toContainText(`version ${version}`);
  await success.getByRole("button", { name: en.common.close }).last().click();
  await expect(success).toBeHidden();
}

const importButton = (page: Page) => page.getByRole("button", { name: /^Import the selection/ });

test("an administrator imports Smart Data Models properties into a type and generates the model", async ({
  page,
}) => {
  const host = await startFakeSmartDataModels();
  try {
    await signIn(page, "admin");
    const workspaceUrl = await createWorkspace(page, "Air quality", "air-quality");

    await page.getByRole("link", { name: en.kinds.types.many, exact: true }).click();
    await page.getByRole("link", { name: create(en.kinds.types.one) }).click();
    await page.getByLabel(label("name")).fill("AirQualityObserved");
    await page
      .getByLabel(label("dataModelGroup"))
      .selectOption({ label: en.options.dataModelGroup["observation-data-collection"] });
    await page.getByRole("button", { name: en.common.create, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "AirQualityObserved" })).toBeVisible();
    const typeUrl = page.url();

    // Import: read the model through the API's proxy, pick three properties, one request.
    await page.getByRole("link", { name: en.properties.import, exact: true }).click();
    await expect(page).toHaveURL(/\/properties\/import$/);
    await page
      .getByLabel(en.fields.standardDataModelDefinitionUrl)
      .fill(`${host.url}/AirQualityObserved/model.yaml`);
    await page.getByRole("button", { name: en.properties.read }).click();
    await expect(page.getByRole("checkbox", { name: "no2", exact: true })).toBeVisible();
    await expect(importButton(page)).toBeDisabled();
    const posted: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/properties")) posted.push(r.url());
    });
    for (const name of ["no2", "temperature", "location"])
      await page.getByRole("checkbox", { name, exact: true }).check();
    await importButton(page).click();

    // Back on the type, with the new properties listed.
    await expect(page).toHaveURL(typeUrl);
    for (const name of ["no2", "temperature", "location"])
      await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatch(/\/properties\/import$/);

    // The model is outdated now; generate it and find the version links.
    await page.goto(workspaceUrl);
    await expect(page.getByText(en.dataModel.outdated)).toBeVisible();
    await generate(page, 1);
    await expect(page.getByText(en.dataModel.outdated)).toBeHidden();
    await expect(page.getByTestId("chart-node").filter({ hasText: "AirQualityObserved" })).toBeVisible();
    await page.goto("/workspaces");
    const row = page.getByRole("row", { name: /Air quality/ });
    await expect(row.getByRole("link", { name: "1", exact: true })).toHaveAttribute(
      "href",
      /\/data-models\/air-quality\/1\/context\.jsonld$/,
    );
    await page.goto(typeUrl);
    await expect(
      page.getByRole("link", { name: /\/air-quality\/1\/AirQualityObserved\/context\.jsonld$/ }),
    ).toBeVisible();

    // A second import: what the type has is highlighted and cannot be chosen again.
    await page.getByRole("link", { name: en.properties.import, exact: true }).click();
    await page
      .getByLabel(en.fields.standardDataModelDefinitionUrl)
      .fill(`${host.url}/AirQualityObserved/model.yaml`);
    await page.getByRole("button", { name: en.properties.read }).click();
    await expect(page.getByRole("checkbox", { name: "no2", exact: true })).toBeDisabled();
    await page.getByRole("button", { name: en.properties.selectAll }).click();
    await expect(page.getByRole("checkbox", { name: "no2", exact: true })).not.toBeChecked();
    await page.getByRole("button", { name: en.properties.selectNone }).click();
    await page.getByRole("checkbox", { name: "co", exact: true }).check();
    await importButton(page).click();
    await expect(page.getByRole("link", { name: "co", exact: true })).toBeVisible();
    await page.goto(workspaceUrl);
    await generate(page, 2);
    await page.goto("/workspaces");
    await expect(row.getByRole("link", { name: "2", exact: true })).toBeVisible();
  } finally {
    await host.close();
  }
});

test("an administrator auto-discovers the types written straight into the broker", async ({
  page,
  baseURL,
}) => {
  const suffix = Date.now().toString(36);
  const entities = [
    {
      id: `urn:ngsi-ld:Building:townhall-${suffix}`,
      type: "Building",
      name: { type: "Property", value: "Town hall" },
      floors: { type: "Property", value: 5 },
      location: { type: "GeoProperty", value: { type: "Point", coordinates: [2.3522, 48.8566] } },
    },
    {
      id: `urn:ngsi-ld:Sensor:s1-${suffix}`,
      type: "Sensor",
      temperature: { type: "Property", value: 21.5 },
      refBuilding: { type: "Relationship", object: `urn:ngsi-ld:Building:townhall-${suffix}` },
    },
  ];
  // Written as the signed-in administrator: the broker answers no one without a credential.
  await signIn(page, "admin");
  const headers = { "content-type": "application/json", ...(await bearer(page)) };
  for (const entity of entities) {
    const res = await fetch(`${baseURL}/ngsi-ld/v1/entities`, {
      method: "POST",
      headers,
      body: JSON.stringify(entity),
    });
    expect(res.status, await res.text()).toBe(201);
  }

  const workspaceUrl = await createWorkspace(page, "Discovered city", "discovered-city");
  // Auto-discover needs an up-to-date model: not offered before the first generation.
  await expect(page.getByRole("button", { name: en.dataModel.generate })).toBeVisible();
  await expect(page.getByRole("button", { name: en.dataModel.autoDiscover })).toHaveCount(0);
  await generate(page, 1);

  await page.getByRole("button", { name: en.dataModel.autoDiscover }).click();
  await page.getByRole("button", { name: en.common.yes }).click();
  const success = page.getByRole("dialog", { name: en.common.successTitle });
  await expect(success).toContainText(en.dataModel.autoDiscovered);
  await expect(success).toContainText("Building");
  await expect(success).toContainText("Sensor: refBuilding");
  await success.getByRole("button", { name: en.common.close }).last().click();

  // The chart and the types list show what was found; the model is outdated until generated again.
  const nodes = page.getByTestId("chart-node");
  await expect(nodes.filter({ hasText: "Building" })).toBeVisible();
  await expect(nodes.filter({ hasText: "Sensor" })).toBeVisible();
  await expect(page.getByText(en.dataModel.outdated)).toBeVisible();
  await expect(page.getByRole("button", { name: en.dataModel.autoDiscover })).toHaveCount(0);
  await page.getByRole("link", { name: en.kinds.types.many, exact: true }).click();
  await expect(page.getByRole("link", { name: "Building", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Sensor", exact: true }).click();
  await expect(page.getByRole("link", { name: "refBuilding" })).toBeVisible();
  await expect(page.getByRole("link", { name: "temperature" })).toBeVisible();

  await page.goto(workspaceUrl);
  await generate(page, 2);
  await expect(page.getByRole("button", { name: en.dataModel.autoDiscover })).toBeVisible();
});
