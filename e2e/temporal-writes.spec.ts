import { expect, test, type Page } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, openSupermarket, selectType, workspaceIdOf } from "./support.ts";

/*
 * Writing an attribute's history from the temporal view (issue 27), on the demo's "Supermarket"
 * workspace: a shelf's numberOfItems, kept by the embedded broker's temporal API. A value is
 * added, corrected and deleted, then a history imported from a CSV file with its per-row report.
 * Screenshots: /tmp/h27-temporal-*.png.
 */

/** A time some minutes ago, on the minute: as the datetime-local input takes it, and as the broker gives it back. */
function minutesAgo(minutes: number) {
  const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000);
  return { input: at.toISOString().slice(0, 16), iso: at.toISOString() };
}

async function openHistory(page: Page, shelf: string) {
  await openSupermarket(page);
  await selectType(page, "Shelf");
  await page.getByRole("table", { name: "Entities of Shelf" }).getByRole("link", { name: shelf }).click();
  await page.getByRole("link", { name: "History of numberOfItems" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "History of numberOfItems" })).toBeVisible();
}

test("an operator adds, corrects and deletes a value of a history, then imports one from CSV", async ({
  page,
}) => {
  await openHistory(page, "urn:ngsi-ld:Shelf:unit001");
  const values = page.getByRole("table", { name: en.temporal.values });
  const row = (iso: string) => values.getByRole("row").filter({ hasText: iso });

  // Added: ten minutes ago, within the hour the view shows.
  const added = minutesAgo(10);
  await page.getByRole("button", { name: en.temporal.add }).click();
  const dialog = page.getByRole("dialog", { name: "Add a value to the history of numberOfItems" });
  await dialog.getByLabel(en.temporal.timeUtc).fill(added.input);
  await dialog.getByLabel(en.entities.value).fill("61");
  await dialog.getByLabel(en.temporal.unit).fill("C62");
  await page.screenshot({ path: "/tmp/h27-temporal-add.png", fullPage: true });
  await dialog.getByRole("button", { name: en.common.save }).click();
  await expect(dialog).toBeHidden();
  await expect(row(added.iso)).toContainText("61");
  await expect(row(added.iso)).toContainText("C62");

  // Corrected: a value refused first (not a number), with the reason under the field; then 62.
  await page.getByRole("button", { name: `Correct the value of ${added.iso}` }).click();
  const correction = page.getByRole("dialog", { name: "Correct a value of numberOfItems" });
  await expect(correction.getByLabel(en.entities.value)).toHaveValue("61");
  await correction.getByLabel(en.entities.value).fill("many");
  await correction.getByRole("button", { name: en.common.save }).click();
  await expect(correction.getByText('column numberOfItems: "many" is not a number')).toBeVisible();
  await correction.getByLabel(en.entities.value).fill("62");
  await correction.getByRole("button", { name: en.common.save }).click();
  await expect(correction).toBeHidden();
  await expect(row(added.iso)).toContainText("62");
  await expect(row(added.iso)).toContainText("C62");

  // Deleted, after the confirmation.
  await page.getByRole("button", { name: `Delete the value of ${added.iso}` }).click();
  await page
    .getByRole("dialog", { name: en.common.confirmTitle })
    .getByRole("button", { name: en.common.yes })
    .click();
  await expect(row(added.iso)).toHaveCount(0);

  // Imported: two good rows and a bad one, previewed and checked before anything is written.
  const first = minutesAgo(6);
  const second = minutesAgo(5);
  const csv = `time,value,unit\n${first.iso},71,C62\nlater,72,C62\n${second.iso},"73",\n`;
  await page.getByRole("button", { name: en.temporal.import }).click();
  const importing = page.getByRole("dialog", { name: "Import a history of numberOfItems" });
  await importing
    .getByLabel(en.importExport.file)
    .setInputFiles({ name: "history.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(importing.getByRole("table", { name: en.importExport.previewTable })).toContainText("later");
  await expect(importing.getByText("2 values to add, 1 rows rejected.")).toBeVisible();
  await expect(importing.getByRole("table", { name: en.importExport.rejectedRows })).toContainText(
    'the observedAt "later" is not an ISO 8601 date-time',
  );
  await expect(row(first.iso)).toHaveCount(0);
  await importing.getByRole("button", { name: en.importExport.import }).click();
  await expect(importing.getByText("2 values added, 1 rows rejected.")).toBeVisible();
  await page.screenshot({ path: "/tmp/h27-temporal-import.png", fullPage: true });
  await page
    .getByRole("dialog", { name: en.common.errorTitle })
    .getByRole("button", { name: en.common.close })
    .last()
    .click();
  await importing.getByRole("button", { name: en.common.close }).last().click();
  await expect(importing).toBeHidden();
  await expect(row(first.iso)).toContainText("71");
  await expect(row(second.iso)).toContainText("73");
  await page.screenshot({ path: "/tmp/h27-temporal-view.png", fullPage: true });

  // In French.
  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await expect(page.getByRole("button", { name: fr.temporal.add })).toBeVisible();
  await expect(page.getByRole("button", { name: fr.temporal.import })).toBeVisible();
  const valeurs = page.getByRole("table", { name: fr.temporal.values });
  await expect(valeurs.getByRole("columnheader", { name: fr.temporal.unit })).toBeVisible();
  await page.getByRole("button", { name: `Corriger la valeur de ${first.iso}` }).click();
  await expect(page.getByRole("dialog", { name: "Corriger une valeur de numberOfItems" })).toBeVisible();
  await page.screenshot({ path: "/tmp/h27-temporal-fr.png", fullPage: true });
  await page.getByRole("button", { name: fr.common.cancel }).click();
  await page.getByRole("button", { name: fr.app.languages.en }).click();
});

test("a value a WoT action wrote without observedAt is in the history, at the time it was written, marked, in English and French", async ({
  page,
  request,
}) => {
  await openHistory(page, "urn:ngsi-ld:Shelf:unit001");
  const ws = encodeURIComponent(workspaceIdOf(page));
  const headers = await bearer(page);
  const actions = (await (
    await request.get(`/api/workspace/${ws}/wot-actions`, { headers })
  ).json()) as Array<{
    id: string;
    name: string;
  }>;
  const restock = actions.find((a) => a.name === "restock")!;
  const before = Date.now();
  const run = await request.post(
    `/api/workspace/${ws}/wot-actions/${encodeURIComponent(restock.id)}/execute?entityId=${encodeURIComponent("urn:ngsi-ld:Shelf:unit001")}`,
    { headers, data: { numberOfItems: 37 } },
  );
  expect(run.status(), await run.text()).toBeLessThan(300);

  // The live view reads it again: a row of 37, its time the broker's modifiedAt, marked.
  // The table by its place, not its name: it is named in the language shown.
  const values = page.getByTestId("temporal-scroll").getByRole("table");
  const written = values.getByRole("row").filter({ has: page.getByTestId("temporal-written") });
  await expect(written.filter({ hasText: "37" })).toHaveCount(1);
  const row = written.filter({ hasText: "37" });
  await expect(row.getByTestId("temporal-written")).toContainText(en.temporal.written);
  const time = await row.locator(".font-monospace").first().textContent();
  expect(Date.parse(time!)).toBeGreaterThanOrEqual(before - 2_000);
  expect(Date.parse(time!)).toBeLessThanOrEqual(Date.now() + 2_000);
  await expect(page.getByTestId("temporal-chart")).toBeVisible();
  // The chart's legend names its hollow points: the values written without observedAt.
  const legend = page.getByTestId("temporal-legend");
  await expect(legend.getByRole("listitem")).toHaveText(["numberOfItems", en.temporal.legendWritten]);
  await page.screenshot({ path: "/tmp/h37-temporal-written.png", fullPage: true });

  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await expect(row.getByTestId("temporal-written")).toContainText(fr.temporal.written);
  await expect(legend.getByRole("listitem").last()).toHaveText(fr.temporal.legendWritten);
  await page.screenshot({ path: "/tmp/h37-temporal-written-fr.png", fullPage: true });
  await page.getByRole("button", { name: fr.app.languages.en }).click();
});
