import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { freePort, navigate } from "../../../test/fakes/browser.ts";
import { startFakeOidc, type FakeOidc, type Forgery } from "../../../test/fakes/oidc.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { atCallback, issued, loginError } from "./support/login.ts";

// Signing in with an OpenID Connect provider over real HTTP: the API discovers the fake provider,
// runs the code flow with PKCE, state and nonce, and maps the roles claim through permissions.yaml.

const clientId = "orrery-console";
const clientSecret = "oidc-client-secret-5e2a90c4";
const tokenLifetime = 300;

let oidc: FakeOidc;
let t: TestApp;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  oidc = await startFakeOidc({
    clientId,
    clientSecret,
    redirectUris: [`${base}/api/auth/callback`],
    rolesClaim: "realm_access.roles", // where Keycloak puts realm roles
    expiresIn: tokenLifetime,
    users: [
      {
        sub: "f1d2-dana",
        preferred_username: "dana",
        roles: ["operator", "offline_access", "uma_authorization"],
      },
      { sub: "a9c3-erin", preferred_username: "erin", email: "erin@example.org", roles: ["viewer"] },
      { sub: "77b0-finn", preferred_username: "finn", roles: ["no-such-role"] },
    ],
  });
  // The provider must be up first: the API reads its discovery document when it starts.
  t = await startTestApp({
    PORT: String(port),
    PUBLIC_URL: base,
    AUTH_PROVIDER: "oidc",
    OIDC_ISSUER: oidc.url,
    OIDC_CLIENT_ID: clientId,
    OIDC_CLIENT_SECRET: clientSecret,
    OIDC_ROLES_CLAIM: "realm_access.roles",
  });
  await t.app.listen({ port, host: "127.0.0.1" });
});
afterAll(async () => {
  await t?.close();
  await oidc?.close();
});

function signIn(user: string | null, stopAt?: (url: URL) => boolean) {
  oidc.signIn(user);
  return navigate(`${base}/api/auth/login`, { stopAt });
}

/** The permissions config/permissions.yaml gives these roles, read independently of the API's loader. */
function yamlPermissions(...roles: string[]) {
  const file = parse(readFileSync(t.config.permissionsFile, "utf8")) as {
    roles: Record<string, Array<{ action: string; resource: string }>>;
  };
  return roles
    .flatMap((r) => file.roles[r] ?? [])
    .map((p) => ({ action: p.action.toUpperCase(), resource: p.resource }));
}

describe(`OpenID Connect login over HTTP (${driver})`, () => {
  it("signs in through the provider with PKCE, state and nonce, and maps the roles claim", async () => {
    const before = Date.now();
    const landing = await signIn("dana");
    const authorize = landing.hops.find((u) => u.origin === oidc.url && u.pathname === "/authorize");
    expect(authorize?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize?.searchParams.get("nonce")).toBeTruthy();
    expect(authorize?.searchParams.get("state")).toBeTruthy();
    const { token, expiresAt } = issued(landing);

    const api = client(t, token);
    const permissions = await api("GET", "/api/authorization/permissions");
    expect(permissions.status).toBe(200);
    // offline_access and uma_authorization are not in permissions.yaml: they grant nothing.
    expect(permissions.body).toEqual(yamlPermissions("operator"));
    expect((await api("GET", "/api/context-brokers")).status).toBe(200);
    expect((await api("POST", "/api/context-brokers", {})).status).toBe(403);

    // The session ends with the provider's access token, not after the 8 h default.
    const expires = Date.parse(expiresAt);
    expect(new Date(expiresAt).toISOString()).toBe(expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + tokenLifetime * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + tokenLifetime * 1000 + 1000);
  });

  it("gives read access to a viewer and nothing to a role permissions.yaml does not know", async () => {
    const viewer = client(t, issued(await signIn("erin")).token);
    expect((await viewer("GET", "/api/authorization/permissions")).body).toEqual(yamlPermissions("viewer"));
    expect((await viewer("GET", "/api/data-actions")).status).toBe(200);
    expect((await viewer("POST", "/api/data-actions", {})).status).toBe(403);

    const stranger = client(t, issued(await signIn("finn")).token);
    expect((await stranger("GET", "/api/authorization/permissions")).body).toEqual([]);
    expect((await stranger("GET", "/api/data-actions")).status).toBe(403);
  });

  it("revokes the session on logout", async () => {
    const { token } = issued(await signIn("erin"));
    const logout = await fetch(`${base}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBe(204);
    expect((await client(t, token)("GET", "/api/authorization/permissions")).status).toBe(401);
  });

  it("ends at the console's error route on a tampered or replayed state", async () => {
    const callback = await signIn("dana", atCallback);
    const tampered = new URL(callback.url);
    tampered.searchParams.set("state", "forged-state");
    expect(loginError(await navigate(tampered))).toMatch(/unknown or too old/);
    issued(await navigate(callback.url));
    expect(loginError(await navigate(callback.url))).toMatch(/unknown or too old/);
  });

  it("refuses a code issued to another sign-in: the provider checks the PKCE verifier", async () => {
    const first = await signIn("dana", atCallback);
    const second = await signIn("erin", atCallback);
    const swapped = new URL(second.url);
    swapped.searchParams.set("code", first.url.searchParams.get("code")!);
    expect(loginError(await navigate(swapped))).toMatch(/identity provider refused the sign-in/);
  });

  it.each<Forgery>(["wrong-nonce", "wrong-audience", "expired"])(
    "refuses an id token with %s",
    async (forgery) => {
      oidc.forge(forgery);
      try {
        expect(loginError(await signIn("dana"))).toMatch(/identity provider refused the sign-in/);
      } finally {
        oidc.forge(undefined);
      }
    },
  );

  it("ends at the console's error route when the user denies access", async () => {
    expect(loginError(await signIn(null))).toBe("The user denied access");
  });

  it("writes no token, code or client secret to the log", async () => {
    const callback = await signIn("dana", atCallback);
    const code = callback.url.searchParams.get("code")!;
    const { token } = issued(await navigate(callback.url));
    await client(t, token)("GET", "/api/context-brokers");
    await fetch(`${base}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${token}` } });

    expect(t.logs.some((line) => line.includes("signed in"))).toBe(true);
    for (const secret of [token, code, clientSecret, ...oidc.issuedTokens]) {
      expect(t.logs.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
