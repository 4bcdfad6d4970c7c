import { expect, test, type Page } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, openSupermarket, workspaceIdOf } from "./support.ts";

/*
 * Issue 37, "The console says what will happen before it happens": the delete dialogs of the demo's
 * records name, before Yes, what keeps each one (links to their pages), with Yes disabled; a data
 * service's also says which links go with it. In English and French.
 */

interface Named {
  id: string;
  name: string;
  [field: string]: unknown;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

const segment = encodeURIComponent;

/** The console pages of the seven demo records, and the blockers (their link names in English and French) each dialog shows. */
async function demoRecords(page: Page) {
  const headers = await bearer(page);
  const ws = workspaceIdOf(page);
  const list = async (path: string) =>
    (await (await page.request.get(`/api${path}`, { headers })).json()) as Named[];
  const find = async (path: string, name: string, also: (r: Named) => boolean = () => true) =>
    (await list(path)).find((r) => r.name === name && also(r))!.id;
  const at = `/workspace/${ws}`;
  const broker = await find("/context-brokers", "Embedded broker");
  const shelf = await find(`${at}/types`, "Shelf");
  const items = await find(`${at}/properties`, "numberOfItems", (p) => p.hasType === shelf && !p.hasProperty);
  const td = await find(`${at}/wot-thing-descriptions`, "Smart shelf");
  const stock = await find(`${at}/wot-properties`, "stock");
  const restock = await find(`${at}/wot-actions`, "restock");
  const service = await find(`${at}/data-services`, "Shelf stock levels");
  const thing = `${at}/wot-thing-descriptions/${segment(td)}`;
  return [
    {
      name: "Embedded broker",
      url: `/context-brokers/${segment(broker)}`,
      blockers: { en: ["service “Demo service”"], fr: ["service « Demo service »"] },
    },
    {
      name: "Supermarket",
      url: `/workspaces/${segment(ws)}`,
      blockers: { en: ["type “Shelf”", "thing description “Smart shelf”"], fr: ["type « Shelf »"] },
    },
    {
      name: "Shelf",
      url: `${at}/types/${segment(shelf)}`,
      blockers: {
        en: ["property “numberOfItems”", "data service “Shelf stock levels”"],
        fr: ["propriété « numberOfItems »"],
      },
    },
    {
      name: "numberOfItems",
      url: `${at}/types/${segment(shelf)}/properties/${segment(items)}`,
      blockers: {
        en: ["WoT property “stock”", "data service “Shelf stock levels”"],
        fr: ["propriété WoT « stock »"],
      },
    },
    {
      name: "stock",
      url: `${thing}/wot-properties/${segment(stock)}`,
      blockers: {
        en: ["WoT event “stockChanged”", "control “stock = 50”"],
        fr: ["événement WoT « stockChanged »", "contrôle « stock = 50 »"],
      },
    },
    {
      name: "restock",
      url: `${thing}/wot-actions/${segment(restock)}`,
      blockers: { en: ["operation “1. restock”"], fr: ["opération « 1. restock »"] },
    },
    {
      name: "Shelf stock levels",
      url: `${at}/data-services/${segment(service)}`,
      blockers: {
        en: ["WoT event “stockChanged”", "data service access “Stock analyst → Shelf stock levels”"],
        fr: ["accès à un service de données « Stock analyst → Shelf stock levels »"],
      },
      cascades: { en: ["property “numberOfItems”"], fr: ["propriété « numberOfItems »"] },
    },
  ];
}

/** Opens the record's delete dialog and checks what it names before Yes. */
async function askToDelete(
  page: Page,
  record: Awaited<ReturnType<typeof demoRecords>>[number],
  lang: "en" | "fr",
) {
  const texts = lang === "en" ? en : fr;
  await page.goto(record.url);
  await expect(page.getByRole("heading", { level: 1, name: record.name, exact: true })).toBeVisible();
  await page.getByRole("button", { name: texts.common.delete }).click();
  const dialog = page.getByRole("dialog", { name: texts.common.confirmTitle });
  await expect(dialog).toContainText(record.name);
  await expect(dialog.getByText(texts.errors.blockedBy)).toBeVisible();
  const blockers = dialog.getByRole("list", { name: texts.errors.blockers });
  for (const name of record.blockers[lang])
    await expect(blockers.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(blockers).not.toContainText("urn:");
  for (const name of record.cascades?.[lang] ?? [])
    await expect(
      dialog.getByRole("list", { name: texts.errors.cascades }).getByRole("link", { name, exact: true }),
    ).toBeVisible();
  // No and Yes stay in view however long the list (a workspace's contents).
  await expect(dialog.getByRole("button", { name: texts.common.no })).toBeInViewport();
  await expect(dialog.getByRole("button", { name: texts.common.yes })).toBeInViewport();
  await expect(dialog.getByRole("button", { name: texts.common.yes })).toBeDisabled();
  return dialog;
}

test("the demo records' delete dialogs name what keeps them before Yes, in English and French", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openSupermarket(page);
  const records = await demoRecords(page);
  for (const record of records) {
    const dialog = await askToDelete(page, record, "en");
    await shot(page, `delete-${record.name.replace(/\W+/g, "-")}-en`);
    await dialog.getByRole("button", { name: en.common.no }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: record.name, exact: true })).toBeVisible();
  }

  // A blocker's link leads to its page: the routing operation, under its routing and thing description.
  const restock = records.find((r) => r.name === "restock")!;
  const dialog = await askToDelete(page, restock, "en");
  await dialog.getByRole("link", { name: "operation “1. restock”" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "1. restock" })).toBeVisible();
  await expect(page.getByRole("dialog")).toBeHidden();

  await page.evaluate(() => localStorage.setItem("orrery.language", "fr"));
  await page.reload();
  for (const record of records) {
    const dialog = await askToDelete(page, record, "fr");
    await shot(page, `delete-${record.name.replace(/\W+/g, "-")}-fr`);
    await dialog.getByRole("button", { name: fr.common.no }).click();
    await expect(dialog).toBeHidden();
  }
});

test("a record nothing uses says so, and Yes deletes it", async ({ page }) => {
  await openSupermarket(page);
  const headers = await bearer(page);
  // A platform record, so that no workspace's data model changes (a type would leave Supermarket's
  // model outdated for the specs that follow).
  const client = (await (
    await page.request.post("/api/broker-clients", {
      headers,
      data: { name: "Crate client", tenants: [""], access: "read" },
    })
  ).json()) as Named;
  await page.goto(`/broker-clients/${segment(client.id)}`);
  await page.getByRole("button", { name: en.common.delete }).click();
  const dialog = page.getByRole("dialog", { name: en.common.confirmTitle });
  await expect(dialog.getByText(en.errors.deleteFree)).toBeVisible();
  await dialog.getByRole("button", { name: en.common.yes }).click();
  await expect(page.getByText(/Deleted: .*“Crate client”/)).toBeVisible();
});
