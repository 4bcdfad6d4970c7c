import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RECHECK_FAILED_MS } from "../src/auth/routes.ts";
import { freePort, navigate, readForm, type CookieJar, type Landing } from "../../../test/fakes/browser.ts";
import { startFakeKeyrock, type FakeKeyrock } from "../../../test/fakes/keyrock.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { atCallback, issued, loginError } from "./support/login.ts";

// Signing in with FIWARE Keyrock over real HTTP: the API talks to a fake Keyrock that answers as
// Keyrock 8.4 does (login form, consent, single sign-on cookie, no is_regex in permission lists),
// and the "browser" fills Keyrock's forms and follows the redirects by hand.

const clientId = "8f3c2a10-orrery-application";
const clientSecret = "kr-client-secret-4b9e71d2";
const admin = { email: "admin@test.com", password: "kr-admin-password-93a1" };
const tokenLifetime = 600; // shorter than the 8 h session default, so Keyrock's expiry must win
const literalBroker = "/api/context-brokers/urn:ngsi-ld:ContextBroker:1";

const callbacks: string[] = [];
let keyrock: FakeKeyrock;
let t: TestApp;
let base: string;
const passwords = { alice: "alice-pw", bob: "bob-pw", carol: "carol-pw", dave: "dave-pw" };

async function startApi(
  env: Record<string, string> = {},
  keyrockUrl = keyrock.url,
): Promise<{ t: TestApp; base: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  callbacks.push(`${url}/api/auth/callback`); // the callback URL registered in Keyrock
  const app = await startTestApp({
    PORT: String(port),
    PUBLIC_URL: url,
    AUTH_PROVIDER: "keyrock",
    KEYROCK_URL: keyrockUrl,
    KEYROCK_CLIENT_ID: clientId,
    KEYROCK_CLIENT_SECRET: clientSecret,
    KEYROCK_ADMIN_USERNAME: admin.email,
    KEYROCK_ADMIN_PASSWORD: admin.password,
    ...env,
  });
  await app.app.listen({ port, host: "127.0.0.1" });
  return { t: app, base: url };
}

beforeAll(async () => {
  keyrock = await startFakeKeyrock({
    clientId,
    clientSecret,
    appUrl: "http://console.example/",
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
          { id: "p-list", name: "Read the broker list", action: "GET", resource: "/api/context-brokers" },
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
        password: passwords.alice,
        roles: ["role-editor", "provider", "role-empty"],
      },
      {
        id: "u-bob",
        username: "bob",
        email: "bob@example.org",
        password: passwords.bob,
        roles: ["role-deleter"],
      },
      { id: "u-carol", username: "carol", email: "carol@example.org", password: passwords.carol, roles: [] },
      {
        id: "u-dave",
        username: "dave",
        email: "dave@example.org",
        password: passwords.dave,
        roles: ["role-broker-keeper"],
      },
    ],
    organizations: [{ id: "org-ops", name: "Operations", members: ["u-carol"], roles: ["role-deleter"] }],
  });
  ({ t, base } = await startApi());
});
afterAll(async () => {
  await t?.close();
  await keyrock?.close();
});

/** What a user does in a browser: Orrery's sign-in, Keyrock's login form, then its consent page. */
async function signIn(
  user: keyof typeof passwords,
  options: { api?: string; jar?: CookieJar } = {},
): Promise<Landing> {
  const jar = options.jar ?? new Map();
  let page = await navigate(`${options.api ?? base}/api/auth/login`, { jar });
  if (page.body.includes('name="password"')) {
    const login = readForm(page);
    page = await navigate(login.action, {
      jar,
      form: { ...login.hidden, email: `${user}@example.org`, password: passwords[user] },
    });
  }
  if (page.body.includes("Authorize Orrery")) {
    const consent = readForm(page);
    page = await navigate(consent.action, { jar, form: { ...consent.hidden, action: "allow" } });
  }
  return page;
}

