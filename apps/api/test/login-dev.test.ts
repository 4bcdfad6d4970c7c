import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { freePort, navigate, submit, type Landing } from "../../../test/fakes/browser.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { atCallback, issued, loginError } from "./support/login.ts";

// The development identity manager, driven over real HTTP as a browser would: the login page,
// the form post, the callback, and the redirect to the console with the token.

let t: TestApp;
let base: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: base });
  await t.app.listen({ port, host: "127.0.0.1" });
});
afterAll(() => t?.close());

/** Opens the console's sign-in link and lands on the login page. */
async function loginPage(): Promise<Landing> {
  const page = await navigate(`${base}/api/auth/login`);
  expect(page.url.origin + page.url.pathname).toBe(`${base}/idm/authorize`);
  expect(page.status).toBe(200);
  return page;
}

/** The permissions config/permissions.yaml gives a role, read independently of the API's loader. */
function yamlPermissions(role: string) {
  const file = parse(readFileSync(t.config.permissionsFile, "utf8")) as {
    roles: Record<string, Array<{ action: string; resource: string }>>;
  };
  return file.roles[role]!.map((p) => ({ action: p.action.toUpperCase(), resource: p.resource }));
}

describe(`dev login over HTTP (${driver})`, () => {
  it("signs the operator in and hands the console a working token", async () => {
    const before = Date.now();
    const { token, expiresAt } = issued(
      await submit(await loginPage(), { username: "operator", password: "operator" }),
    );
    expect(token.length).toBeGreaterThanOrEqual(32);

    // expires_at is an ISO date in the future, at most SESSION_TTL_SECONDS away.
    expect(new Date(expiresAt).toISOString()).toBe(expiresAt);
    const expires = Date.parse(expiresAt);
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires).toBeLessThanOrEqual(before + t.config.sessionTtlSeconds * 1000 + 1000);

    const api = client(t, token);
    const permissions = await api("GET", "/api/authorization/permissions");
    expect(permissions.status).toBe(200);
    expect(permissions.body).toEqual(yamlPermissions("operator"));
    expect((await api("GET", "/api/context-brokers")).status).toBe(200);
    // Registering platform components is administration, which the operator may not do.
    expect((await api("POST", "/api/context-brokers", {})).status).toBe(403);
  });

  it("gives the viewer read access only (but the audit trail)", async () => {
    const { token } = issued(await submit(await loginPage(), { username: "viewer", password: "viewer" }));
    const api = client(t, token);
    expect((await api("GET", "/api/authorization/permissions")).body).toEqual([
      {
        action: "GET",
        resource: "^/api/(?!(audit|data-access|broker-clients)(/|$)|workspace/[^/]+/data-access(/|$)).*",
      },
    ]);
    expect((await api("GET", "/api/audit")).status).toBe(403);
    expect((await api("GET", "/api/data-actions")).status).toBe(200);
    expect((await api("POST", "/api/data-actions", {})).status).toBe(403);
  });

  it("revokes the session on logout", async () => {
    const { token } = issued(await submit(await loginPage(), { username: "admin", password: "admin" }));
    const logout = await fetch(`${base}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBe(204);
    expect((await client(t, token)("GET", "/api/authorization/permissions")).status).toBe(401);
    expect((await client(t, token)("GET", "/api/context-brokers")).status).toBe(401);
  });

  it("shows the login page again with an error on a wrong password, and the retry works", async () => {
    const page = await loginPage();
    const wrong = await submit(page, { username: "admin", password: "not-admin" });
    expect(wrong.status).toBe(401);
    expect(wrong.url.pathname).toBe("/idm/authorize");
    expect(wrong.body).toContain("Wrong username or password.");
    expect(wrong.body).toContain('name="password"');

    // The page kept the sign-in attempt: the same form with the right password finishes it.
    const { token } = issued(await submit(wrong, { username: "admin", password: "admin" }));
    expect((await client(t, token)("GET", "/api/authorization/permissions")).status).toBe(200);
  });

  it("ends at the console's error route when the state is tampered with", async () => {
    const callback = await submit(await loginPage(), { username: "admin", password: "admin" }, atCallback);
    const tampered = new URL(callback.url);
    tampered.searchParams.set("state", `${tampered.searchParams.get("state")}x`);
    expect(loginError(await navigate(tampered))).toMatch(/unknown or too old/);

    // The real state still works once: the tampered attempt did not consume it.
    issued(await navigate(callback.url));
  });

  it("ends at the console's error route when a callback is replayed", async () => {
    const callback = await submit(await loginPage(), { username: "admin", password: "admin" }, atCallback);
    issued(await navigate(callback.url));
    expect(loginError(await navigate(callback.url))).toMatch(/unknown or too old/);
  });

  it("refuses a code from one sign-in used to finish another (PKCE binding) or replayed", async () => {
    const first = await submit(await loginPage(), { username: "admin", password: "admin" }, atCallback);
    const second = await submit(await loginPage(), { username: "viewer", password: "viewer" }, atCallback);
    const swapped = new URL(second.url);
    swapped.searchParams.set("code", first.url.searchParams.get("code")!);
    expect(loginError(await navigate(swapped))).toMatch(/authorization code is invalid/);

    // That first code is now spent: replaying it with its own state fails as well.
    expect(loginError(await navigate(first.url))).toMatch(/authorization code is invalid/);
  });

  it("ends at the console's error route when the identity manager reports an error", async () => {
    const error = loginError(
      await navigate(`${base}/api/auth/callback?error=access_denied&error_description=User%20denied`),
    );
    expect(error).toBe("User denied");
  });

  it("writes no issued token or authorization code to the log", async () => {
    const callback = await submit(
      await loginPage(),
      { username: "operator", password: "operator" },
      atCallback,
    );
    const code = callback.url.searchParams.get("code")!;
    const { token } = issued(await navigate(callback.url));
    await client(t, token)("GET", "/api/context-brokers");
    await fetch(`${base}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(t.logs.some((line) => line.includes("signed in"))).toBe(true);
    for (const secret of [token, code]) {
      expect(t.logs.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
