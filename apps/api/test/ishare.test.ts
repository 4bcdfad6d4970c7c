import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { startFakeRegistry, type FakeRegistry } from "../../../test/fakes/ishare-registry.ts";
import { partyCredentials, type PartyCredentials } from "../../../test/fakes/pki.ts";
import { clientAssertion } from "../src/trust/ishare.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { client, driver, useTestApp } from "./support/harness.ts";

// The iSHARE client over real HTTP against a fake authorization registry that checks the client
// assertion as Keyrock's does, with certificate chains made for the run (root, intermediate, leaf).

const ctx = useTestApp();
let registry: FakeRegistry;
let registryParty: PartyCredentials;
let orrery: PartyCredentials;
let stranger: PartyCredentials;
const ids: Record<string, string> = {};

const evidence = (extra: Record<string, unknown> = {}) => ({
  delegationEvidence: {
    notBefore: 1_767_225_600,
    notOnOrAfter: 1_798_761_600,
    policyIssuer: registryParty.identifier,
    target: { accessSubject: "Logistics partner" },
    policySets: [
      {
        maxDelegationDepth: 0,
        target: { environment: { licenses: ["ISHARE.0001"] } },
        policies: [
          {
            target: { resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] }, actions: ["GET"] },
            rules: [{ effect: "Permit" }],
          },
        ],
      },
    ],
    ...extra,
  },
});