const byKey = (a: { action: string; resource: string }, b: { action: string; resource: string }) =>
  `${a.action} ${a.resource}`.localeCompare(`${b.action} ${b.resource}`);

describe(`Keyrock login over HTTP (${driver})`, () => {
  it("signs in through Keyrock's login and consent pages and grants exactly the permissions of the user's roles", async () => {
    const landing = await signIn("alice");
    expect(landing.hops.some((u) => u.origin === keyrock.url && u.pathname === "/oauth2/enable_app")).toBe(
      true,
    );
    const { token } = issued(landing);
    const api = client(t, token);
    const permissions = await api("GET", "/api/authorization/permissions");
    // Internal (provider) and XACML permissions dropped, the empty role's 404 read as none,
    // verbs upper-cased, and other users' roles not leaking in.
    expect([...permissions.body].sort(byKey)).toEqual(
      [
        { action: "GET", resource: "^/api/.*" },
        { action: "POST", resource: "^/api/data-actions$" },
      ].sort(byKey),
    );
    expect((await api("GET", "/api/context-brokers")).status).toBe(200);
    expect((await api("DELETE", "/api/context-brokers/urn:ngsi-ld:ContextBroker:1")).status).toBe(403);
  });

  it("reads a plain Keyrock resource as one exact path, since Keyrock's lists never say is_regex", async () => {
    const { token } = issued(await signIn("dave"));
    const api = client(t, token);
    expect([...(await api("GET", "/api/authorization/permissions")).body].sort(byKey)).toEqual(
      [
        { action: "GET", resource: "/api/context-brokers", exact: true },
        { action: "PUT", resource: literalBroker, exact: true },
      ].sort(byKey),
    );
    expect((await api("PUT", literalBroker, {})).status).not.toBe(403);
    expect((await api("PUT", `${literalBroker}0`, {})).status).toBe(403);
    // Record ids are case-sensitive, and so is Keyrock's comparison of a plain resource.
    const shouted = literalBroker.replace("urn:ngsi-ld:ContextBroker:1", "URN:NGSI-LD:CONTEXTBROKER:1");
    expect((await api("PUT", shouted, {})).status).toBe(403);
    expect((await api("GET", "/api/context-brokers")).status).toBe(200);
    expect((await api("GET", "/api/context-brokers/urn:ngsi-ld:ContextBroker:1")).status).toBe(403);
  });

  it("grants the roles a user holds through an organisation", async () => {
    const { token } = issued(await signIn("carol"));
    expect((await client(t, token)("GET", "/api/authorization/permissions")).body).toEqual([
      { action: "DELETE", resource: "^/api/.*" },
    ]);
  });

  it("refuses a user with no role in the application with a sentence that says so", async () => {
    keyrock.setRoles("u-alice", ["provider"]);
    try {
      // Named as users know it in Keyrock, not by its client id.
      expect(loginError(await signIn("alice"))).toMatch(/has no role in the application "Orrery console"/);
    } finally {
      keyrock.setRoles("u-alice", ["role-editor", "provider", "role-empty"]);
    }
  });

  it("stops a role removed in Keyrock from working while the session lasts", async () => {
    const quick = await startApi({ PERMISSIONS_REFRESH_SECONDS: "0" });
    try {
      const { token } = issued(await signIn("bob", { api: quick.base }));
      const api = client(quick.t, token);
      expect((await api("GET", "/api/authorization/permissions")).body).toEqual([
        { action: "DELETE", resource: "^/api/.*" },
      ]);
      keyrock.setRoles("u-bob", []);
      expect((await api("GET", "/api/authorization/permissions")).body).toEqual([]);
      expect((await api("DELETE", "/api/context-brokers/urn:x")).status).toBe(403);
    } finally {
      keyrock.setRoles("u-bob", ["role-deleter"]);
      await quick.t.close();
    }
  });

  it("ends the Keyrock session on sign-out, so that Continue asks for the password again", async () => {
    const jar: CookieJar = new Map();
    const { token } = issued(await signIn("alice", { jar }));
    // Single sign-on: while Keyrock's session lives, a new sign-in goes straight through.
    const again = await navigate(`${base}/api/auth/login`, { jar });
    issued(again);
    expect(
      (
        await fetch(`${base}/api/auth/logout`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(204);
    const { signOutUrl } = (await (await fetch(`${base}/api/console-config`)).json()) as {
      signOutUrl: string;
    };
    expect(signOutUrl).toBe(`${keyrock.url}/auth/external_logout?_method=DELETE&client_id=${clientId}`);
    const out = await navigate(signOutUrl, { jar, stopAt: (u) => u.origin !== keyrock.url });
    expect(out.url.toString()).toBe("http://console.example/");
    const next = await navigate(`${base}/api/auth/login`, { jar });
    expect(next.body).toContain('name="password"');
  });

  it("ends the session when Keyrock's access token expires", async () => {
    const before = Date.now();
    const { expiresAt } = issued(await signIn("alice"));
    const expires = Date.parse(expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + tokenLifetime * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + tokenLifetime * 1000 + 1000);
  });

  it("keeps one management token, and releases it when the API stops", async () => {
    const own = await startFakeKeyrock({
      clientId,
      clientSecret,
      admin,
      redirectUris: undefined,
      roles: [
        {
          id: "r",
          name: "R",
          permissions: [{ id: "p", name: "P", action: "GET", resource: "^/api/.*", is_regex: true }],
        },
      ],
      users: [
        {
          id: "u-alice",
          username: "alice",
          email: "alice@example.org",
          password: passwords.alice,
          roles: ["r"],
        },
      ],
    });
    const api = await startApi({}, own.url);
    try {
      for (let i = 0; i < 3; i++) issued(await signIn("alice", { api: api.base }));
      expect(own.liveAdminTokens()).toBe(1);
    } finally {
      await api.t.close();
    }
    expect(own.liveAdminTokens()).toBe(0);
    await own.close();
  });

  it("says at start-up and on the sign-in page what is wrong with the management account", async () => {
    const cases: Array<[Record<string, string>, RegExp, { adminManagesRoles?: boolean }]> = [
      [{ KEYROCK_ADMIN_USERNAME: "admin" }, /must be the account's e-mail address/, {}],
      [{}, /"Manage roles" permission/, { adminManagesRoles: false }],
    ];
    for (const [env, expected, fake] of cases) {
      const own = await startFakeKeyrock({ clientId, clientSecret, admin, users: [], roles: [], ...fake });
      const api = await startApi(env, own.url);
      try {
        const status = (await (await fetch(`${api.base}/api/auth/status`)).json()) as {
          signInProblem: string;
        };
        expect(status.signInProblem).toMatch(expected);
        expect(
          api.t.logs.some(
            (line) => line.includes("sign-in will fail") && expected.test(line.replaceAll('\\"', '"')),
          ),
        ).toBe(true);
        expect(api.t.logs.filter((line) => line.includes(admin.password))).toEqual([]);
      } finally {
        await api.t.close();
        await own.close();
      }
    }
  });

  it('checks the management account again when the sign-in page asks, once it is given "Manage roles" later', async () => {
    const own = await startFakeKeyrock({
      clientId,
      clientSecret,
      admin,
      appName: "Market .*+?(|\\ console",
      users: [],
      roles: [],
      adminManagesRoles: false,
    });
    const api = await startApi({}, own.url);
    const status = async () =>
      (await (await fetch(`${api.base}/api/auth/status`)).json()) as {
        signInProblem: string | null;
        application: string | null;
      };
    try {
      expect(await status()).toEqual({
        signInProblem: expect.stringMatching(/"Manage roles" permission/),
        application: null,
      });
      own.setAdminManagesRoles(true);
      // Checked again at most every RECHECK_FAILED_MS, whoever loads the page.
      await new Promise((resolve) => setTimeout(resolve, RECHECK_FAILED_MS + 100));
      await vi.waitFor(
        async () =>
          expect(await status()).toEqual({ signInProblem: null, application: "Market .*+?(|\\ console" }),
        { timeout: 5_000, interval: 500 },
      );
      expect(api.t.logs.filter((line) => line.includes(clientSecret))).toEqual([]);
    } finally {
      await api.t.close();
      await own.close();
    }
  });

  it("names Keyrock and the failure when it cannot be reached, instead of a bare 'fetch failed'", async () => {
    const closedPort = await freePort();
    const api = await startApi({}, `http://127.0.0.1:${closedPort}`);
    try {
      const status = (await (await fetch(`${api.base}/api/auth/status`)).json()) as {
        signInProblem: string;
      };
      expect(status.signInProblem).toBe(
        `Keyrock (http://127.0.0.1:${closedPort}) could not be reached for the management account's sign-in: ECONNREFUSED.`,
      );
    } finally {
      await api.t.close();
    }
  });

  it("ends at the console's error route on a tampered or replayed state", async () => {
    const jar: CookieJar = new Map();
    issued(await signIn("alice", { jar }));
    const callback = await navigate(`${base}/api/auth/login`, { jar, stopAt: atCallback });
    const tampered = new URL(callback.url);
    tampered.searchParams.set("state", "forged-state");
    expect(loginError(await navigate(tampered))).toMatch(/unknown or too old/);
    issued(await navigate(callback.url));
    expect(loginError(await navigate(callback.url))).toMatch(/unknown or too old/);
  });

  it("ends at the console's error route with Keyrock's message when it refuses a tampered code", async () => {
    const jar: CookieJar = new Map();
    issued(await signIn("alice", { jar }));
    const callback = await navigate(`${base}/api/auth/login`, { jar, stopAt: atCallback });
    const tampered = new URL(callback.url);
    tampered.searchParams.set("code", `${tampered.searchParams.get("code")}x`);
    expect(loginError(await navigate(tampered))).toContain("Invalid grant: authorization code is invalid");
  });

  it("writes no token, code, client secret or admin password to the log", async () => {
    const jar: CookieJar = new Map();
    issued(await signIn("alice", { jar }));
    const callback = await navigate(`${base}/api/auth/login`, { jar, stopAt: atCallback });
    const code = callback.url.searchParams.get("code")!;
    const { token } = issued(await navigate(callback.url));
    await client(t, token)("GET", "/api/context-brokers");
    await fetch(`${base}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(t.logs.some((line) => line.includes("signed in"))).toBe(true);
    for (const secret of [token, code, clientSecret, admin.password, ...keyrock.issuedTokens]) {
      expect(t.logs.filter((line) => line.includes(secret))).toEqual([]);
    }
  });

  it("speaks Keyrock's dialect, as the real one answers", async () => {
    // Guards the fake itself: the provider must cope with these, so the fake must have them.
    const json = await fetch(`${keyrock.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code" }),
    });
    expect(await json.json()).toBe("Invalid request: content must be application/x-www-form-urlencoded");
    const login = await fetch(`${keyrock.url}/v1/auth/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: admin.email, password: admin.password }),
    });
    const headers = { "x-auth-token": login.headers.get("x-subject-token")! };
    const list = (await (
      await fetch(`${keyrock.url}/v1/applications/${clientId}/roles/role-broker-keeper/permissions`, {
        headers,
      })
    ).json()) as {
      role_permission_assignments: Array<Record<string, unknown>>;
    };
    expect(list.role_permission_assignments.every((p) => !("is_regex" in p))).toBe(true);
    const one = (await (
      await fetch(`${keyrock.url}/v1/applications/${clientId}/permissions/p-broker`, { headers })
    ).json()) as {
      permission: { is_regex: number };
    };
    expect(one.permission.is_regex).toBe(0);
    const missing = await fetch(`${keyrock.url}/v1/applications/${clientId}/roles/role-empty/permissions`, {
      headers,
    });
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { error: { message: "Assignments not found", code: 404, title: "Not Found" } },
    ]);
  });
});
