import { expect, test, type Page } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, label, registerFdscComponents, signIn, useFdscFakes } from "./support.ts";

/*
 * The FIWARE Data Space Connector mode, in Chromium, against fakes of its ODRL-PAP, credentials
 * configuration service and trusted issuers list started here (they answer as the real services
 * do, notes/fdsc.md): a service put in FDSC mode from its form, then a workspace's ODRL policies
 * built, tried, saved, read and deleted, in English and in French.
 */

const fakes = useFdscFakes();
const suffix = Date.now().toString(36);

interface Made {
  workspaceId: string;
  serviceId: string;
  tilId: string;
}

/** The components registered through the API, a service put in FDSC mode through its form, a workspace on it. */
async function fdscWorkspace(page: Page, name = "Clusters"): Promise<Made> {
  const headers = await bearer(page);
  const post = async (path: string, data: object) => {
    const res = await page.request.post(`/api${path}`, { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const tag = `${name} ${suffix}`;
  const { tilId } = await registerFdscComponents(post, fakes, tag);

  await page.goto("/services/create");
  await page.getByLabel(label("name")).fill(`${tag} service`);
  await page.getByLabel(label("hasContextBroker")).selectOption({ label: "Embedded broker" });
  await page.getByLabel(label("authorizationRequired")).check();
  await page
    .getByLabel(label("authorizationMode"))
    .selectOption({ label: en.options.authorizationMode.fdsc });
  await page.getByLabel(label("hasPolicyAdministrationPoint")).selectOption({ label: `PAP ${tag}` });
  await page.getByLabel(label("hasCredentialsConfigService")).selectOption({ label: `CCS ${tag}` });
  await page.getByLabel(label("hasTrustedIssuersList")).selectOption({ label: `TIL ${tag}` });
  await page.getByLabel(label("clientId")).fill(name.toLowerCase());
  await page.getByRole("button", { name: en.common.create }).click();
  await expect(page.getByText(en.options.authorizationMode.fdsc)).toBeVisible();
  const serviceId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2]!);
  const workspace = await post("/workspaces", {
    name: tag,
    dataModelName: `${name.toLowerCase()}-${suffix}`,
    hasService: serviceId,
  });
  return { workspaceId: workspace, serviceId, tilId };
}

test("a workspace's ODRL policies: built with the guided builder, tried with the PAP, read as a statement, edited and deleted", async ({
  page,
}) => {
  const p = en.fdsc.policies;
  const b = en.fdsc.builder;
  await signIn(page, "admin");
  const { workspaceId } = await fdscWorkspace(page);
  await page.goto(`/workspace/${encodeURIComponent(workspaceId)}`);
  await page.getByRole("link", { name: p.title, exact: true }).click();
  await expect(page.getByText(p.none)).toBeVisible();

  await page.getByRole("link", { name: `+ ${en.common.create}` }).click();
  await page.getByLabel(b.role).fill("OPERATOR");
  await page.getByLabel(b.credentialType, { exact: true }).first().fill("OperatorCredential");
  await page.getByLabel(b.entityType).fill("K8SCluster");
  await page.getByRole("button", { name: b.testFromPolicy }).click();
  await page.getByRole("button", { name: b.validate }).click();
  await expect(page.getByTestId("policy-verdict")).toHaveText(b.allowed);
  await page.getByLabel(b.testRoles).fill("READER");
  await page.getByRole("button", { name: b.validate }).click();
  await expect(page.getByTestId("policy-verdict")).toContainText(b.denied);
  await page.screenshot({ path: "/tmp/fdsc-policy-builder.png", fullPage: true });
  await page.getByRole("button", { name: en.common.save }).click();

  // Its page, titled by what it allows (not urn:orrery:policy:…), as the toast says it.
  await expect(
    page.getByRole("heading", { level: 1, name: "OPERATOR: read entities of type K8SCluster" }),
  ).toBeVisible();
  await expect(
    page.getByText("Saved: ODRL policy “OPERATOR: read entities of type K8SCluster”."),
  ).toBeVisible();
  // The statement, the Rego the PAP generated folded.
  const statement = page.getByTestId("policy-statement");
  await expect(statement).toHaveText(
    "Holders of an OperatorCredential with the role OPERATOR may read (odrl:read) entities of type K8SCluster.",
  );
  const rego = page.getByTestId("policy-rego");
  await expect(rego).toBeHidden();
  await page.getByText(p.rego).click();
  await expect(rego).toContainText("package policy.");
  expect(fakes.pap.policies.size).toBe(1);
  await page.screenshot({ path: "/tmp/fdsc-policy-show.png", fullPage: true });

  // Edited: modify added.
  await page.getByRole("link", { name: en.common.edit }).click();
  await page.getByLabel(`${en.fdsc.action.modify} (odrl:modify)`).check();
  await page.getByRole("button", { name: en.common.save }).click();
  await expect(statement.getByRole("listitem")).toHaveCount(2);
  expect([...fakes.pap.policies.values()][0]!.rego).toContain("is_modify");

  // In French.
  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await expect(statement.getByRole("listitem").first()).toHaveText(
    "Tout porteur d'une OperatorCredential avec le rôle OPERATOR peut lire (odrl:read) les entités de type K8SCluster.",
  );
  await expect(page.getByRole("link", { name: fr.fdsc.policies.title })).toBeVisible();
  await expect(
    page.getByRole("heading", {
      level: 1,
      name: /^OPERATOR\s?: lire, modifier les entités de type K8SCluster$/,
    }),
  ).toBeVisible();
  await page.screenshot({ path: "/tmp/fdsc-policy-show-fr.png", fullPage: true });

  // Deleted, after the confirmation.
  await page.getByRole("button", { name: fr.common.delete }).click();
  await page.getByRole("button", { name: fr.common.yes }).click();
  await expect(page.getByText(fr.fdsc.policies.none)).toBeVisible();
  expect(fakes.pap.policies.size).toBe(0);
  await page.getByRole("button", { name: fr.app.languages.en }).click();
});

test("a role's accesses written to the PAP as ODRL policies by its synchronisation, in FDSC mode", async ({
  page,
}) => {
  await signIn(page, "admin");
  const { workspaceId } = await fdscWorkspace(page, "Roles");
  const headers = await bearer(page);
  const path = `/api/workspace/${workspaceId}`;
  const post = async (url: string, data: object) => {
    const res = await page.request.post(url, { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const actions = (await (await page.request.get("/api/data-actions", { headers })).json()) as Array<{
    id: string;
    name: string;
  }>;
  const type = await post(`${path}/types`, { name: "K8SCluster" });
  const service = await post(`${path}/data-services`, {
    name: "Clusters",
    hasEntityType: type,
    hasDataActions: actions.filter((a) => ["GET", "PATCH"].includes(a.name)).map((a) => a.id),
  });
  const role = await post(`${path}/roles`, {
    name: "Operator",
    roleName: "OPERATOR",
    notBefore: 1_767_225_600,
    notOnOrAfter: 1_798_761_600,
    dataServiceProviderId: "did:web:provider.example.org",
    verifiableCredentialType: "OperatorCredential",
  });
  await post(`${path}/data-service-accesses`, { hasRole: role, hasDataService: service });

  await page.goto(`/workspace/${encodeURIComponent(workspaceId)}/roles/${encodeURIComponent(role)}`);
  await page.getByRole("button", { name: en.fdsc.roleSync.button }).click();
  await page.getByRole("button", { name: en.common.yes }).click();
  await page.getByRole("button", { name: en.synchronization.permit }).click();
  await expect(page.getByText(en.fdsc.roleSync.done.replace("{{name}}", "Operator"))).toBeVisible();
  await expect(page.getByTestId("synchronization-lines")).toContainText(
    "✔ K8SCluster: the PAP returns the policy",
  );
  await page.screenshot({ path: "/tmp/fdsc-role-sync.png", fullPage: true });
  await page.getByRole("dialog").getByRole("button", { name: en.common.close, exact: true }).last().click();
  await expect(page.getByText(en.fields.lastOdrlPolicies)).toBeVisible();
  const [written] = [...fakes.pap.policies.values()].filter((p) => p.uid.includes(":role:OPERATOR:"));
  expect(written?.rego).toContain('"K8SCluster"');
  expect(written?.rego).toContain("is_modify");
});

test("a service's credential configuration and a list's trusted issuers managed from the console, in English and French", async ({
  page,
}) => {
  const c = en.fdsc.credentials;
  const i = en.fdsc.issuers;
  await signIn(page, "admin");
  const { serviceId, tilId } = await fdscWorkspace(page, "Scopes");

  // The credential configuration, at the verifier's /service API.
  await page.goto(`/services/${encodeURIComponent(serviceId)}`);
  await page.getByRole("link", { name: c.title, exact: true }).click();
  await expect(page.getByTestId("configuration-absent")).toBeVisible();
  await page.getByLabel(c.scopeName, { exact: true }).fill("operator");
  await page.getByLabel(c.type, { exact: true }).fill("OperatorCredential");
  await page.getByLabel(c.participantsLists).fill("https://tir.127.0.0.1.nip.io");
  await page.getByLabel(c.authorizationType).selectOption("DEEPLINK");
  await page.getByRole("button", { name: en.common.save }).click();
  await expect(page.getByTestId("configuration-absent")).toBeHidden();
  const kept = fakes.ccs.services.get("scopes");
  expect(kept?.oidcScopes.operator?.credentials[0]).toMatchObject({
    type: "OperatorCredential",
    trustedIssuersLists: [fakes.til.url],
    jwtInclusion: { enabled: true, fullInclusion: true },
  });
  expect(kept?.authorizationType).toBe("DEEPLINK");
  await page.screenshot({ path: "/tmp/fdsc-credentials.png", fullPage: true });

  // The trusted issuers of the service's list.
  await page.goto(`/trusted-issuers-lists/${encodeURIComponent(tilId)}`);
  await page.getByRole("link", { name: i.title, exact: true }).click();
  await expect(page.getByText(i.none)).toBeVisible();
  await page.getByRole("link", { name: `+ ${en.common.create}` }).click();
  await page.getByLabel(i.did).fill("did:web:operator.example.org");
  await page.getByLabel(i.credentialsType).fill("OperatorCredential");
  await page.getByRole("button", { name: i.addClaim }).click();
  await page.getByLabel(i.allowedValues).fill("OPERATOR\nREADER");
  await page.getByRole("button", { name: en.common.save }).click();
  await expect(page.getByTestId("issuer-credential")).toContainText("roles: OPERATOR, READER");
  expect(fakes.til.issuers.get("did:web:operator.example.org")?.credentials).toEqual([
    {
      credentialsType: "OperatorCredential",
      claims: [{ name: "roles", allowedValues: ["OPERATOR", "READER"] }],
    },
  ]);

  // In French: the issuer edited, then removed.
  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await page.getByRole("link", { name: fr.common.edit }).click();
  await page.getByLabel(fr.fdsc.issuers.allowedValues).fill("OPERATOR");
  await page.getByRole("button", { name: fr.common.save }).click();
  await expect(page.getByTestId("issuer-credential")).toContainText("roles : OPERATOR");
  await page.screenshot({ path: "/tmp/fdsc-issuer-fr.png", fullPage: true });
  await page.getByRole("button", { name: fr.common.delete }).click();
  await page.getByRole("button", { name: fr.common.yes }).click();
  await expect(page.getByText(fr.fdsc.issuers.none)).toBeVisible();
  expect(fakes.til.issuers.size).toBe(0);
  await page.getByRole("button", { name: fr.app.languages.en }).click();
});
