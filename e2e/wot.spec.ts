import { expect, test, type Page } from "@playwright/test";
import { bearer, en, label, openSupermarket } from "./support.ts";

/*
 * A thing description built from the console on the demo's Supermarket shelves: a property with a
 * range, an action with two input properties, an event on the notifying "Shelf stock levels" data
 * service, a routing with two operations and a control; the public TD opened in a new tab; then
 * a control and an operation deleted.
 */

const create = (kind: string) => new RegExp(`^${en.common.create}: ${kind}$`);
const submit = (page: Page, name: string) => page.getByRole("button", { name, exact: true }).click();
const card = (page: Page, kind: keyof typeof en.kinds) =>
  page.locator(".card").filter({ has: page.getByText(en.kinds[kind].many, { exact: true }) });
const add = (page: Page, kind: keyof typeof en.kinds) =>
  card(page, kind)
    .getByRole("link", { name: create(en.kinds[kind].one) })
    .click();

test("an administrator builds a thing description, opens its public TD, and deletes a control and an operation", async ({
  page,
  context,
}) => {
  // Some forty steps through the console: more than 30 s on a loaded machine.
  test.slow();
  await openSupermarket(page);
  await page.getByRole("link", { name: en.kinds["wot-thing-descriptions"].many, exact: true }).click();
  await page.getByRole("link", { name: create(en.kinds["wot-thing-descriptions"].one) }).click();
  await page.getByLabel(label("name")).fill("Checkout shelf");
  await page.getByLabel(label("hasType")).selectOption({ label: "Shelf" });
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "Checkout shelf" })).toBeVisible();
  const tdUrl = page.url();

  // A property: only the shelf's attributes are offered; a backwards range is refused under its field.
  await add(page, "wot-properties");
  await page.getByLabel(label("name")).fill("items");
  const property = page.getByLabel(label("linkedProperty"));
  await expect(property.locator("option", { hasText: "price" })).toHaveCount(0);
  await property.selectOption({ label: "numberOfItems" });
  await page.getByLabel(label("capacityType")).selectOption({ label: en.options.capacityType.Range });
  await page.getByLabel(label("capacityValue")).fill("[80, 0]");
  await submit(page, en.common.create);
  await page
    .getByRole("dialog", { name: en.common.errorTitle })
    .getByRole("button", { name: en.common.close })
    .last()
    .click();
  await expect(page.locator("#field-capacityValue-error")).toContainText("minimum ≤ maximum");
  await page.getByLabel(label("capacityValue")).fill("[0, 80]");
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "items" })).toBeVisible();

  // An action with two input properties; the bounds go with the number type.
  await page.goto(tdUrl);
  await add(page, "wot-actions");
  await page.getByLabel(label("name")).fill("refill");
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "refill" })).toBeVisible();
  const actionUrl = page.url();
  await add(page, "wot-action-input-properties");
  await page.getByLabel(label("name")).fill("numberOfItems");
  await page.getByLabel(label("propertyType")).selectOption({ label: en.options.propertyType.number });
  await page.getByLabel(label("minimum")).fill("0");
  await page.getByLabel(label("maximum")).fill("80");
  await page.getByLabel(label("required")).check();
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "numberOfItems" })).toBeVisible();
  await page.goto(actionUrl);
  await add(page, "wot-action-input-properties");
  await page.getByLabel(label("name")).fill("note");
  await page.getByLabel(label("propertyType")).selectOption({ label: en.options.propertyType.number });
  await page.getByLabel(label("minimum")).fill("1");
  await page.getByLabel(label("propertyType")).selectOption({ label: en.options.propertyType.string });
  await expect(page.getByLabel(label("minimum"))).toHaveCount(0);
  await page.getByLabel(label("enum")).fill('["morning", "evening"]');
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "note" })).toBeVisible();
  await page.goto(actionUrl);
  await expect(card(page, "wot-action-input-properties").getByRole("cell").getByRole("link")).toHaveText([
    "note",
    "numberOfItems",
  ]);

  // An event: the notifying data service, the TD's property it exposes, its capacity copied.
  await page.goto(tdUrl);
  await add(page, "wot-events");
  await page.getByLabel(label("name")).fill("itemsChanged");
  await expect(page.getByLabel(label("hasDataService"))).toHaveValue(/urn:ngsi-ld:DataService:/);
  await page.getByLabel(label("hasWoTProperty")).selectOption({ label: "items" });
  await expect(page.getByLabel(label("capacityValue"))).toHaveValue("[0, 80]");
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "itemsChanged" })).toBeVisible();
  await expect(page.getByText(en.options.capacityType.Range, { exact: true })).toBeVisible();

  // A routing with two operations, the first with a control.
  await page.goto(tdUrl);
  await add(page, "routings");
  await page.getByLabel(label("name")).fill("Morning refill");
  await submit(page, en.common.create);
  await expect(page.getByRole("heading", { level: 1, name: "Morning refill" })).toBeVisible();
  const routingUrl = page.url();
  for (const sequence of ["1", "2"]) {
    await page.goto(routingUrl);
    await add(page, "routing-operations");
    await page.getByLabel(label("sequenceNumber")).fill(sequence);
    await page.getByLabel(label("timerBefore")).fill("0");
    await page.getByLabel(label("timerAfter")).fill("10");
    await page.getByLabel(label("hasWoTAction")).selectOption({ label: "refill" });
    await submit(page, en.common.create);
    await expect(page.getByRole("heading", { level: 1, name: "refill" })).toBeVisible();
  }
  await page.goto(routingUrl);
  await card(page, "routing-operations").getByRole("link", { name: "refill" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "refill" })).toBeVisible();
  const operationUrl = page.url();
  await add(page, "routing-operation-controls");
  await page.getByLabel(label("hasWoTProperty")).selectOption({ label: "items" });
  await page.getByLabel(label("woTPropertyValue")).fill("40");
  await submit(page, en.common.create);
  await expect(page.getByText("40", { exact: true })).toBeVisible();

  // The public thing description, in a new tab, without signing in.
  await page.goto(tdUrl);
  const [tab] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("link", { name: /\/wot-thing-descriptions\// }).click(),
  ]);
  await tab.waitForLoadState();
  const td = JSON.parse((await tab.locator("body").innerText()).trim());
  expect(td.title).toBe("Checkout shelf");
  expect(td.properties.items).toMatchObject({ minimum: 0, maximum: 80 });
  expect(td.actions.refill.input.required).toEqual(["numberOfItems"]);
  expect(Object.keys(td.events)).toEqual(["itemsChanged"]);
  await tab.close();

  // The control, then its operation, deleted: each page goes back to its parent.
  await page.goto(operationUrl);
  const operation = page.locator(".card").filter({ hasText: en.kinds["routing-operation-controls"].many });
  await operation.getByRole("link", { name: "items" }).first().click();
  await page.getByRole("button", { name: en.common.delete }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.common.yes }).click();
  await expect(page).toHaveURL(operationUrl);
  await expect(page.getByText(en.kinds["routing-operation-controls"].none)).toBeVisible();
  await page.getByRole("button", { name: en.common.delete }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.common.yes }).click();
  await expect(page).toHaveURL(routingUrl);
  await expect(card(page, "routing-operations").getByRole("row")).toHaveCount(2); // the header and one operation
});