async function registryRecord(port: string | number, name: string) {
  const res = await ctx.api("POST", "/api/authorization-registries", {
    name,
    identifier: registryParty.identifier,
    certificates: registryParty.certificates,
    scheme: "http",
    host: "127.0.0.1",
    port: Number(port),
    oauth2TokenPath: "/connect/token",
    delegationPath: "/delegation",
    policyPath: "/ar/policy",
    implementationName: "keyrock",
    implementationVersion: "8.4.0",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const grant = (party: PartyCredentials, extra: Record<string, unknown> = {}) =>
  ctx.api("POST", "/api/authorization-registry-grants", {
    name: `Grant ${party.identifier} ${Math.random()}`,
    identifier: party.identifier,
    certificates: party.certificates,
    privateKey: party.privateKey,
    ...extra,
  });

const proxy = (operation: string, body: unknown, grantId = ids.grant!, registryId = ids.registry!) =>
  ctx.api(
    "POST",
    `/api/proxies/authorization-registry/${operation}?authorizationRegistryId=${encodeURIComponent(registryId)}&authorizationRegistryGrantId=${encodeURIComponent(grantId)}`,
    body,
  );

beforeAll(async () => {
  [registryParty, orrery, stranger] = await Promise.all([
    partyCredentials("EU.EORI.NLREGISTRY", "Registry"),
    partyCredentials("EU.EORI.NLORRERY", "Orrery"),
    partyCredentials("EU.EORI.NLSTRANGER", "Stranger"),
  ]);
  registry = await startFakeRegistry({ credentials: registryParty, trustedRoots: [orrery.root] });
  ids.registry = await registryRecord(new URL(registry.url).port, "Registry");
});

afterAll(() => registry?.close());

describe(`iSHARE authorization registry (${driver})`, () => {
  it("keeps only a grant whose private key belongs to its leaf certificate", async () => {
    const mismatch = await grant(orrery, { privateKey: stranger.privateKey });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0]).toMatchObject({ path: "privateKey", code: "registryGrant.keyMismatch" });
    const badKey = await grant(orrery, { privateKey: "bm90IGEga2V5" });
    expect(badKey.body.errors[0]).toMatchObject({ path: "privateKey", code: "registryGrant.badKey" });
    const badCertificate = await grant(orrery, {
      certificates: ["bm90IGEgY2VydGlmaWNhdGU=", ...orrery.certificates.slice(1)],
    });
    expect(badCertificate.body.errors[0]).toMatchObject({
      path: "certificates.0",
      code: "registryGrant.badCertificate",
    });
    const made = await grant(orrery);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    ids.grant = made.body.id;
    // An update that leaves the key out keeps it, and is checked against the certificates sent.
    const { id, ...fields } = (await ctx.api("GET", `/api/authorization-registry-grants/${ids.grant}`)).body;
    const { privateKey: _secret, ...withoutKey } = fields;
    expect((await ctx.api("PUT", `/api/authorization-registry-grants/${id}`, withoutKey)).status).toBe(200);
    const swapped = await ctx.api("PUT", `/api/authorization-registry-grants/${id}`, {
      ...withoutKey,
      certificates: stranger.certificates,
    });
    expect(swapped.body.errors[0].code).toBe("registryGrant.keyMismatch");
    ids.stranger = (await grant(stranger)).body.id;
  });

  it("signs client assertions as iSHARE asks: RS256, typ JWT, the chain in x5c, exp = iat + 30", async () => {
    const jwt = await clientAssertion(orrery, registryParty.identifier);
    const header = decodeProtectedHeader(jwt);
    const payload = decodeJwt(jwt);
    expect(header).toEqual({ alg: "RS256", typ: "JWT", x5c: orrery.certificates });
    expect(payload).toMatchObject({
      iss: orrery.identifier,
      sub: orrery.identifier,
      aud: registryParty.identifier,
    });
    expect(payload.exp).toBe(payload.iat! + 30);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("creates a policy, then answers a delegation request with the evidence, its signature verified", async () => {
    const created = await proxy("create-policy", evidence());
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ status: 200, body: {} });
    expect(registry.policies.get(`${registryParty.identifier} Logistics partner`)).toMatchObject({
      target: { accessSubject: "Logistics partner" },
    });
    const delegation = await proxy("request-delegation", {
      delegationRequest: {
        policyIssuer: registryParty.identifier,
        target: { accessSubject: "Logistics partner" },
        policySets: [
          {
            policies: [
              { target: { resource: { type: "Shelf" }, actions: ["GET"] }, rules: [{ effect: "Permit" }] },
            ],
          },
        ],
      },
    });
    expect(delegation.status, JSON.stringify(delegation.body)).toBe(200);
    expect(delegation.body).toMatchObject({
      iss: registryParty.identifier,
      sub: "Logistics partner",
      verified: true,
      delegationEvidence: {
        policyIssuer: registryParty.identifier,
        target: { accessSubject: "Logistics partner" },
      },
    });
  });

  it("answers the registry's refusals as 502 problems carrying its status and body", async () => {
    const issuer = await proxy("create-policy", evidence({ policyIssuer: "EU.EORI.NLSOMEONE" }));
    expect(issuer.status).toBe(502);
    expect(issuer.body.detail).toContain("Invalid value for policyIssuer: EU.EORI.NLSOMEONE");
    expect(issuer.body).toMatchObject({
      code: "registry.refused",
      registryStatus: 422,
      registryBody: { error: "Invalid value for policyIssuer: EU.EORI.NLSOMEONE" },
    });
    const unknown = await proxy("request-delegation", {
      delegationRequest: {
        policyIssuer: registryParty.identifier,
        target: { accessSubject: "Nobody" },
        policySets: [],
      },
    });
    expect(unknown.body).toMatchObject({ registryStatus: 404, params: { step: "delegation" } });
    // A party whose root the registry does not trust gets no token.
    const untrusted = await proxy("create-policy", evidence(), ids.stranger);
    expect(untrusted.body).toMatchObject({ registryStatus: 401, params: { step: "token" } });
    expect(registry.refusals).toContain("the chain's root is not trusted");
    const gone = await proxy("create-policy", evidence(), ids.grant, await registryRecord(9, "Gone"));
    expect(gone.status).toBe(502);
    expect(gone.body.code).toBe("registry.unreachable");
  });

  it("takes only the iSHARE bodies, and only with permission", async () => {
    expect((await proxy("create-policy", { policy: {} })).status).toBe(400);
    expect((await proxy("request-delegation", evidence())).status).toBe(400);
    expect(
      (await proxy("create-policy", evidence(), "urn:ngsi-ld:AuthorizationRegistryGrant:none")).status,
    ).toBe(404);
    const operator = client(ctx.t, await ctx.t.tokenFor("operator"));
    const refused = await operator(
      "POST",
      `/api/proxies/authorization-registry/create-policy?authorizationRegistryId=${ids.registry}&authorizationRegistryGrantId=${ids.grant}`,
      evidence(),
    );
    expect(refused.status).toBe(403);
    expect(JSON.stringify(ctx.t.logs)).not.toContain(orrery.privateKey.slice(0, 40));
  });
});

describe(`role synchronisation (${driver})`, () => {
  it("sends one policy per access of the role, keeps what was sent, and stores nothing on a refusal", async () => {
    const { api } = ctx;
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const broker = await ok(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    const service = await ok("POST", "/api/services", { name: "Sync service", hasContextBroker: broker.id });
    const workspace = await ok("POST", "/api/workspaces", {
      name: "Sync",
      dataModelName: "sync",
      hasService: service.id,
    });
    const path = `/api/workspace/${workspace.id}`;
    const type = await ok("POST", `${path}/types`, { name: "Shelf" });
    const property = await ok("POST", `${path}/properties`, {
      name: "numberOfItems",
      hasType: type.id,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    });
    const get = await ok("POST", "/api/data-actions", { name: "GET" });
    const patch = await ok("POST", "/api/data-actions", { name: "PATCH" });
    const dataService = await ok("POST", `${path}/data-services`, {
      name: "Shelves",
      hasEntityType: type.id,
      hasProperties: [property.id],
      hasDataActions: [get.id, patch.id],
    });
    const role = await ok("POST", `${path}/roles`, {
      name: "Shelf stocker",
      notBefore: 1_767_225_600,
      notOnOrAfter: 1_798_761_600,
      dataServiceProviderId: "EU.EORI.NLPROVIDER",
      verifiableCredentialType: "StockerCredential",
    });
    const sync = (effect: string) => api("POST", `${path}/roles/${role.id}/synchronize`, { effect });

    expect((await sync("Permit")).body.code).toBe("roles.noRegistry");
    const { id: _id, ...fields } = workspace;
    await ok("PUT", `/api/workspaces/${workspace.id}`, {
      ...fields,
      enableOffers: true,
      hasAuthorizationRegistry: ids.registry,
      hasAuthorizationRegistryGrant: ids.grant,
    });
    expect((await sync("Permit")).body.code).toBe("roles.noAccesses");
    await ok("POST", `${path}/data-service-accesses`, { hasRole: role.id, hasDataService: dataService.id });
    expect((await sync("Maybe")).status).toBe(400);

    const synced = await sync("Permit");
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    expect(synced.body).toMatchObject({ synchronized: true });
    expect(synced.body.synchronizationTime).toBeGreaterThan(1_700_000_000);
    const sent = registry.policies.get(`${registryParty.identifier} Shelf stocker`);
    expect(sent).toMatchObject({
      notBefore: 1_767_225_600,
      notOnOrAfter: 1_798_761_600,
      policySets: [
        {
          target: { environment: { licenses: ["ISHARE.0001"] } },
          policies: [
            {
              target: { resource: { type: "Shelf", identifiers: ["*"] }, actions: ["GET", "PATCH"] },
              rules: [{ effect: "Permit" }],
            },
          ],
        },
      ],
    });
    expect(synced.body.lastDelegationEvidence).toEqual({ delegationEvidence: sent });

    // Deny replaces the policy; a refusal (an untrusted grant) stores nothing on the role.
    expect((await sync("Deny")).status).toBe(200);
    expect(registry.policies.get(`${registryParty.identifier} Shelf stocker`)).toMatchObject({
      policySets: [{ policies: [{ rules: [{ effect: "Deny" }] }] }],
    });
    const before = (await api("GET", `${path}/roles/${role.id}`)).body;
    const current = (await api("GET", `/api/workspaces/${workspace.id}`)).body;
    const { id: _w, ...again } = current;
    await ok("PUT", `/api/workspaces/${workspace.id}`, {
      ...again,
      hasAuthorizationRegistryGrant: ids.stranger,
    });
    const refused = await sync("Permit");
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ registryStatus: 401 });
    expect((await api("GET", `${path}/roles/${role.id}`)).body).toEqual(before);
  });
});
