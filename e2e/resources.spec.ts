import { expect, test, type Page } from "@playwright/test";
import { platformKinds, whenHolds, type KindDefinition } from "@orrery/model";
import { samplePayload, sampleSecrets } from "../test/samples/platform.ts";
import { bearer, en, label, signIn } from "./support.ts";

/** The demo records a form's references pick, by name. */
const demo: Record<string, string> = {
  "context-brokers": "Embedded broker",
  "identity-managers": "Keyrock (example)",
  "identity-manager-grants": "Orrery client credentials (example)",
  // Not a demo record: registered before a registry grant is made for it (see below).
  "authorization-registries": "E2E registry of the grant",
};

/** What a user types for each kind: the shared samples, named for this test. */
const samples: Record<string, Record<string, unknown>> = Object.fromEntries(
  platformKinds
    // Broker clients have their own spec (e2e/broker-clients.spec.ts): their create shows a key first.
    .filter((k) => k.kind !== "data-actions" && k.kind !== "broker-clients")
    .map((k) => [k.kind, { ...samplePayload(k.kind, (ref) => demo[ref]!), name: `E2E ${k.kind}` }]),
);

const option = (field: string, value: string) =>
  (en.options as Record<string, Record<string, string>>)[field]?.[value] ?? value;

/** Fills a generic form field by field, in the definition's order, so that dependent fields appear as a user sees them. */
async function fill(page: Page, kind: KindDefinition, values: Record<string, unknown>) {
  for (const field of kind.fields) {
    const value = values[field.name];
    if (value === undefined || !whenHolds(field.when, values)) continue;
    const input = page.getByLabel(label(field.name));
    switch (field.input) {
      case "boolean":
        await input.setChecked(Boolean(value));
        break;
      case "enum":
        await input.selectOption({ label: option(field.name, String(value)) });
        break;
      case "reference":
        await input.selectOption({ label: String(value) });
        break;
      case "lines":
        for (const [i, line] of (value as string[]).entries())
          await page.getByLabel(`Certificate ${i + 1}`).fill(line);
        break;
      case "headers":
        for (const [name, v] of Object.entries(value as Record<string, string>)) {
          await page.getByLabel(en.headers.name).fill(name);
          await page.getByLabel(en.headers.value).fill(v);
          await page.getByRole("button", { name: en.headers.set, exact: true }).click();
        }
        break;
      default:
        await input.fill(String(value));
    }
  }
}

