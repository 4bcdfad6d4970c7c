import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { bearer, en, label, openSupermarket } from "./support.ts";

/*
 * The trust flows against the fake iSHARE authorization registry that playwright.config.ts starts
 * (it checks client assertions and certificate chains as a real one does): the registry and a grant
 * registered (its grant being the registry's own party, the only one Keyrock lets write policies),
 * a policy created and a delegation requested in the tool, then the Supermarket's "Logistics
 * partner" role synchronised with Permit, proven by the registry's delegation evidence for each data
 * action and that evidence shown on its page, and a contract detail synchronised with the
 * development identity manager, its lines shown.
 */

interface FakeRegistryFile {
  url: string;
  registry: { identifier: string; certificates: string[] };
  client: { identifier: string; certificates: string[]; privateKey: string };
}

const tools = en.tools.authorizationRegistries;

async function register(page: Page, fake: FakeRegistryFile) {
  const headers = await bearer(page);
  const { hostname, port } = new URL(fake.url);
  const registry = await page.request.post("/api/authorization-registries", {
    headers,
    data: {
      name: "Fake AR",
      ...fake.registry,
      scheme: "http",
      host: hostname,
      port: Number(port),
      oauth2TokenPath: "/oauth2/token",
      delegationPath: "/ar/delegation",
      policyPath: "/ar/policy",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    },
  });
  expect(registry.status()).toBe(201);
  const { id: registryId } = (await registry.json()) as { id: string };
  const grant = await page.request.post("/api/authorization-registry-grants", {
    headers,
    data: { name: "Orrery test grant", hasAuthorizationRegistry: registryId, ...fake.client },
  });
  expect(grant.status()).toBe(201);
}

