import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NgsiLdClient, NgsiLdError } from "@orrery/ngsi-ld";
import { listen, readBody, sendJson, type Listening } from "../../../test/fakes/http.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { CrossOriginRedirect, fetchWithin, MAX_REDIRECTS, TooManyRedirects } from "../src/peers.ts";
import { fdscService } from "./support/consumer-peers.ts";
import { driver, useTestApp } from "./support/harness.ts";

// A peer that answers 307 (or 308, 302) to another host: the API never sends that host the
// credentials it sent the peer (a grant's password in a form body, a client secret, a bearer), and
// says why in a sentence. Redirects within the peer's own origin are followed, a few at most.

interface Received {
  method: string;
  path: string;
  headers: Record<string, unknown>;
  body: string;
}

/** A host that records everything it is sent, and answers as a token endpoint would, gladly. */
async function recorder(): Promise<Listening & { received: Received[] }> {
  const received: Received[] = [];
  const server = await listen(async (req, res, url) => {
    received.push({
      method: req.method!,
      path: url.pathname,
      headers: req.headers,
      body: await readBody(req),
    });
    sendJson(res, 200, { access_token: "stolen-token", token_type: "Bearer", expires_in: 3600 });
  });
  return { ...server, received };
}

/**
 * A peer that redirects every request under /away to `elsewhere` (the status given by the path's
 * last segment), and under /here to its own /token, which answers a token to a form POST.
 */
async function redirectingPeer(elsewhere: () => string): Promise<Listening & { received: Received[] }> {
  const received: Received[] = [];
  const server = await listen(async (req, res, url) => {
    const body = await readBody(req);
    received.push({ method: req.method!, path: url.pathname, headers: req.headers, body });
    const [, area, status = "307"] = url.pathname.split("/");
    if (area === "away") {
      res.writeHead(Number(status), {
        location: `${elsewhere()}/steal?from=${encodeURIComponent(url.pathname)}`,
      });
      return void res.end();
    }
    if (area === "here") {
      res.writeHead(Number(status), { location: "/token" });
      return void res.end();
    }
    if (area === "loop") {
      res.writeHead(307, { location: `/loop/${Number(status) + 1}` });
      return void res.end();
    }
    if (url.pathname === "/token" && req.method === "POST" && body.includes("grant_type="))
      return sendJson(res, 200, {
        access_token: "token-of-the-peer",
        token_type: "Bearer",
        expires_in: 3600,
      });
    sendJson(res, 404, { error: "not_found" });
  });
  return { ...server, received };
}

let thief: Awaited<ReturnType<typeof recorder>>;
let peer: Awaited<ReturnType<typeof redirectingPeer>>;
beforeAll(async () => {
  thief = await recorder();
  peer = await redirectingPeer(() => thief.url);
});
afterAll(() => Promise.all([thief?.close(), peer?.close()]));

describe("a peer's redirects", () => {
  it("to another origin are not followed, whatever the status, and nothing is sent there", async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const call = fetchWithin(`${peer.url}/away/${status}`, {
        method: "POST",
        headers: { authorization: "Basic c2VjcmV0", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "password", username: "admin", password: "p4ss.*+?(|\\" }),
      });
      await expect(call).rejects.toBeInstanceOf(CrossOriginRedirect);
      await expect(call).rejects.toThrow(`it redirected to ${thief.url}/steal;`);
    }
    expect(thief.received).toEqual([]);
  });

  it("within the peer's origin are followed (a 307 sends the body again), at most a few times", async () => {
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    const answer = await fetchWithin(`${peer.url}/here/307`, { method: "POST", body: form });
    expect(await answer.json()).toMatchObject({ access_token: "token-of-the-peer" });
    expect(peer.received.at(-1)).toMatchObject({ method: "POST", path: "/token", body: form.toString() });
    // A 303 goes on as a GET without the body, as fetch does.
    const seeOther = await fetchWithin(`${peer.url}/here/303`, { method: "POST", body: form });
    expect(seeOther.status).toBe(404);
    expect(peer.received.at(-1)).toMatchObject({ method: "GET", path: "/token", body: "" });
    await expect(fetchWithin(`${peer.url}/loop/0`, {})).rejects.toBeInstanceOf(TooManyRedirects);
    expect(peer.received.filter((r) => r.path.startsWith("/loop/")).length).toBe(MAX_REDIRECTS + 1);
  });
});

describe("a context broker's redirect", () => {
  it("is not followed with the broker's bearer and custom headers: a 502 that says where it pointed", async () => {
    const broker = new NgsiLdClient({
      baseUrl: `${peer.url}/away/307`,
      implementationName: "orion-ld",
      bearer: "broker-bearer",
      customHeaders: { "x-api-key": "broker-api-key" },
      timeoutMs: 2_000,
    });
    const failure = await broker.subscriptions().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NgsiLdError);
    expect((failure as NgsiLdError).status).toBe(502);
    expect((failure as NgsiLdError).failure).toEqual({
      kind: "unreachable",
      cause: `it redirected to ${thief.url}/steal; Orrery does not send credentials to another address`,
    });
    expect(thief.received).toEqual([]);
  });
});

