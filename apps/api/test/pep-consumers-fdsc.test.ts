import { SignJWT, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaces } from "@orrery/model";
import { startFakePap, type FakePap } from "../../../test/fakes/odrl-pap.ts";
import { startFakeVerifier, type FakeVerifier } from "../../../test/fakes/vc-verifier.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { consumerJudge, type ConsumerRequest } from "../src/pep/consumers.ts";
import {
  credential as vcOf,
  fdscService,
  roleWithAccess,
  verifierToken as tokenOf,
} from "./support/consumer-peers.ts";
import { driver, useTestApp } from "./support/harness.ts";

// A consumer of a workspace in FDSC mode: a JWT from a VC verifier registered in Orrery (the fake
// signs it with the key it publishes at /.well-known/jwks, for the workspace's service), whose
// credential's roles the ODRL policies in the PAP permit: the policies Orrery's own role
// synchronisation wrote there, read back and evaluated, never a rule set kept apart.

const ctx = useTestApp();
const CACHE_MS = 400;
const PROVIDER = "did:web:provider.example.org";
let pap: FakePap;
let verifier: FakeVerifier;
let lateVerifier: FakeVerifier;
const ids: Record<string, string> = {};
let path: string;
let shared: ReturnType<typeof consumerJudge>;

async function ok(method: string, url: string, body?: unknown) {
  const res = await ctx.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const credential = (roles: string[]) => vcOf(PROVIDER, roles);
/** A token of the verifier for the service, machine to machine (grant_type=vp_token). */
const verifierToken = (at: FakeVerifier, roles: string[], service = "clusters") =>
  tokenOf(at, service, credential(roles));

const request = (method: string, type: string): ConsumerRequest =>
  method === "GET"
    ? { method, path: "/entities", routePattern: "/entities", params: {}, query: { type }, body: undefined }
    : {
        method,
        path: `/entities/urn:ngsi-ld:${type}:1/attrs`,
        routePattern: "/entities/:entityId/attrs",
        params: { entityId: `urn:ngsi-ld:${type}:1` },
        query: {},
        body: { status: { type: "Property", value: "up" } },
      };
const entityTypeOf = async (id: string) => /^urn:ngsi-ld:([^:]+):/.exec(id)?.[1];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const decide = async (token: string, r: ConsumerRequest, on = shared) =>
  on.judge(
    token,
    r,
    (await ctx.t.records.list(workspaces)).filter((w) => w.id === ids.workspace),
    entityTypeOf,
  );

beforeAll(async () => {
  pap = await startFakePap();
  verifier = await startFakeVerifier();
  // A verifier whose tokens were already expired when issued (its clock a minute behind the token's use).
  lateVerifier = await startFakeVerifier(0, { jwtExpiration: -60 });
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const service = await fdscService(ok, {
    brokerId: broker.id,
    pap,
    provider: PROVIDER,
    clientId: "clusters",
    verifiers: { "Provider verifier": verifier, "Late verifier": lateVerifier },
  });
  ids.workspace = (
    await ok("POST", "/api/workspaces", {
      name: "Clusters",
      dataModelName: "clusters",
      hasService: service,
    })
  ).id;
  path = `/api/workspace/${ids.workspace}`;
  const clusters = await ok("POST", `${path}/types`, { name: "K8SCluster" });
  await ok("POST", `${path}/types`, { name: "K8SNode" });
  ids.role = await roleWithAccess(ok, path, {
    typeId: clusters.id,
    actions: ["GET"],
    roleName: "OPERATOR",
    provider: PROVIDER,
    credentialType: "OperatorCredential",
  });
  // As the console does it: Orrery writes the role's ODRL policy to the PAP and reads it back.
  expect((await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Permit" })).synchronized).toBe(
    true,
  );
  expect(pap.policies.size).toBe(1);
  shared = consumerJudge(ctx.t.records, { cacheMs: CACHE_MS });
});

afterAll(async () => {
  await pap?.close().catch(() => undefined);
  await verifier?.close();
  await lateVerifier?.close();
});

describe(`an FDSC consumer of a workspace in FDSC mode (${driver})`, () => {
  it("is permitted the action and entity type the PAP's policies give its credential's role, and denied others", async () => {
    const token = await verifierToken(verifier, ["OPERATOR"]);
    expect(await decide(token, request("GET", "K8SCluster"))).toMatchObject({
      permit: true,
      reason: "permit",
      holderKind: "fdsc",
      party: "did:web:consumer.example.org",
      roles: ["OPERATOR"],
      workspaceId: ids.workspace,
      asked: ["GET K8SCluster [*] [*]"],
    });
    const patch = await decide(token, request("PATCH", "K8SCluster"));
    expect(patch).toMatchObject({ permit: false, status: 403, reason: "policyDeny" });
    expect(patch!.detail).toContain("No ODRL policy of");
    expect(await decide(token, request("GET", "K8SNode"))).toMatchObject({
      permit: false,
      status: 403,
      reason: "policyDeny",
    });
    // Another role's credential, or one for another service, gets nothing.
    expect(
      await decide(await verifierToken(verifier, ["VIEWER"]), request("GET", "K8SCluster")),
    ).toMatchObject({
      permit: false,
      status: 403,
      reason: "policyDeny",
      roles: ["VIEWER"],
    });
    expect(
      await decide(
        await verifierToken(verifier, ["OPERATOR"], "other-service"),
        request("GET", "K8SCluster"),
      ),
    ).toBeUndefined();
  });

  it("refuses with 401 a token signed by another key than the verifier's, and an expired one", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const iat = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ verifiableCredential: credential(["OPERATOR"]) })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: "forged" })
      .setIssuer(verifier.url)
      .setAudience(["clusters"])
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(privateKey);
    expect(await decide(forged, request("GET", "K8SCluster"))).toMatchObject({
      permit: false,
      status: 401,
      reason: "badSignature",
    });
    expect(
      await decide(await verifierToken(lateVerifier, ["OPERATOR"]), request("GET", "K8SCluster")),
    ).toMatchObject({
      permit: false,
      status: 401,
      reason: "expired",
    });
  });

  it("a role synchronised with Deny (its policy removed from the PAP) stops access once the cache time has passed", async () => {
    const token = await verifierToken(verifier, ["OPERATOR"]);
    const on = consumerJudge(ctx.t.records, { cacheMs: CACHE_MS });
    expect((await decide(token, request("GET", "K8SCluster"), on))!.permit).toBe(true);
    expect((await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Deny" })).synchronized).toBe(
      true,
    );
    expect(pap.policies.size).toBe(0);
    await wait(CACHE_MS + 100);
    expect(await decide(token, request("GET", "K8SCluster"), on)).toMatchObject({
      permit: false,
      status: 403,
      reason: "policyDeny",
    });
    await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Permit" });
  });

  it("the PAP down gives 503 with the reason, never a Permit", async () => {
    const token = await verifierToken(verifier, ["OPERATOR"]);
    const on = consumerJudge(ctx.t.records, { cacheMs: CACHE_MS });
    expect((await decide(token, request("GET", "K8SCluster"), on))!.permit).toBe(true);
    await pap.close();
    await wait(CACHE_MS + 100);
    const verdict = await decide(token, request("GET", "K8SCluster"), on);
    expect(verdict).toMatchObject({ permit: false, status: 503, reason: "registryUnreachable" });
    expect(verdict!.detail).toMatch(/could not be reached/);
  });
});