test("a policy and a delegation through the registry tool, a role synchronised with Permit, a contract detail's lines", async ({
  page,
}) => {
  const fake = JSON.parse(readFileSync(process.env.E2E_REGISTRY_FILE!, "utf8")) as FakeRegistryFile;
  await openSupermarket(page);
  const workspaceUrl = page.url();
  await register(page, fake);

  // The tool: a policy for the grant's own party, then its delegation evidence, verified.
  await page.getByRole("button", { name: en.app.tools }).click();
  await page.getByRole("link", { name: tools.title }).click();
  await page.getByLabel(tools.chooseRegistry, { exact: true }).selectOption({ label: "Fake AR" });
  await page.getByLabel(tools.chooseGrant, { exact: true }).selectOption({ label: "Orrery test grant" });
  await page.getByRole("button", { name: tools.createPolicy }).click();
  // The guided side writes the JSON: a Supermarket type, Deny then Permit.
  await page.getByLabel(tools.builder.workspace).selectOption({ label: "Supermarket" });
  await page.getByLabel(tools.builder.type).selectOption({ label: "Shelf" });
  await page.getByLabel(en.synchronization.deny).check();
  await page.getByLabel(en.synchronization.permit).check();
  const json = page.getByLabel(tools.delegationEvidence, { exact: true });
  await expect(json).toHaveValue(/"type": "Shelf"/);
  await expect(json).toHaveValue(/"effect": "Permit"/);
  await expect(json).toHaveValue(/^\{\n {4}"delegationEvidence": \{\n {8}"notBefore"/);
  await page.getByRole("button", { name: tools.create, exact: true }).click();
  const done = page.getByRole("dialog", { name: en.common.successTitle });
  await expect(done).toContainText(tools.policyCreated);
  await done.getByRole("button", { name: en.common.close }).last().click();
  await page.getByRole("button", { name: tools.sendDelegationRequest }).click();
  await page.getByRole("button", { name: tools.send, exact: true }).click();
  const result = page.locator(".card").filter({ hasText: tools.result });
  await expect(result).toContainText(fake.client.identifier);
  await expect(result).toContainText("verified");

  // The workspace's registry and grant, chosen on its form.
  await page.goto(workspaceUrl);
  const workspaceId = decodeURIComponent(new URL(workspaceUrl).pathname.split("/")[2]!);
  await page.goto(`/workspaces/${encodeURIComponent(workspaceId)}/edit`);
  await page.getByLabel(label("enableOffers")).check();
  await page.getByLabel(label("hasAuthorizationRegistry")).selectOption({ label: "Fake AR" });
  await page.getByLabel(label("hasAuthorizationRegistryGrant")).selectOption({ label: "Orrery test grant" });
  await page.getByRole("button", { name: en.common.save, exact: true }).click();
  await expect(page).not.toHaveURL(/\/edit$/);
  await page.goto(workspaceUrl);

  // The role: yes, then Permit; the registry's answer for each data action, then its evidence on the page.
  await page.getByRole("link", { name: en.kinds.roles.many, exact: true }).click();
  await page.getByRole("link", { name: "Logistics partner" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Logistics partner" })).toBeVisible();
  await expect(
    page.locator("dt", { hasText: en.fields.roleName }).locator("xpath=following-sibling::dd[1]"),
  ).toHaveText("Logistics_partner");
  await page.getByRole("button", { name: en.synchronization.roles.button }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.common.yes }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.synchronization.permit }).click();
  const synced = page.getByRole("dialog", { name: en.common.successTitle });
  await expect(synced).toBeVisible();
  for (const action of ["GET", "POST", "PATCH"])
    await expect(synced.getByTestId("synchronization-lines")).toContainText(
      `✔ ${action} on StockOrder: Permit`,
    );
  await synced.getByRole("button", { name: en.common.close }).last().click();
  const synchronizedRow = page
    .locator("dt", { hasText: en.fields.synchronized })
    .locator("xpath=following-sibling::dd[1]");
  await expect(synchronizedRow).toHaveText(en.common.true);
  const evidence = page
    .locator("dt", { hasText: en.fields.lastDelegationEvidence })
    .locator("xpath=following-sibling::dd[1]");
  await expect(evidence).toContainText("delegationEvidence");
  await expect(evidence).toContainText("Logistics_partner");
  await expect(evidence).toContainText("Permit");

  // A contract detail of the demo contract, synchronised with the development identity manager:
  // its role and one path permission per data action, step by step in the 800 px dialog.
  await page.goto(workspaceUrl);
  await page.getByRole("link", { name: en.kinds.contracts.many, exact: true }).click();
  await page.getByRole("link", { name: "Fresh Foods Logistics" }).click();
  // A detail goes by its role scope name (its role's name is the next column's link).
  await page.getByRole("link", { name: "freshfoods-store001-shelf001" }).click();
  await page.getByRole("button", { name: en.synchronization.contractDetails.button }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.common.yes }).click();
  const lines = page.getByTestId("synchronization-lines");
  await expect(lines).toContainText(
    "Creating a permission with the name 'GET Bösebrücke Einkauf Corner Unit stock-order'",
  );
  await expect(lines.locator(".text-danger")).toHaveCount(0);
  await expect(page.locator(".modal-lg")).toBeVisible();
});

test("a workspace behind a VC verifier opens through the SIOP-2 popup, its calls carrying the token; its contract goes to the trusted issuers list", async ({
  page,
}) => {
  await openSupermarket(page);
  const headers = await bearer(page);
  const post = async (path: string, data: unknown) => {
    const res = await page.request.post(path, { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const brokers = (await (await page.request.get("/api/context-brokers", { headers })).json()) as Array<{
    id: string;
    name: string;
  }>;
  const verifier = await post("/api/vc-verifiers", {
    name: "Fake verifier",
    did: "did:web:verifier.example.org",
    scheme: "http",
    host: "127.0.0.1",
    port: Number(process.env.E2E_VERIFIER_PORT),
    implementationName: "fiware-vc-verifier",
    implementationVersion: "6.0.0",
  });
  const list = await post("/api/trusted-issuers-lists", {
    name: "Issuers",
    scheme: "http",
    host: "127.0.0.1",
    port: Number(process.env.E2E_TIL_PORT),
    implementationName: "fiware-trusted-issuers-list",
    implementationVersion: "0.4.0",
  });
  const service = await post("/api/services", {
    name: "Gated broker",
    hasContextBroker: brokers.find((b) => b.name === "Embedded broker")!.id,
    authorizationRequired: true,
    authorizationMode: "siop2",
    hasVCVerifier: verifier,
    hasTrustedIssuersList: list,
    clientId: "orrery-gated",
  });
  const suffix = Date.now().toString(36);
  const workspace = await post("/api/workspaces", {
    name: `Gated ${suffix}`,
    dataModelName: `gated-${suffix}`,
    hasService: service,
    contextBrokerTenant: `gated${suffix}`,
  });
  const contract = await post(`/api/workspace/${workspace}/contracts`, {
    stakeholderDid: "did:web:visitor.example.org",
    stakeholderName: "Visitor",
    validFromTime: 1_767_225_600,
    validToTime: 1_798_761_600,
    verifiableCredentialType: "VisitorCredential",
  });

  await page.goto("/workspaces");
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("button", { name: `Log in to Gated ${suffix} with a verifiable credential` }).click(),
  ]);
  await expect(popup.getByText("Scan the QR code with your wallet")).toBeVisible();
  const gated = page.waitForRequest(
    (r) => r.url().includes("/api/workspace/") && !!r.headers()["gateway-authorization"],
  );
  await popup.getByRole("button", { name: "Present credential" }).click();
  await expect(page).toHaveURL(/\/workspace\/urn/);
  expect((await gated).headers()["gateway-authorization"]).toMatch(/^Bearer vc\./);
  await expect(
    page.getByRole("navigation", { name: "Open workspaces" }).getByRole("link", { name: `Gated ${suffix}` }),
  ).toBeVisible();

  // Its service is in SIOP-2 mode: a contract goes to the trusted issuers list.
  await page.goto(`/workspace/${encodeURIComponent(workspace)}/contracts/${encodeURIComponent(contract)}`);
  await page.getByRole("button", { name: en.synchronization.contracts.button }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.common.yes }).click();
  await expect(page.getByRole("dialog", { name: en.common.successTitle })).toBeVisible();
  const til = await page.request.get(`http://127.0.0.1:${process.env.E2E_TIL_PORT}/_fake/issuers`);
  expect(((await til.json()) as Array<{ did: string }>).map((i) => i.did)).toContain(
    "did:web:visitor.example.org",
  );
});
