import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, sendJson, type Listening } from "../../../test/fakes/http.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

// A grant whose stored password the identity manager refuses: the broker calls of its workspace
// do not sign in again at each call (a real identity manager locks the account after a few
// failures), until the refusal is old or the grant is edited.

let signIns = 0;
let idm: Listening;
beforeAll(async () => {
  idm = await listen((req, res, url) => {
    if (url.pathname === "/oauth2/token" && req.method === "POST") {
      signIns++;
      return sendJson(res, 401, { error: "invalid_grant", error_description: "Invalid user credentials" });
    }
    sendJson(res, 404, { error: "not_found" });
  });
});
afterAll(() => idm?.close());

describe(`broker calls with a refused grant (${driver})`, () => {
  const ctx = useTestApp();

  async function ok(method: string, path: string, body?: unknown) {
    const res = await ctx.api(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  it("sign in once, answer the refusal at each call, and sign in again once the grant is edited", async () => {
    const identityManager = await ok("POST", "/api/identity-managers", {
      name: "Locking Keyrock",
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(idm.url).port),
      oauth2TokenPath: "/oauth2/token",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    });
    const grantFields = {
      name: "Admin's password",
      hasIdentityManager: identityManager.id,
      grantType: "password",
      clientId: "market-app",
      clientSecret: "client-secret",
      username: "admin@test.com",
      password: "wrong-password",
    };
    const grant = await ok("POST", "/api/identity-manager-grants", grantFields);
    const broker = await ok(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    const service = await ok("POST", "/api/services", {
      name: "Guarded",
      hasContextBroker: broker.id,
      authorizationRequired: true,
      authorizationMode: "oauth2",
      hasIdentityManager: identityManager.id,
      hasIdentityManagerGrant: grant.id,
    });
    const workspace = await ok("POST", "/api/workspaces", {
      name: "Guarded",
      dataModelName: "guarded",
      hasService: service.id,
      hasIdentityManager: identityManager.id,
      hasIdentityManagerGrant: grant.id,
    });
    const before = signIns;
    for (let i = 0; i < 5; i++) {
      const res = await ctx.api("GET", `/api/workspace/${workspace.id}/subscriptions`);
      expect(res.status).toBe(502);
      expect(res.body.code).toBe("idm.refusedGrant");
      expect(res.body.detail).toBe("The identity manager Locking Keyrock refused the grant (401).");
    }
    expect(signIns - before).toBe(1);
    const edited = await ctx.api("PUT", `/api/identity-manager-grants/${encodeURIComponent(grant.id)}`, {
      ...grantFields,
      password: "typed-again",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await ctx.api("GET", `/api/workspace/${workspace.id}/subscriptions`)).status).toBe(502);
    expect(signIns - before).toBe(2);
  });
});
