import { expect, test, type Page } from "@playwright/test";
import { startFakePap, type FakePap } from "../test/fakes/odrl-pap.ts";
import { startFakeCredentialsConfig, type FakeCredentialsConfig } from "../test/fakes/credentials-config.ts";
import {
  startFakeTrustedIssuersList,
  type FakeTrustedIssuersList,
} from "../test/fakes/trusted-issuers-list.ts";
import en from "../apps/console/src/i18n/en.json" with { type: "json" };

export { en };

/** Signs in through the development identity manager, as a person would. */
export async function signIn(page: Page, user: string, path = "/workspaces") {
  await page.goto(path);
  await expect(page).toHaveURL(/\/authentication/);
  await page.getByRole("link", { name: en.auth.continue }).click();
  await page.getByLabel("Username").fill(user);
  await page.getByLabel("Password").fill(user);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The navigation bar appears once signed in (its buttons may sit in the collapsed menu on a phone).
  await expect(page.getByRole("navigation", { name: en.app.mainNavigation })).toBeVisible();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A field's label as the form shows it: its English name, with a star when required. */
export const label = (field: string) =>
  new RegExp(`^${escape((en.fields as Record<string, string>)[field]!)}( \\*)?$`);

/** Signed in as admin, the demo's "Supermarket" workspace open on its entities tab. */
export async function openSupermarket(page: Page) {
  await signIn(page, "admin");
  await page.getByRole("button", { name: "Open Supermarket" }).click();
  await expect(page).toHaveURL(/\/workspace\/urn/);
  await expect(page.getByRole("tab", { name: en.entities.tab })).toBeVisible();
}

/** The type chosen in the data-model chart; its entities listed. */
export async function selectType(page: Page, name: string) {
  // The node's name, then perhaps its data services' marker (↑↓).
  await page
    .getByTestId("chart-node")
    .filter({ has: page.getByText(name, { exact: true }) })
    .click();
  await expect(page.getByRole("heading", { level: 2, name, exact: true })).toBeVisible();
}

/** The bearer header of the signed-in page, for API calls made by the test itself. */
export async function bearer(page: Page) {
  const session = await page.evaluate(() => JSON.parse(localStorage.getItem("orrery.session") ?? "{}"));
  return { authorization: `${session.tokenType} ${session.token}` };
}

/** The workspace id of the workspace view the page is on. */
export const workspaceIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split("/")[2]!);

/** A peer's address as a registration form takes it: scheme, host and port of the fake's URL. */
export const at = (url: string) => ({ scheme: "http", host: "127.0.0.1", port: Number(new URL(url).port) });

/** Fakes of the FIWARE Data Space Connector's ODRL-PAP, credentials configuration service and trusted issuers list (notes/fdsc.md). */
export interface FdscFakes {
  pap: FakePap;
  ccs: FakeCredentialsConfig;
  til: FakeTrustedIssuersList;
}

/**
 * Starts the FDSC fakes before the spec's tests and stops them after (one set a spec file); the
 * fields of the returned object are set once they listen.
 */
export function useFdscFakes(): FdscFakes {
  const fakes = {} as FdscFakes;
  test.beforeAll(async () => {
    [fakes.pap, fakes.ccs, fakes.til] = await Promise.all([
      startFakePap({ validation: true }),
      startFakeCredentialsConfig({ variant: "verifier" }),
      startFakeTrustedIssuersList(),
    ]);
  });
  test.afterAll(() => Promise.all([fakes.pap?.close(), fakes.ccs?.close(), fakes.til?.close()]));
  return fakes;
}

/**
 * Registers the fakes as a policy administration point, a credentials configuration service and a
 * trusted issuers list named "PAP {tag}", "CCS {tag}" and "TIL {tag}", through `post` (which
 * answers the id of what it created).
 */
export async function registerFdscComponents(
  post: (path: string, data: object) => Promise<string>,
  { pap, ccs, til }: FdscFakes,
  tag: string,
) {
  const papId = await post("/policy-administration-points", {
    name: `PAP ${tag}`,
    ...at(pap.url),
    organizationDid: "did:web:provider.example.org",
    validation: true,
    implementationName: "odrl-pap",
    implementationVersion: "1.4.3",
  });
  const ccsId = await post("/credentials-config-services", {
    name: `CCS ${tag}`,
    ...at(ccs.url),
    implementationName: "fiware-vc-verifier",
    implementationVersion: "6.2.0",
  });
  const tilId = await post("/trusted-issuers-lists", {
    name: `TIL ${tag}`,
    ...at(til.url),
    implementationName: "fiware-trusted-issuers-list",
    implementationVersion: "0.8.1",
  });
  return { papId, ccsId, tilId };
}
