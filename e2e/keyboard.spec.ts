import { expect, test, type Locator, type Page } from "@playwright/test";
import { en } from "./support.ts";

/*
 * Issue 37: the main flows with the keyboard alone (Tab, Shift+Tab, Enter, Space, typing), the focus
 * visible throughout: every element the Tab key reaches in the console draws a solid ring of at least
 * 2 px (Bootstrap's own is a pale glow, and links get the browser's thin one). Sign in, open a
 * workspace, read the chart's types as a list, find an entity, edit an attribute, create and delete a
 * record through its dialog (a broker client,
 * whose key a dialog shows once); in the demo's Supermarket workspace.
 */

/** The focused element draws a ring a person can see: an outline of 2 px or more. */
async function expectFocusRing(page: Page) {
  const focused = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    return {
      element: el.outerHTML.slice(0, 120),
      ring:
        el.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
    };
  });
  if (focused) expect(focused, `no focus ring on ${focused.element}`).toMatchObject({ ring: true });
}

/**
 * Tabs (forward, or back with Shift) until the target has the focus, checking the ring on each
 * element passed. `ring: false` on the identity manager's own page, which the console does not draw.
 */
async function tabTo(page: Page, target: Locator, { back = false, ring = true, max = 120 } = {}) {
  const handle = await target.elementHandle();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    if (ring) await expectFocusRing(page);
    if (await page.evaluate((el) => el === document.activeElement, handle)) return;
  }
  throw new Error(`${target} not reached with the Tab key`);
}

test("the main flows work with the keyboard alone, the focus visible throughout", async ({ page }) => {
  test.setTimeout(90_000);
  // Sign in: the continue link, then the identity manager's form.
  await page.goto("/workspaces");
  await expect(page).toHaveURL(/\/authentication/);
  await tabTo(page, page.getByRole("link", { name: en.auth.continue }));
  await page.keyboard.press("Enter");
  await tabTo(page, page.getByLabel("Username"), { ring: false });
  await page.keyboard.type("admin");
  await page.keyboard.press("Tab");
  await page.keyboard.type("admin");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("navigation", { name: en.app.mainNavigation })).toBeVisible();

  // The top bar's menu opens with Enter, its links are reached with Tab, Escape closes it.
  const administration = page.getByRole("button", { name: en.app.administration });
  await tabTo(page, administration);
  await page.keyboard.press("Enter");
  await expect(administration).toHaveAttribute("aria-expanded", "true");
  await tabTo(page, page.getByRole("link", { name: en.kinds["context-brokers"].many }));
  await page.keyboard.press("Escape");
  await expect(administration).toHaveAttribute("aria-expanded", "false");
  await expect(administration).toBeFocused();

  // Open a workspace.
  await tabTo(page, page.getByRole("button", { name: "Open Supermarket" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/workspace\/urn/);

  // The chart's types as a list: a table a screen reader reads, whose buttons do what the nodes do.
  const asList = page.getByRole("button", { name: en.workspace.asList });
  await tabTo(page, asList);
  await page.keyboard.press("Space");
  await expect(asList).toHaveAttribute("aria-pressed", "true");
  const types = page.getByRole("table", { name: en.workspace.listCaption });
  const shelf = types
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: "Shelf", exact: true }) });
  await expect(shelf.getByRole("listitem")).toHaveText(["locatedIn → Building", "stocks → Product"]);
  await tabTo(page, shelf.getByRole("button", { name: `${en.workspace.showEntities} (Shelf)` }));
  await page.keyboard.press("Enter");
  const entities = page.getByRole("table", { name: "Entities of Shelf" });
  await expect(entities).toBeVisible();

  // Find an entity by its id, open it.
  await tabTo(page, page.getByRole("searchbox", { name: en.entities.search }));
  await page.keyboard.type("unit001");
  await expect(entities.getByRole("link")).toHaveCount(1);
  await tabTo(page, entities.getByRole("link", { name: "urn:ngsi-ld:Shelf:unit001" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 2, name: /\(Shelf\)$/ })).toBeVisible();

  // Edit an attribute: its page, Edit, a new value, Enter saves.
  const properties = page.getByRole("table", { name: en.entities.properties });
  await tabTo(page, properties.getByRole("link", { name: "numberOfItems", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "numberOfItems" })).toBeVisible();
  await tabTo(page, page.getByRole("link", { name: en.common.edit, exact: true }));
  await page.keyboard.press("Enter");
  const value = page.getByLabel(/^Value of numberOfItems/);
  await tabTo(page, value);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("42");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "numberOfItems" })).toBeVisible();
  await expect(page.getByText("42", { exact: true })).toBeVisible();

  // Create a broker client through its form, close the dialog showing its key, delete it through its dialog.
  await tabTo(page, administration, { back: true });
  await page.keyboard.press("Enter");
  await tabTo(page, page.getByRole("link", { name: en.kinds["broker-clients"].many }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: en.kinds["broker-clients"].many })).toBeVisible();
  await tabTo(
    page,
    page.getByRole("link", { name: `${en.common.create}: ${en.kinds["broker-clients"].one}` }),
  );
  await page.keyboard.press("Enter");
  const name = `Keyboard client ${Date.now().toString(36)}`;
  await tabTo(page, page.getByRole("textbox", { name: /^Name/ }));
  await page.keyboard.type(name);
  await tabTo(page, page.getByRole("checkbox", { name: en.brokerClients.defaultTenant }));
  await page.keyboard.press("Space");
  await tabTo(page, page.getByRole("button", { name: en.common.create, exact: true }));
  await page.keyboard.press("Enter");
  const keyDialog = page.getByRole("dialog", { name: en.brokerClients.keyTitle.replace("{{name}}", name) });
  await expect(keyDialog).toBeVisible();
  await expect(keyDialog.locator(":focus")).toHaveCount(1);
  await tabTo(page, keyDialog.getByRole("button", { name: en.brokerClients.keyCopied }));
  await page.keyboard.press("Enter");
  await expect(keyDialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await tabTo(page, page.getByRole("button", { name: en.common.delete }));
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("dialog");
  await expect(confirm).toBeVisible();
  // The dialog takes the focus: Tab goes through its buttons.
  await expect(confirm.locator(":focus")).toHaveCount(1);
  await tabTo(page, confirm.getByRole("button", { name: en.common.yes }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: en.kinds["broker-clients"].many })).toBeVisible();
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});
