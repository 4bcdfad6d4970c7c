import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siop2States } from "../src/storage/schema.ts";
import { SIOP2_LIMITS } from "../src/trust/siop2-routes.ts";
import { freePort } from "../../../test/fakes/browser.ts";
import { startFakeVerifier, type FakeVerifier } from "../../../test/fakes/vc-verifier.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

// SIOP-2 login to a workspace over real HTTP: the API issues a state to the signed-in user, a fake
// FIWARE VC verifier shows the login page of that state, calls the API back server to server with a
// code, and exchanges the code for a token when the console's poll asks for it.

let t: TestApp;
let base: string;
let verifier: FakeVerifier;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: base });
  await t.app.listen({ port, host: "127.0.0.1" });
  verifier = await startFakeVerifier();
  token = await t.tokenFor("admin");
  const api = client(t, token);
  const ok = async (path: string, body: unknown) => {
    const res = await api("POST", path, body);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const broker = await ok(
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const vc = await ok("/api/vc-verifiers", {
    ...samplePayload("vc-verifiers", () => ""),
    name: "Gate verifier",
    scheme: "http",
    host: "127.0.0.1",
    port: Number(new URL(verifier.url).port),
  });
  const til = await ok(
    "/api/trusted-issuers-lists",
    samplePayload("trusted-issuers-lists", () => ""),
  );
  const siop2 = await ok("/api/services", {
    name: "Gateway",
    hasContextBroker: broker,
    authorizationRequired: true,
    authorizationMode: "siop2",
    hasVCVerifier: vc,
    hasTrustedIssuersList: til,
    clientId: "market-gateway",
  });
  const open = await ok("/api/services", { name: "Open", hasContextBroker: broker });
  ids.siop2 = await ok("/api/workspaces", { name: "Gated", dataModelName: "gated", hasService: siop2 });
  ids.other = await ok("/api/workspaces", { name: "Gated too", dataModelName: "gated2", hasService: siop2 });
  ids.open = await ok("/api/workspaces", { name: "Open", dataModelName: "open", hasService: open });
});

afterAll(async () => {
  await verifier?.close();
  await t?.close();
});

const bearer = (value = token) => ({ authorization: `Bearer ${value}` });

