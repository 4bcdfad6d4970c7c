import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, navigate } from "../../../test/fakes/browser.ts";
import { startFakeKeyrock, type FakeKeyrock } from "../../../test/fakes/keyrock.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { atCallback, issued, loginError } from "./support/login.ts";

// Signing in with FIWARE Keyrock over real HTTP: the API talks to an in-process fake Keyrock
// exactly as it would to a real one, and the browser follows the redirects by hand.

const clientId = "8f3c2a10-orrery-application";
const clientSecret = "kr-client-secret-4b9e71d2";
const admin = { email: "admin@test.com", password: "kr-admin-password-93a1" };
const tokenLifetime = 600; // shorter than the 8 h session default, so Keyrock's expiry must win
const literalBroker = "/api/context-brokers/urn:ngsi-ld:ContextBroker:1";

const callbacks: string[] = [];
let keyrock: FakeKeyrock;
let t: TestApp;
let base: string;

async function startApi(secret: string): Promise<{ t: TestApp; base: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  callbacks.push(`${url}/api/auth/callback`); // the callback URL registered in Keyrock
  const app = await startTestApp({
    PORT: String(port),
    PUBLIC_URL: url,
    AUTH_PROVIDER: "keyrock",
    KEYROCK_URL: keyrock.url,
    KEYROCK_CLIENT_ID: clientId,
    KEYROCK_CLIENT_SECRET: secret,
    KEYROCK_ADMIN_USERNAME: admin.email,
    KEYROCK_ADMIN_PASSWORD: admin.password,
  });
  await app.app.listen({ port, host: "127.0.0.1" });
  return { t: app, base: url };
}

beforeAll(async () => {
  keyrock = await startFakeKeyrock({
    clientId,
    clientSecret,
    redirectUris: callbacks,
    admin,
    expiresIn: tokenLifetime,
    roles: [
      {
        id: "role-editor",
        name: "Editor",
        permissions: [
          { id: "p-read", name: "Read everything", action: "GET", resource: "^/api/.*", is_regex: true },
          // Keyrock keeps the verb as typed; the API upper-cases it.
          {
            id: "p-actions",
            name: "Create data actions",
            action: "post",
            resource: "^/api/data-actions$",
            is_regex: true,
          },
          { id: "p-xacml", name: "An advanced XACML rule", xml: "<Rule RuleId='x' Effect='Permit'/>" },
        ],
      },
      {
        id: "role-broker-keeper",
        name: "Broker keeper",
        permissions: [
          {
            id: "p-broker",
            name: "Update broker 1",
            action: "PUT",
            resource: literalBroker,
            is_regex: false,
          },
        ],
      },
      { id: "role-empty", name: "Nothing yet", permissions: [] },
      {
        id: "role-deleter",
        name: "Deleter",
        permissions: [
          { id: "p-delete", name: "Delete", action: "DELETE", resource: "^/api/.*", is_regex: true },
        ],
      },
    ],
    users: [
      {
        id: "u-alice",
        username: "alice",
        email: "alice@example.org",
        roles: ["role-editor", "role-broker-keeper", "provider", "role-empty"],
      },
      { id: "u-bob", username: "bob", email: "bob@example.org", roles: ["role-deleter"] },
      { id: "u-carol", username: "carol", email: "carol@example.org", roles: [] },
    ],
  });
  ({ t, base } = await startApi(clientSecret));
});
afterAll(async () => {
  await t?.close();
  await keyrock?.close();
});

async function signIn(user: string | null, api = base) {
  keyrock.signIn(user);
  return navigate(`${api}/api/auth/login`);
}

const byKey = (a: { action: string; resource: string }, b: { action: string; resource: string }) =>
  `${a.action} ${a.resource}`.localeCompare(`${b.action} ${b.resource}`);