test.describe("every platform kind through the UI", () => {
  test.beforeEach(async ({ page }) => signIn(page, "admin"));

  for (const kind of platformKinds.filter((k) => samples[k.kind])) {
    test(`${kind.kind}: create, view, edit, delete`, async ({ page }) => {
      const names = en.kinds[kind.kind as keyof typeof en.kinds];
      const values = samples[kind.kind]!;
      // A registry grant is made for a registry, and the demo has none: one is registered first, before
      // the console reads the registries (a list it keeps for a while: one made behind its back is not in it).
      if (kind.kind === "authorization-registry-grants")
        expect(
          (
            await page.request.post("/api/authorization-registries", {
              headers: await bearer(page),
              data: { ...samples["authorization-registries"], name: demo["authorization-registries"] },
            })
          ).status(),
        ).toBe(201);
      await page.getByRole("button", { name: en.app.administration }).click();
      await page.getByRole("link", { name: names.many, exact: true }).click();
      await expect(page.getByRole("heading", { name: names.many })).toBeVisible();
      await page.getByRole("link", { name: `${en.common.create}: ${names.one}` }).click();
      await fill(page, kind, values);
      await page.getByRole("button", { name: en.common.create, exact: true }).click();

      // The show page lists what was saved; secrets only as set.
      await expect(page.getByRole("heading", { name: String(values.name) })).toBeVisible();
      await expect(page.locator("dl").first()).toContainText(String(values.name));
      if (kind.fields.some((f) => f.secret))
        await expect(page.locator("dl").first()).toContainText(en.common.set);
      for (const secret of sampleSecrets) {
        if (Object.values(values).includes(secret))
          await expect(page.locator("body")).not.toContainText(secret);
      }

      await page.getByRole("link", { name: en.common.edit }).click();
      await page.getByLabel(label("name")).fill(`${values.name} renamed`);
      await page.getByLabel(label("description")).fill("Edited from the browser");
      await page.getByRole("button", { name: en.common.save }).click();
      await expect(page.getByRole("heading", { name: `${values.name} renamed` })).toBeVisible();
      await expect(page.locator("dl").first()).toContainText("Edited from the browser");

      await page.getByRole("button", { name: en.common.delete }).click();
      await expect(page.getByRole("dialog")).toContainText(
        `Are you sure you want to delete ${names.this}, “${values.name} renamed”?`,
      );
      await page.getByRole("button", { name: en.common.yes }).click();
      await expect(page).toHaveURL(new RegExp(`/${kind.kind}$`));
      await expect(page.getByRole("link", { name: `${values.name} renamed` })).toHaveCount(0);
    });
  }

  test("a validation error is shown inline before anything is sent", async ({ page }) => {
    await page.goto("/context-brokers/create");
    let posted = false;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/api/context-brokers")) posted = true;
    });
    await page.getByLabel(label("port")).fill("70000");
    await page.getByRole("button", { name: en.common.create, exact: true }).click();
    await expect(page.getByText("Enter a whole number from 0 to 65535.")).toBeVisible();
    await expect(page.getByText(en.validation.required).first()).toBeVisible();
    expect(posted).toBe(false);
  });

  test("an API error shows the alert and the catalogue dialog", async ({ page }) => {
    // The delete dialog names what keeps the broker before Yes (e2e/delete-dialogs.spec.ts); when that
    // check cannot be made, Yes is given and the delete's own 409 is what the user sees.
    await page.route("**/delete-check", (route) => route.fulfill({ status: 503, json: { status: 503 } }));
    await page.goto("/context-brokers");
    await page.getByRole("link", { name: "Embedded broker" }).click();
    await page.getByRole("button", { name: en.common.delete }).click();
    await page.getByRole("button", { name: en.common.yes }).click();
    const dialog = page.getByRole("dialog", { name: en.common.errorTitle });
    await expect(dialog).toContainText("The deletion of the context broker has failed.");
    await expect(dialog).toContainText("Demo service");
    await dialog.getByRole("button", { name: en.common.close }).last().click();
    await expect(page.getByTestId("error-alert")).toContainText(en.errors.apiReturned);
    await expect(page.getByTestId("error-alert")).toContainText(
      "cannot be deleted while these records refer to it",
    );
  });

  test("the authorization registry tool shows the server's answer", async ({ page }) => {
    await page.goto("/authorization-registries/create");
    await fill(
      page,
      platformKinds.find((k) => k.kind === "authorization-registries")!,
      { ...samples["authorization-registries"], name: "Tool AR" },
    );
    await page.getByRole("button", { name: en.common.create, exact: true }).click();
    await page.goto("/authorization-registry-grants/create");
    await fill(
      page,
      platformKinds.find((k) => k.kind === "authorization-registry-grants")!,
      {
        ...samples["authorization-registry-grants"],
        name: "Tool grant",
        hasAuthorizationRegistry: "Tool AR",
      },
    );
    await page.getByRole("button", { name: en.common.create, exact: true }).click();
    await expect(page.getByRole("heading", { name: "Tool grant" })).toBeVisible();

    await page.getByRole("button", { name: en.app.tools }).click();
    await page.getByRole("link", { name: en.tools.authorizationRegistries.title }).click();
    await page
      .getByLabel(en.tools.authorizationRegistries.chooseRegistry, { exact: true })
      .selectOption({ label: "Tool AR" });
    await expect(
      page.getByRole("button", { name: en.tools.authorizationRegistries.sendDelegationRequest }),
    ).toHaveCount(0);
    await page
      .getByLabel(en.tools.authorizationRegistries.chooseGrant, { exact: true })
      .selectOption({ label: "Tool grant" });
    await expect(page.getByText(en.tools.authorizationRegistries.noRequestYet)).toBeVisible();
    await page.getByRole("button", { name: en.tools.authorizationRegistries.sendDelegationRequest }).click();
    const text = page.getByLabel(en.tools.authorizationRegistries.delegationRequest, { exact: true });
    expect(await text.inputValue()).toContain('\n    "delegationRequest": {');
    await text.fill("{ not json");
    await page.getByRole("button", { name: en.tools.authorizationRegistries.send, exact: true }).click();
    const error = page.getByRole("dialog", { name: en.common.errorTitle });
    await expect(error).toContainText(en.errors.jsonParsingFailed);
    await error.getByRole("button", { name: en.common.close }).last().click();
    // The JSON dialog stays open with the text to correct; start again from the template.
    await page.getByRole("button", { name: en.common.cancel }).click();
    await page.getByRole("button", { name: en.tools.authorizationRegistries.sendDelegationRequest }).click();
    await page.getByRole("button", { name: en.tools.authorizationRegistries.send, exact: true }).click();
    await expect(page.getByRole("dialog", { name: en.common.errorTitle })).toContainText(
      en.errors.delegationRequestFailure,
    );
    // The sample registry's host does not resolve here: the API says which registry and step failed.
    await expect(page.getByTestId("error-alert")).toContainText("could not be reached (token)");
  });
});