/** The console's start of a login: a state issued by the API and the verifier's login page for it. */
async function issue(workspaceId = ids.siop2!, as = token) {
  const res = await fetch(`${base}/api/siop2/states`, {
    method: "POST",
    headers: { ...bearer(as), "content-type": "application/json" },
    body: JSON.stringify({ workspaceId }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { state: string; loginUrl: string; expiresAt: string; code?: string },
  };
}

/** The verifier's login page for a state, opened as the console's popup does, then the wallet's presentation. */
async function login(state: string, loginUrl: string) {
  expect((await fetch(loginUrl)).status).toBe(200);
  return verifier.present(state);
}

const poll = (state: string, workspaceId = ids.siop2!, as = token) =>
  fetch(`${base}/api/siop2/poll?${new URLSearchParams({ state, workspaceId })}`, { headers: bearer(as) });

const callback = (state: string, code: string) =>
  fetch(`${base}/api/siop2/callback?${new URLSearchParams({ state, code })}`);

const rows = async () =>
  (await t.storage.db.select({ n: sql<number>`count(*)::int` }).from(siop2States))[0]!.n;

describe(`SIOP-2 login (${driver})`, () => {
  it("issues a state for the workspace, answers 503 until the verifier calls back, then the access token once", async () => {
    const { status, body } = await issue();
    expect(status).toBe(201);
    expect(body.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const url = new URL(body.loginUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${verifier.url}/api/v1/loginQR`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      state: body.state,
      client_id: "market-gateway",
      client_callback: `${base}/api/siop2/callback`,
    });
    const lifetime = Date.parse(body.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);

    expect((await poll(body.state)).status).toBe(503);
    expect(await login(body.state, body.loginUrl)).toBe(204);
    const answer = await poll(body.state);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await answer.text()).toBe(verifier.issued.at(-1));
    // Single use: the login is over.
    const again = await poll(body.state);
    expect(again.status).toBe(404);
    expect(((await again.json()) as { code: string }).code).toBe("siop2.unknownState");
    expect(JSON.stringify(t.logs)).not.toContain(verifier.issued.at(-1));
  });

  it("issues states only to a signed-in user who may see the workspace", async () => {
    const anonymous = await fetch(`${base}/api/siop2/states`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ workspaceId: ids.siop2 }),
    });
    expect(anonymous.status).toBe(401);
    const blind = await t.tokenWith([{ action: "GET", resource: "^/api/services$" }]);
    const refused = await issue(ids.siop2, blind);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("auth.forbidden");
    // A viewer may: the verifier's token, not Orrery's permissions, says what the broker allows.
    expect((await issue(ids.siop2, await t.tokenFor("viewer"))).status).toBe(201);
    expect((await issue(ids.open)).body.code).toBe("siop2.notSiop2");
    const odd = "urn:ngsi-ld:Workspace:.*+?(|\\";
    expect((await issue(odd)).status).toBe(404);
  });

  it("keeps the first code of a state: a second callback, from someone who learnt the state, is refused", async () => {
    const { body } = await issue();
    expect(await login(body.state, body.loginUrl)).toBe(204);
    const hijack = await callback(body.state, "the-attackers-own-code");
    expect(hijack.status).toBe(409);
    expect(hijack.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await hijack.json()) as { code: string }).code).toBe("siop2.alreadyCalledBack");
    // The user's own login goes through, with the verifier's code.
    const answer = await poll(body.state);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(verifier.issued.at(-1));
  });

  it("answers a poll only for the workspace and the user the state was issued to", async () => {
    const { body } = await issue();
    const someoneElse = (
      await t.sessions.create({
        subject: "someone-else",
        username: "someone-else",
        provider: "test",
        permissions: [{ action: "GET", resource: "^/api/.*" }],
        expiresAt: new Date(Date.now() + 3600_000),
      })
    ).token;
    expect((await poll(body.state, ids.siop2, someoneElse)).status).toBe(404);
    expect((await poll(body.state, ids.other)).status).toBe(404);
    expect(await login(body.state, body.loginUrl)).toBe(204);
    expect((await poll(body.state, ids.siop2, someoneElse)).status).toBe(404);
    expect((await poll(body.state, ids.other)).status).toBe(404);
    expect((await poll(body.state)).status).toBe(200);
  });

  it("stores nothing for a flood of callbacks with states it never issued", async () => {
    const before = await rows();
    const long = "x".repeat(2_000);
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.app.inject({
            method: "GET",
            url: `/api/siop2/callback?${new URLSearchParams({ state: `${long}${batch}-${i}`.slice(-2_000), code: long })}`,
            // From many addresses, so that the rate limit lets every one reach the state check.
            remoteAddress: `10.0.${batch}.${i + 1}`,
          }),
        ),
      );
      for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 404: 1_000 });
    expect(await rows()).toBe(before);
  });

  it("forgets an expired state: its callback and poll are refused, and the next issue sweeps it", async () => {
    const { body } = await issue();
    await t.storage.db.execute(
      sql`UPDATE siop2_states SET expires_at = now() - interval '1 second' WHERE state = ${body.state}`,
    );
    const late = await callback(body.state, "late");
    expect(late.status).toBe(404);
    expect((await poll(body.state)).status).toBe(404);
    const code = await t.storage.db.execute(sql`SELECT code FROM siop2_states WHERE state = ${body.state}`);
    expect(JSON.stringify(code)).not.toContain("late");
    await issue();
    const left = await t.storage.db.execute(
      sql`SELECT count(*)::int AS n FROM siop2_states WHERE expires_at < now()`,
    );
    expect(JSON.stringify(left)).toContain('"n":0');
  });

  it("refuses a workspace that is not in SIOP-2 mode, and a callback without a code", async () => {
    const open = await poll("abc", ids.open);
    expect(open.status).toBe(400);
    expect(((await open.json()) as { code: string }).code).toBe("siop2.notSiop2");
    expect((await fetch(`${base}/api/siop2/callback?state=abc`)).status).toBe(400);
    expect((await poll("abc", "urn:ngsi-ld:Workspace:none")).status).toBe(404);
    expect((await fetch(`${base}/api/siop2/poll?state=abc&workspaceId=${ids.siop2}`)).status).toBe(401);
  });

  it("says the verifier refused the code in its own catalogued words, the verifier's body going to the log only", async () => {
    const { body } = await issue();
    // A code the verifier never issued (the verifier is the one calling back; here, a confused one).
    expect((await callback(body.state, "forged")).status).toBe(204);
    const refused = await poll(body.state);
    expect(refused.status).toBe(502);
    const problem = await refused.text();
    expect(JSON.parse(problem)).toMatchObject({
      code: "siop2.refused",
      params: { name: "Gate verifier", status: 403 },
    });
    // The fake's refusal: {"summary":"invalid_code"}.
    expect(problem).not.toContain("invalid_code");
    expect(t.logs.find((line) => line.includes("invalid_code"))).toContain("Gate verifier");
  });

  it("limits the callbacks from one address, with a problem+json 429", async () => {
    const from = { remoteAddress: "192.0.2.7" };
    const call = () => t.app.inject({ method: "GET", url: "/api/siop2/callback?state=s&code=c", ...from });
    for (let i = 0; i < SIOP2_LIMITS.callback; i++) expect((await call()).statusCode).toBe(404);
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ status: 429, code: "request.tooMany" });
    // Another address is not held back.
    const other = await t.app.inject({
      method: "GET",
      url: "/api/siop2/callback?state=s&code=c",
      remoteAddress: "192.0.2.8",
    });
    expect(other.statusCode).toBe(404);
  });
});
