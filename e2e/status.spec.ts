import { expect, test, type Page } from "@playwright/test";
import { freePort } from "../test/fakes/browser.ts";
import { bearer, en, signIn } from "./support.ts";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };

/*
 * The platform's Status page in Chromium: the embedded broker (demo data) up with its version, a
 * broker registered at a closed port down with the reason, after "Check all now"; the same page in
 * French; and "Check connection" on the closed broker's own page.
 */

async function registerClosedBroker(page: Page): Promise<string> {
  const port = await freePort();
  const res = await page.request.post("/api/context-brokers", {
    headers: await bearer(page),
    data: {
      name: "Closed broker",
      scheme: "http",
      host: "127.0.0.1",
      port,
      paginationMaxLimit: 100,
      implementationName: "orion-ld",
      implementationVersion: "1.10.0",
    },
  });
  expect(res.status()).toBe(201);
  return String(port);
}

const row = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

test("the Status page shows the embedded broker up and a broker at a closed port down, in English and French", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const port = await registerClosedBroker(page);

  await page.getByRole("button", { name: en.app.administration }).click();
  await page.getByRole("link", { name: en.health.title }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByRole("heading", { name: en.health.title })).toBeVisible();
  await page.getByRole("button", { name: en.health.checkAll }).click();
  // Every component is checked (an unreachable example host waits out its timeout).
  const closed = row(page, "Closed broker");
  await expect(closed).toContainText(en.health.states.down, { timeout: 60_000 });
  await expect(page.getByRole("button", { name: en.health.checkAll })).toBeEnabled();
  const embedded = row(page, "Embedded broker");
  await expect(embedded).toContainText(en.health.states.up);
  await expect(embedded).toContainText(/\d+ ms/);
  await expect(embedded).toContainText("NGSI-LD 1.8");
  await expect(closed).toContainText(`The connection was refused: nothing listens at 127.0.0.1:${port}.`);
  await page.screenshot({ path: "/tmp/health-status-en.png", fullPage: true });

  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await expect(page.getByRole("heading", { name: fr.health.title })).toBeVisible();
  await expect(row(page, "Embedded broker")).toContainText(fr.health.states.up);
  await expect(row(page, "Closed broker")).toContainText(fr.health.states.down);
  await expect(row(page, "Closed broker")).toContainText(
    `La connexion a été refusée\u00a0: rien n’écoute à 127.0.0.1:${port}.`,
  );
  await page.screenshot({ path: "/tmp/health-status-fr.png", fullPage: true });

  // The component's own page: its last result, and "Check connection".
  await row(page, "Closed broker").getByRole("link", { name: "Closed broker" }).click();
  const card = page.getByRole("region", { name: fr.health.connection });
  await expect(card).toContainText(fr.health.states.down);
  await card.getByRole("button", { name: fr.health.check }).click();
  await expect(card).toContainText("La connexion a été refusée");
  await page.screenshot({ path: "/tmp/health-check-fr.png", fullPage: true });
});
