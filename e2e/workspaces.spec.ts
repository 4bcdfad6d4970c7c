import { expect, test, type Page } from "@playwright/test";
import { en, label, signIn } from "./support.ts";

const workspaceName = "E2E workspace";
const create = (kind: string) => new RegExp(`^${en.common.create}: ${kind}$`);

async function createType(page: Page, name: string, group: string) {
  await page.getByRole("link", { name: create(en.kinds.types.one) }).click();
  await page.getByLabel(label("name")).fill(name);
  await page.getByLabel(label("dataModelGroup")).selectOption({ label: group });
  await page.getByRole("button", { name: en.common.create, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

/** Where the chart draws a node, in the chart's own coordinates (independent of zoom and fit). */
const nodePosition = (page: Page, name: string) =>
  page.locator(".react-flow__node", { hasText: name }).evaluate((el) => (el as HTMLElement).style.transform);

test("an administrator builds a data model, generates it and arranges the chart", async ({ page }) => {
  await signIn(page, "admin");

  await page.getByRole("link", { name: create(en.kinds.workspaces.one) }).click();
  await page.getByLabel(label("name")).fill(workspaceName);
  await page.getByLabel(label("dataModelName")).fill("e2e-model");
  await page.getByLabel(label("hasService")).selectOption({ label: "Demo service" });
  await page.getByRole("button", { name: en.common.create, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: workspaceName })).toBeVisible();

  // Opening shows the workspace view and puts the workspace in the second bar, across reloads.
  await page.goto("/workspaces");
  await page.getByRole("button", { name: `Open ${workspaceName}` }).click();
  await expect(page).toHaveURL(/\/workspace\/urn/);
  const bar = page.getByRole("navigation", { name: en.app.openWorkspaces });
  await expect(bar.getByRole("link", { name: workspaceName })).toBeVisible();
  await page.reload();
  await expect(bar.getByRole("link", { name: workspaceName })).toBeVisible();
  const workspaceUrl = page.url();

  await page.getByRole("link", { name: en.kinds.types.many, exact: true }).click();
  await createType(page, "Building", en.options.dataModelGroup.infrastructure);
  await page.getByRole("link", { name: en.kinds.types.many, exact: true }).click();
  await createType(page, "Room", en.options.dataModelGroup.equipment);

  await page.getByRole("link", { name: create(en.kinds.properties.one) }).click();
  await page.getByLabel(label("name")).fill("refBuilding");
  await page.getByLabel(label("ngsiLdType")).selectOption({ label: en.options.ngsiLdType.Relationship });
  await page.getByLabel(label("relationshipType")).selectOption({ label: "Building" });
  await page.getByRole("button", { name: en.common.create, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "refBuilding" })).toBeVisible();

  await page.goto(workspaceUrl);
  await expect(page.getByText(en.dataModel.outdated)).toBeVisible();
  await page.getByRole("button", { name: en.dataModel.generate }).click();
  await page.getByRole("button", { name: en.common.yes }).click();
  // The confirmation may still be fading out: name the dialog.
  const success = page.getByRole("dialog", { name: en.common.successTitle });
  await expect(success).toContainText("version 1");
  await success.getByRole("button", { name: en.common.close }).last().click();
  await expect(page.getByText(en.dataModel.outdated)).toBeHidden();

  // Two coloured nodes and one arrow from Room to Building.
  const nodes = page.getByTestId("chart-node");
  await expect(nodes).toHaveCount(2);
  await expect(nodes.filter({ hasText: "Building" })).toHaveAttribute("data-colour", "#fc5c65");
  await expect(nodes.filter({ hasText: "Room" })).toHaveAttribute("data-colour", "#a55eea");
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);

  // Dragging saves the position; a reload finds the node there.
  const before = await nodePosition(page, "Room");
  const room = nodes.filter({ hasText: "Room" });
  // The success dialog fades out: hovering waits until the node itself receives the pointer (raw mouse
  // events do not, and a press on the fading dialog drags nothing).
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await room.hover();
  const box = (await room.boundingBox())!;
  const saved = page.waitForResponse(
    (r) => r.url().includes("/position-in-chart") && r.request().method() === "PUT",
  );
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 90, { steps: 8 });
  await page.mouse.up();
  const response = await saved;
  expect(response.status()).toBe(200);
  // The saved position is rounded to whole pixels; the node shows it once the types are read again.
  const [x, y] = response.request().postDataJSON() as [number, number];
  const after = `translate(${x}px, ${y}px)`;
  expect(after).not.toBe(before);
  await expect.poll(() => nodePosition(page, "Room")).toBe(after);
  await page.reload();
  await expect(nodes).toHaveCount(2);
  expect(await nodePosition(page, "Room")).toBe(after);

  // The list links version 1 to its context file.
  await page.goto("/workspaces");
  await expect(page.getByRole("link", { name: "1", exact: true })).toHaveAttribute(
    "href",
    /\/data-models\/e2e-model\/1\/context\.jsonld$/,
  );
});

test("a viewer sees the workspace without create, edit or delete", async ({ page }) => {
  await signIn(page, "viewer");
  await expect(page.getByRole("link", { name: workspaceName })).toBeVisible();
  await expect(page.getByRole("link", { name: create(en.kinds.workspaces.one) })).toHaveCount(0);
  await page.getByRole("button", { name: `Open ${workspaceName}` }).click();
  await page.getByRole("link", { name: en.kinds.types.many, exact: true }).click();
  await expect(page.getByRole("link", { name: "Room" })).toBeVisible();
  await expect(page.getByRole("link", { name: create(en.kinds.types.one) })).toHaveCount(0);
  await expect(page.getByRole("button", { name: en.dataModel.generate })).toHaveCount(0);
  await page.getByRole("link", { name: "Room" }).click();
  await expect(page.getByRole("link", { name: "refBuilding" })).toBeVisible();
  await expect(page.getByRole("link", { name: create(en.kinds.properties.one) })).toHaveCount(0);
  await expect(page.getByRole("link", { name: en.common.edit })).toHaveCount(0);
  await expect(page.getByRole("button", { name: en.common.delete })).toHaveCount(0);
});

test("nothing scrolls sideways at 390 px on the workspace view", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "admin");
  await page.getByRole("button", { name: `Open ${workspaceName}` }).click();
  await expect(page.getByTestId("chart-node")).toHaveCount(2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