describe(`the API's calls with credentials to a redirecting peer (${driver})`, () => {
  const ctx = useTestApp();
  const ids: Record<string, string> = {};

  async function ok(method: string, path: string, body?: unknown) {
    const res = await ctx.api(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  const identityManager = (name: string, oauth2TokenPath: string) =>
    ok("POST", "/api/identity-managers", {
      name,
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(peer.url).port),
      oauth2TokenPath,
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    }).then((r) => r.id as string);

  const passwordGrant = (name: string, idm: string) =>
    ok("POST", "/api/identity-manager-grants", {
      name,
      hasIdentityManager: idm,
      grantType: "password",
      clientId: "market-app",
      clientSecret: "client-secret-91f2",
      username: "admin@test.com",
      password: "admin-password-5d1c",
    }).then((r) => r.id as string);

  beforeAll(async () => {
    ids.away = await identityManager("Moved Keyrock", "/away/307");
    ids.awayGrant = await passwordGrant("Moved grant", ids.away);
    ids.here = await identityManager("Keyrock behind a path", "/here/307");
    ids.hereGrant = await passwordGrant("Grant behind a path", ids.here);
    thief.received.length = 0;
  });

  it("a grant's check does not send the password to the host a 307 names, and says so", async () => {
    const res = await ctx.api(
      "POST",
      `/api/health/identity-manager-grants/${encodeURIComponent(ids.awayGrant!)}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.state).toBe("down");
    expect(res.body.reasons).toEqual([
      {
        code: "health.crossOriginRedirect",
        params: { location: `${thief.url}/steal` },
        message: `It redirected to ${thief.url}/steal; Orrery does not send credentials to another origin.`,
      },
    ]);
    const fr = await ctx.api(
      "GET",
      `/api/health/identity-manager-grants/${encodeURIComponent(ids.awayGrant!)}`,
      undefined,
      { "accept-language": "fr" },
    );
    expect(fr.body.reasons[0].message).toBe(
      `Il a redirigé vers ${thief.url}/steal\u00a0; Orrery n’envoie pas d’identifiants à une autre origine.`,
    );
    expect(thief.received).toEqual([]);
  });

  it("a grant's check follows a redirect within the identity manager's own address", async () => {
    const res = await ok("POST", `/api/health/identity-manager-grants/${encodeURIComponent(ids.hereGrant!)}`);
    expect(res).toMatchObject({ state: "up", reasons: [{ code: "health.tokenObtained" }] });
    expect(thief.received).toEqual([]);
  });

  it("a broker call's token is not asked of the host a 307 names: 502 with a sentence", async () => {
    const broker = await ok(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    const service = await ok("POST", "/api/services", {
      name: "Guarded by a moved Keyrock",
      hasContextBroker: broker.id,
      authorizationRequired: true,
      authorizationMode: "oauth2",
      hasIdentityManager: ids.away,
      hasIdentityManagerGrant: ids.awayGrant,
    });
    const workspace = await ok("POST", "/api/workspaces", {
      name: "Moved",
      dataModelName: "moved",
      hasService: service.id,
      hasIdentityManager: ids.away,
      hasIdentityManagerGrant: ids.awayGrant,
    });
    const res = await ctx.api("GET", `/api/workspace/${workspace.id}/subscriptions`, undefined, {
      "accept-language": "fr",
    });
    expect(res.status).toBe(502);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe("peer.crossOriginRedirect");
    expect(res.body.detail).toBe(
      `Moved Keyrock (gestionnaire d'identité) a redirigé la requête vers ${thief.url}/steal\u00a0; Orrery n’envoie pas d’identifiants à une autre origine.`,
    );
    expect(thief.received).toEqual([]);
  });

  it("a policy administration point's redirect elsewhere is refused with a sentence", async () => {
    const broker = await ok(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    const service = await fdscService(ok, {
      brokerId: broker.id,
      pap: peer,
      papFields: { name: "Moved PAP", path: "/away/308" },
      clientId: "data-service",
    });
    const workspace = await ok("POST", "/api/workspaces", {
      name: "FDSC moved",
      dataModelName: "fdsc-moved",
      hasService: service,
    });
    const res = await ctx.api("DELETE", `/api/workspace/${workspace.id}/odrl-policies/abcdefghij`);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("peer.crossOriginRedirect");
    expect(res.body.detail).toContain(
      `Moved PAP (policy administration point) redirected the request to ${thief.url}/steal;`,
    );
    expect(thief.received).toEqual([]);
  });
});