describe(`Keyrock login over HTTP (${driver})`, () => {
  it("signs in through Keyrock and grants exactly the permissions of the user's roles", async () => {
    const landing = await signIn("alice");
    expect(landing.hops.some((u) => u.origin === keyrock.url && u.pathname === "/oauth2/authorize")).toBe(
      true,
    );
    const { token } = issued(landing);

    const api = client(t, token);
    const permissions = await api("GET", "/api/authorization/permissions");
    expect(permissions.status).toBe(200);
    // Internal (provider) and XACML permissions dropped, the empty role's 404 read as none,
    // verbs upper-cased, and bob's role not leaking in.
    expect([...permissions.body].sort(byKey)).toEqual(
      [
        { action: "GET", resource: "^/api/.*" },
        { action: "POST", resource: "^/api/data-actions$" },
        // Not a regular expression in Keyrock: it matches that path only, as Keyrock's PDP does.
        { action: "PUT", resource: `^${literalBroker}$` },
      ].sort(byKey),
    );

    expect((await api("GET", "/api/context-brokers")).status).toBe(200);
    expect((await api("DELETE", "/api/context-brokers/urn:ngsi-ld:ContextBroker:1")).status).toBe(403);
    expect((await api("PUT", literalBroker, {})).status).not.toBe(403);
    expect((await api("PUT", `${literalBroker}0`, {})).status).toBe(403);
  });

  it("ends the session when Keyrock's access token expires", async () => {
    const before = Date.now();
    const { expiresAt } = issued(await signIn("alice"));
    expect(new Date(expiresAt).toISOString()).toBe(expiresAt);
    const expires = Date.parse(expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + tokenLifetime * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + tokenLifetime * 1000 + 1000);
  });

  it("gives a user without roles a session that may do nothing", async () => {
    const { token } = issued(await signIn("carol"));
    const api = client(t, token);
    expect(await api("GET", "/api/authorization/permissions")).toMatchObject({ status: 200, body: [] });
    expect((await api("GET", "/api/context-brokers")).status).toBe(403);
  });

  it("revokes the session on logout", async () => {
    const { token } = issued(await signIn("bob"));
    const logout = await fetch(`${base}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBe(204);
    expect((await client(t, token)("GET", "/api/authorization/permissions")).status).toBe(401);
  });

  it("ends at the console's error route when the user denies access in Keyrock", async () => {
    expect(loginError(await signIn(null))).toBe("User denied access");
  });

  it("ends at the console's error route on a tampered or replayed state", async () => {
    keyrock.signIn("alice");
    const callback = await navigate(`${base}/api/auth/login`, { stopAt: atCallback });
    const tampered = new URL(callback.url);
    tampered.searchParams.set("state", "forged-state");
    expect(loginError(await navigate(tampered))).toMatch(/unknown or too old/);
    issued(await navigate(callback.url));
    expect(loginError(await navigate(callback.url))).toMatch(/unknown or too old/);
  });

  it("ends at the console's error route with Keyrock's message when it refuses a tampered code", async () => {
    keyrock.signIn("alice");
    const callback = await navigate(`${base}/api/auth/login`, { stopAt: atCallback });
    const tampered = new URL(callback.url);
    tampered.searchParams.set("code", `${tampered.searchParams.get("code")}x`);
    expect(loginError(await navigate(tampered))).toContain("Invalid grant: authorization code is invalid");
  });

  it("ends at the console's error route when Keyrock refuses the client secret", async () => {
    const wrongSecret = "kr-wrong-secret-0c55e8a7";
    const other = await startApi(wrongSecret);
    try {
      const error = loginError(await signIn("alice", other.base));
      expect(error).toContain("Keyrock refused the authorization code (401)");
      expect(error).toContain("Invalid client: client is invalid");
      expect(other.t.logs.some((line) => line.includes("sign-in failed"))).toBe(true);
      expect(other.t.logs.filter((line) => line.includes(wrongSecret))).toEqual([]);
    } finally {
      await other.t.close();
    }
  });

  it("writes no token, code, client secret or admin password to the log", async () => {
    keyrock.signIn("alice");
    const callback = await navigate(`${base}/api/auth/login`, { stopAt: atCallback });
    const code = callback.url.searchParams.get("code")!;
    const { token } = issued(await navigate(callback.url));
    await client(t, token)("GET", "/api/context-brokers");
    await fetch(`${base}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${token}` } });

    expect(t.logs.some((line) => line.includes("signed in"))).toBe(true);
    expect(keyrock.issuedTokens.length).toBeGreaterThan(0);
    for (const secret of [token, code, clientSecret, admin.password, ...keyrock.issuedTokens]) {
      expect(t.logs.filter((line) => line.includes(secret))).toEqual([]);
    }
  });

  it("speaks Keyrock's dialect: JSON token bodies refused, bare-string errors", async () => {
    // Guards the fake itself: the provider must cope with these quirks, so the fake must have them.
    const json = await fetch(`${keyrock.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code" }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toBe("Invalid request: content must be application/x-www-form-urlencoded");
    const user = await fetch(`${keyrock.url}/user?access_token=nope`);
    expect(user.status).toBe(401);
    expect(await user.json()).toBe("Invalid token: access token is invalid");
  });
});
