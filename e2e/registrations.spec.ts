import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, signIn } from "./support.ts";

/**
 * A context broker's registrations on its page: a second instance of the embedded broker runs as
 * its own process (`npm run broker`), holds a vehicle, and is registered in the product's
 * embedded broker from the console; a query on the embedded broker then includes that vehicle.
 */
let second: ChildProcess;
let secondBase: string;
let dataDir: string;
const vehicle = `urn:ngsi-ld:Vehicle:depot-${Date.now().toString(36)}`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "orrery-e2e-second-broker-"));
  const port = await freePort();
  second = spawn(process.execPath, ["--import", "tsx", "packages/broker/src/standalone.ts"], {
    env: {
      ...process.env,
      BROKER_PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  secondBase = `http://127.0.0.1:${port}`;
  await expect
    .poll(
      () =>
        fetch(`${secondBase}/ngsi-ld/v1/types`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
  const created = await fetch(`${secondBase}/ngsi-ld/v1/entities`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: vehicle, type: "Vehicle", speed: { type: "Property", value: 42 } }),
  });
  expect(created.status).toBe(201);
});

test.afterAll(async () => {
  if (second && second.exitCode === null) {
    const exited = new Promise((resolve) => second.once("exit", resolve));
    second.kill("SIGTERM");
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test("an administrator registers a second broker in the embedded one, sees its entities through it, and deletes the registration", async ({
  page,
  baseURL,
}) => {
  await signIn(page, "admin", "/context-brokers");
  await page.getByRole("link", { name: "Embedded broker" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Embedded broker" })).toBeVisible();
  const panel = page.getByRole("region", { name: en.registrations.title });
  await expect(panel.getByText(en.registrations.none)).toBeVisible();

  // The broker's own refusal is shown as it said it (exclusive registrations are not supported).
  const form = panel.getByRole("form", { name: en.registrations.add });
  await form.getByLabel(en.registrations.endpoint, { exact: true }).fill(secondBase);
  await form.getByLabel(en.registrations.name, { exact: true }).fill("Depot broker");
  await form.getByLabel(en.registrations.type, { exact: true }).fill("Vehicle");
  await form.getByLabel(en.registrations.propertyNames, { exact: true }).fill("speed");
  await form.getByLabel(en.registrations.mode, { exact: true }).selectOption("exclusive");
  await form.getByRole("button", { name: en.registrations.register }).click();
  await expect(form.getByRole("alert")).toContainText("mode exclusive is not supported");

  await form.getByLabel(en.registrations.mode, { exact: true }).selectOption("inclusive");
  await form.getByRole("button", { name: en.registrations.register }).click();
  const row = panel.getByRole("row").filter({ hasText: "Depot broker" });
  await expect(row).toContainText(secondBase);
  await expect(row).toContainText("Vehicle");
  await expect(row).toContainText("speed");
  await expect(row).toContainText("inclusive");
  await page.screenshot({ path: "/tmp/registrations-panel.png", fullPage: true });

  // Federation: the embedded broker's query includes the second broker's vehicle (local=true does not).
  const query = `${baseURL}/ngsi-ld/v1/entities?type=Vehicle&attrs=speed`;
  // As the signed-in administrator: the broker's policy enforcement point answers no one without a credential.
  const headers = await bearer(page);
  const federated = (await (await fetch(query, { headers })).json()) as Array<{ id: string }>;
  expect(federated.map((e) => e.id)).toContain(vehicle);
  const local = (await (await fetch(`${query}&local=true`, { headers })).json()) as Array<{ id: string }>;
  expect(local.map((e) => e.id)).not.toContain(vehicle);

  // In French too.
  await page.getByRole("button", { name: en.app.languages.fr }).click();
  const panelFr = page.getByRole("region", { name: fr.registrations.title });
  await expect(panelFr.getByRole("columnheader", { name: fr.registrations.endpoint })).toBeVisible();

  await panelFr
    .getByRole("button", { name: fr.registrations.delete.replace("{{name}}", "Depot broker") })
    .click();
  await page.getByRole("button", { name: fr.common.yes }).click();
  await expect(panelFr.getByText(fr.registrations.none)).toBeVisible();
  const after = (await (await fetch(query, { headers })).json()) as Array<{ id: string }>;
  expect(after.map((e) => e.id)).not.toContain(vehicle);
});
