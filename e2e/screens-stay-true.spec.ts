import { expect, test, type Page } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { freePort } from "../test/fakes/browser.ts";
import {
  bearer,
  en,
  label,
  openSupermarket,
  registerFdscComponents,
  selectType,
  signIn,
  useFdscFakes,
  workspaceIdOf,
} from "./support.ts";

/*
 * Issue 37, "Screens show what is so" and "Every registered component can be checked", in
 * Chromium: a broker's Connection card after its address is edited, its registrations panel on a
 * TLS mismatch, a create's 409 and the Try panel's refusal folded, a role named as another but for
 * case and spaces refused, Check connection on a PAP and a CCS (fakes answering as the real ones),
 * a workspace's delete dialog counting what it does not list, and the console's own live-channel
 * subscriptions in a type's list. Every record made here is the test's own, or deleted after it:
 * the demo's Supermarket is left as it was.
 */

const fakes = useFdscFakes();
const suffix = Date.now().toString(36);

/** POST through the API with the page's session; the id of what was created. */
async function poster(page: Page) {
  const headers = await bearer(page);
  return async (path: string, data: object) => {
    const res = await page.request.post(`/api${path}`, { headers, data });
    expect(res.status(), `POST ${path}: ${await res.text()}`).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
}

async function remove(page: Page, path: string) {
  const res = await page.request.delete(`/api${path}`, { headers: await bearer(page) });
  expect(res.status(), `DELETE ${path}: ${await res.text()}`).toBe(204);
}

const broker = (name: string, scheme: string, port: number) => ({
  name,
  scheme,
  host: "127.0.0.1",
  port,
  paginationMaxLimit: 100,
  implementationName: "orion-ld",
  implementationVersion: "1.10.0",
});

const toFrench = async (page: Page) => {
  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
};
const toEnglish = (page: Page) => page.getByRole("button", { name: fr.app.languages.en }).click();

test("a broker's Connection card drops the old address's result once its address is edited", async ({
  page,
}) => {
  await signIn(page, "admin");
  const closed = await freePort();
  const id = await (await poster(page))("/context-brokers", broker(`Moved broker ${suffix}`, "http", closed));
  try {
    await page.goto(`/context-brokers/${encodeURIComponent(id)}`);
    const card = page.getByRole("region", { name: en.health.connection });
    await card.getByRole("button", { name: en.health.check }).click();
    const refused = `The connection was refused: nothing listens at 127.0.0.1:${closed}.`;
    await expect(card).toContainText(refused);
    await expect(card).toContainText(en.health.states.down);

    // The address edited: the card no longer shows the old address's result as the new one's.
    await page.goto(`/context-brokers/${encodeURIComponent(id)}/edit`);
    await page.getByLabel(label("port")).fill(new URL(page.url()).port);
    await page.getByRole("button", { name: en.common.save, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Moved broker ${suffix}` })).toBeVisible();
    await expect(card).toContainText(en.health.states.unchecked);
    await expect(card).not.toContainText(refused);
    await page.screenshot({ path: test.info().outputPath("connection-reset.png"), fullPage: true });
  } finally {
    await remove(page, `/context-brokers/${encodeURIComponent(id)}`);
  }
});

test("a broker registered as https at a plain HTTP address: its registrations panel says it does not speak TLS, in English and French", async ({
  page,
}) => {
  await signIn(page, "admin");
  const port = Number(new URL(page.url()).port);
  const name = `TLS mismatch ${suffix}`;
  const id = await (await poster(page))("/context-brokers", broker(name, "https", port));
  try {
    await page.goto(`/context-brokers/${encodeURIComponent(id)}`);
    const panel = page.getByRole("region", { name: en.registrations.title });
    await expect(panel.getByTestId("error-alert")).toContainText(
      `It does not speak TLS at 127.0.0.1:${port}: is its scheme http rather than https?`,
    );
    // Not OpenSSL's words, and the answer folded.
    await expect(panel).not.toContainText(/SSL|wrong version number|EPROTO/);
    await expect(panel.locator("details")).not.toHaveAttribute("open");

    await toFrench(page);
    const panneau = page.getByRole("region", { name: fr.registrations.title });
    await panneau.getByRole("button", { name: fr.errors.tryAgain }).click();
    await expect(panneau.getByTestId("error-alert")).toContainText(
      `Il ne parle pas TLS à 127.0.0.1:${port}\u00a0: son schéma serait-il http plutôt que https\u00a0?`,
    );
    await page.screenshot({ path: test.info().outputPath("registrations-tls-fr.png"), fullPage: true });
    await toEnglish(page);
  } finally {
    await remove(page, `/context-brokers/${encodeURIComponent(id)}`);
  }
});

test('a role named "stock ANALYST " beside "Stock analyst" is refused with a sentence, the answer folded, in English and French', async ({
  page,
}) => {
  await openSupermarket(page);
  await page.getByRole("link", { name: en.kinds.roles.many, exact: true }).click();
  await page.getByRole("link", { name: new RegExp(`^${en.common.create}: ${en.kinds.roles.one}$`) }).click();
  await page.getByLabel(label("name")).fill("stock ANALYST ");
  await page.getByLabel(label("roleName")).fill(`stock_analyst_${suffix}`);
  await page.getByLabel(label("notBefore")).fill("2026-01-01T00:00");
  await page.getByLabel(label("notOnOrAfter")).fill("2028-01-01T00:00");
  await page.getByLabel(label("dataServiceProviderId")).fill("did:web:audit.example.org");
  await page.getByLabel(label("verifiableCredentialType")).fill("AuditCredential");

  const refusedIn = async (texts: typeof en, sentence: string) => {
    await page.getByRole("button", { name: texts.common.create, exact: true }).click();
    const failed = page.getByRole("dialog", { name: texts.common.errorTitle });
    await expect(failed).toBeVisible();
    await failed.getByRole("button", { name: texts.common.close }).last().click();
    const alert = page.getByTestId("error-alert");
    await expect(alert).toContainText(sentence);
    // A sentence and the answer folded, not a 30-line tree above the form.
    const answer = alert.locator("details");
    await expect(answer).not.toHaveAttribute("open");
    await expect(answer.locator("summary")).toHaveText(texts.errors.answer);
    const box = (await alert.boundingBox())!;
    expect(box.height).toBeLessThan(200);
  };
  await refusedIn(en, 'The workspace already has a role named "stock ANALYST".');
  await page.screenshot({ path: test.info().outputPath("role-taken-en.png"), fullPage: true });
  await toFrench(page);
  await refusedIn(fr as typeof en, "L’espace de travail a déjà un rôle nommé «\u00a0stock ANALYST\u00a0».");
  await page.screenshot({ path: test.info().outputPath("role-taken-fr.png"), fullPage: true });
  await toEnglish(page);
  // Nothing was written: Supermarket keeps one role of that name.
  const ws = encodeURIComponent(workspaceIdOf(page));
  const roles = (await (
    await page.request.get(`/api/workspace/${ws}/roles`, { headers: await bearer(page) })
  ).json()) as Array<{ name: string }>;
  expect(roles.filter((r) => r.name.trim().toLowerCase() === "stock analyst")).toHaveLength(1);
});

test("the Try panel's refusal is a sentence that keeps its table row low", async ({ page }) => {
  await openSupermarket(page);
  await page.getByRole("link", { name: en.kinds["wot-thing-descriptions"].many, exact: true }).click();
  await page.getByRole("link", { name: "Smart shelf", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Smart shelf" })).toBeVisible();
  const entity = page.getByLabel(en.wot.try.entity.replace("{{type}}", "Shelf"));
  await expect(entity.locator("option", { hasText: "urn:ngsi-ld:Shelf:unit001" })).toHaveCount(1);
  await entity.selectOption("urn:ngsi-ld:Shelf:unit001");
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "restock" }) });
  const before = (await row.boundingBox())!.height;
  // Outside the input's range [0, 100]: refused, nothing written.
  await row.getByLabel("numberOfItems").fill("500");
  await row.getByRole("button", { name: `${en.wot.try.run} restock` }).click();
  const alert = row.getByTestId("error-alert");
  await expect(alert).toBeVisible();
  await expect(alert.locator("details")).not.toHaveAttribute("open");
  const after = (await row.boundingBox())!.height;
  await page.screenshot({ path: test.info().outputPath("try-refused.png"), fullPage: true });
  // The row grows by the sentence and the folded answer's line, not to 400 px.
  expect(after, `row height ${before} px before, ${after} px after`).toBeLessThan(before + 160);
  expect(after).toBeLessThan(260);
});

test("Check connection on a policy administration point and on a credentials configuration service shows its result", async ({
  page,
}) => {
  await signIn(page, "admin");
  const tag = `check ${suffix}`;
  const { papId, ccsId, tilId } = await registerFdscComponents(await poster(page), fakes, tag);
  try {
    for (const [path, id] of [
      ["/policy-administration-points", papId],
      ["/credentials-config-services", ccsId],
    ] as const) {
      await page.goto(`${path}/${encodeURIComponent(id)}`);
      const card = page.getByRole("region", { name: en.health.connection });
      // The background checks may have checked it already: the click's own check is what is shown.
      const checked = page.waitForResponse(
        (r) => r.request().method() === "POST" && r.url().includes(`/api/health${path}/`),
      );
      await card.getByRole("button", { name: en.health.check }).click();
      expect((await checked).status()).toBe(200);
      await expect(card).toContainText(en.health.states.up);
      await expect(card).toContainText(/\d+ ms/);
    }
    // The last result, read in French.
    await toFrench(page);
    const card = page.getByRole("region", { name: fr.health.connection });
    await expect(card).toContainText(fr.health.states.up);
    await page.screenshot({ path: test.info().outputPath("ccs-check-fr.png"), fullPage: true });
    await toEnglish(page);
  } finally {
    await remove(page, `/trusted-issuers-lists/${encodeURIComponent(tilId)}`);
    await remove(page, `/credentials-config-services/${encodeURIComponent(ccsId)}`);
    await remove(page, `/policy-administration-points/${encodeURIComponent(papId)}`);
  }
});

test("a workspace's delete dialog says how many more records it holds than it lists, in English and French", async ({
  page,
}) => {
  await signIn(page, "admin");
  const post = await poster(page);
  const headers = await bearer(page);
  const workspaces = (await (await page.request.get("/api/workspaces", { headers })).json()) as Array<{
    name: string;
    hasService: string;
  }>;
  const workspace = await post("/workspaces", {
    name: `Crowded ${suffix}`,
    dataModelName: `crowded-${suffix}`,
    hasService: workspaces.find((w) => w.name === "Supermarket")!.hasService,
  });
  const types: string[] = [];
  try {
    for (let i = 0; i < 62; i++)
      types.push(
        await post(`/workspace/${encodeURIComponent(workspace)}/types`, {
          name: `Kind${String(i).padStart(2, "0")}`,
        }),
      );
    await page.goto(`/workspaces/${encodeURIComponent(workspace)}`);
    await expect(page.getByRole("heading", { level: 1, name: `Crowded ${suffix}` })).toBeVisible();
    await page.getByRole("button", { name: en.common.delete }).click();
    let dialog = page.getByRole("dialog", { name: en.common.confirmTitle });
    let list = dialog.getByRole("list", { name: en.errors.blockers });
    await expect(list.getByRole("link")).toHaveCount(50);
    await expect(list.getByRole("listitem").last()).toHaveText("and 12 more");
    await expect(dialog.getByRole("button", { name: en.common.yes })).toBeDisabled();
    await page.screenshot({ path: test.info().outputPath("workspace-delete-more.png") });
    await dialog.getByRole("button", { name: en.common.no }).click();

    await toFrench(page);
    await page.getByRole("button", { name: fr.common.delete }).click();
    dialog = page.getByRole("dialog", { name: fr.common.confirmTitle });
    list = dialog.getByRole("list", { name: fr.errors.blockers });
    await expect(list.getByRole("listitem").last()).toHaveText("et 12 autres");
    await dialog.getByRole("button", { name: fr.common.no }).click();
    await toEnglish(page);
  } finally {
    for (const type of types)
      await remove(page, `/workspace/${encodeURIComponent(workspace)}/types/${encodeURIComponent(type)}`);
    await remove(page, `/workspaces/${encodeURIComponent(workspace)}`);
  }
});

test("a type's subscriptions list shows the console's own live updates as what they are, in English and French", async ({
  page,
}) => {
  await openSupermarket(page);
  await selectType(page, "Shelf");
  // The entities listed live: the API holds a subscription of the broker for this screen.
  await expect(page.getByTestId("live-state")).toContainText(en.live.on);
  await page.getByRole("tab", { name: en.subscriptions.tab }).click();
  const live = page.getByTestId("live-subscription");
  await expect(live.first()).toContainText(en.subscriptions.live);
  await expect(live.first().getByRole("link")).toHaveCount(0);
  await expect(page.getByTestId("live-subscriptions-note")).toHaveText(en.subscriptions.liveNote);
  await page.screenshot({ path: test.info().outputPath("live-subscriptions-en.png"), fullPage: true });
  await toFrench(page);
  await expect(live.first()).toContainText(fr.subscriptions.live);
  await expect(page.getByTestId("live-subscriptions-note")).toHaveText(fr.subscriptions.liveNote);
  await toEnglish(page);
});