test("the demo TD cannot be pointed at a text from the console, and a browser's EventSource observes it with the TD's stream token", async ({
  page,
}) => {
  await openSupermarket(page);
  await page.getByRole("link", { name: en.kinds["wot-thing-descriptions"].many, exact: true }).click();
  await page.getByRole("link", { name: "Smart shelf", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Smart shelf" })).toBeVisible();
  const tdId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);

  // "stock" (Range [0, 100]) pointed at the shelf's name: refused under the field, nothing saved.
  await card(page, "wot-properties").getByRole("link", { name: "stock", exact: true }).click();
  await page.getByRole("link", { name: en.common.edit }).click();
  await page.getByLabel(label("linkedProperty")).selectOption({ label: "name" });
  await submit(page, en.common.save);
  await page
    .getByRole("dialog", { name: en.common.errorTitle })
    .getByRole("button", { name: en.common.close })
    .last()
    .click();
  await expect(page.locator("#field-hasProperty-error")).toContainText(
    'can describe: "name" holds string values',
  );

  // The TD fetched with the user's token: its Server-Sent Events forms carry a stream token that a
  // browser's EventSource (which sends no Authorization header) opens as it is.
  const shelf = "urn:ngsi-ld:Shelf:unit001";
  const td = await (
    await page.request.get(
      `/wot-thing-descriptions/${encodeURIComponent(tdId)}?entityId=${encodeURIComponent(shelf)}`,
      {
        headers: await bearer(page),
      },
    )
  ).json();
  expect(td.properties.stock).toMatchObject({ type: "number", minimum: 0, maximum: 100 });
  const form = td.properties.stock.forms.find((f: { href: string }) => f.href.includes("stream_token="));
  const stream = new URL(form.href, td.base);
  const received = page.evaluate(
    (url) =>
      new Promise<unknown>((resolve, reject) => {
        const source = new EventSource(url);
        source.onopen = () => ((window as unknown as { streamOpen: boolean }).streamOpen = true);
        source.onmessage = (event) => {
          source.close();
          resolve(JSON.parse(event.data));
        };
        source.onerror = () => {
          source.close();
          reject(new Error("the EventSource was refused"));
        };
      }),
    stream.pathname + stream.search,
  );
  await page.waitForFunction(() => (window as unknown as { streamOpen?: boolean }).streamOpen === true);
  const restock = new URL(td.actions.restock.forms[0].href, td.base);
  const invoked = await page.request.post(restock.pathname + restock.search, {
    headers: await bearer(page),
    data: { numberOfItems: 33 },
  });
  expect(invoked.status()).toBe(204);
  expect(await received).toBe(33);
  // Beyond the TD's maximum: refused, as the TD says.
  const refused = await page.request.post(restock.pathname + restock.search, {
    headers: await bearer(page),
    data: { numberOfItems: 500 },
  });
  expect(refused.status()).toBe(400);
});
