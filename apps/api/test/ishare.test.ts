import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { startFakeRegistry, type FakeRegistry } from "../../../test/fakes/ishare-registry.ts";
import { partyCredentials, type PartyCredentials } from "../../../test/fakes/pki.ts";
import { clientAssertion } from "../src/trust/ishare.ts";
import { client, driver, useTestApp } from "./support/harness.ts";

// The iSHARE client over real HTTP against a fake authorization registry that answers as Keyrock
// 8.4's does (who may write, its schemas, its HTML token refusals, its empty 404), with certificate
// chains made for the run (root, intermediate, leaf).

const ctx = useTestApp();
let registry: FakeRegistry;
let registryParty: PartyCredentials;
let orrery: PartyCredentials;
let stranger: PartyCredentials;
const ids: Record<string, string> = {};

const evidence = (extra: Record<string, unknown> = {}, accessSubject = "EU.EORI.NLORRERY") => ({
  delegationEvidence: {
    notBefore: 1_767_225_600,
    notOnOrAfter: 1_798_761_600,
    policyIssuer: registryParty.identifier,
    target: { accessSubject },
    policySets: [
      {
        maxDelegationDepth: 0,
        target: { environment: { licenses: ["ISHARE.0001"] } },
        policies: [
          {
            target: {
              resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] },
              actions: ["GET"],
            },
            rules: [{ effect: "Permit" }],
          },
        ],
      },
    ],
    ...extra,
  },
});

const delegationRequest = (accessSubject: string, actions = ["GET"]) => ({
  delegationRequest: {
    policyIssuer: registryParty.identifier,
    target: { accessSubject },
    policySets: [
      {
        policies: [
          {
            target: { resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] }, actions },
            rules: [{ effect: "Permit" }],
          },
        ],
      },
    ],
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
    oauth2TokenPath: "/oauth2/token",
    delegationPath: "/ar/delegation",
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
    hasAuthorizationRegistry: ids.registry,
    identifier: party.identifier,
    certificates: party.certificates,
    privateKey: party.privateKey,
    ...extra,
  });

const proxy = (operation: string, body: unknown, grantId = ids.owner!, registryId = ids.registry!) =>
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
  registry = await startFakeRegistry({
    credentials: registryParty,
    trustedRoots: [registryParty.root, orrery.root],
  });
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
    ids.owner = (await grant(registryParty)).body.id;
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

  it("creates a policy with the registry's own party, then answers a delegation request with the evidence filtered by it", async () => {
    const created = await proxy("create-policy", evidence());
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ status: 200, body: {} });
    expect(registry.policies.get(`${registryParty.identifier} EU.EORI.NLORRERY`)).toMatchObject({
      target: { accessSubject: "EU.EORI.NLORRERY" },
    });
    // Another party may ask (Keyrock 8.4 lets any party read without previous steps).
    const delegation = await proxy(
      "request-delegation",
      delegationRequest("EU.EORI.NLORRERY", ["GET"]),
      ids.grant,
    );
    expect(delegation.status, JSON.stringify(delegation.body)).toBe(200);
    expect(delegation.body).toMatchObject({
      iss: registryParty.identifier,
      sub: "EU.EORI.NLORRERY",
      verified: true,
      delegationEvidence: {
        policyIssuer: registryParty.identifier,
        target: { accessSubject: "EU.EORI.NLORRERY" },
        policySets: [{ policies: [{ rules: [{ effect: "Permit" }] }] }],
      },
    });
    // Keyrock's aud is its internal id of the asking party, not its party id.
    expect(delegation.body.aud).toBe(registry.userIdOf(orrery.identifier));
    expect(delegation.body.aud).not.toBe(orrery.identifier);
    const patch = await proxy("request-delegation", delegationRequest("EU.EORI.NLORRERY", ["PATCH"]));
    expect(patch.body.delegationEvidence.policySets[0].policies).toEqual([
      {
        target: { resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] }, actions: ["PATCH"] },
        rules: [{ effect: "Deny" }],
      },
    ]);
  });

  it("refuses what Keyrock refuses: whitespace in an access subject, unknown members, another policy issuer", async () => {
    const spaced = await proxy("create-policy", evidence({}, "Logistics partner"));
    expect(spaced.status).toBe(502);
    expect(spaced.body).toMatchObject({
      code: "registry.refused",
      registryStatus: 400,
      registryBody: {
        error: "Invalid policy document",
        details: [{ dataPath: ".delegationEvidence.target.accessSubject", keyword: "pattern" }],
      },
    });
    expect(spaced.body.detail).toContain("Invalid policy document");
    const extra = await proxy("create-policy", evidence({ comment: "mine" }));
    expect(extra.body).toMatchObject({
      registryStatus: 400,
      registryBody: {
        details: [{ keyword: "additionalProperties", params: { additionalProperty: "comment" } }],
      },
    });
    const issuer = await proxy("create-policy", evidence({ policyIssuer: "EU.EORI.NLSOMEONE" }));
    expect(issuer.status).toBe(502);
    // Each refusal is in the audit trail as a failed create, with the registry's status.
    const trail = await ctx.api("GET", `/api/audit?kind=delegation-policies&record=${ids.registry}`);
    expect(trail.body.items.slice(0, 3).map((e: Record<string, unknown>) => [e.outcome, e.title])).toEqual([
      ["failure", "EU.EORI.NLORRERY"],
      ["failure", "EU.EORI.NLORRERY"],
      ["failure", "Logistics partner"],
    ]);
    expect(issuer.body.detail).toContain("Invalid value for policyIssuer: EU.EORI.NLSOMEONE");
    expect(issuer.body).toMatchObject({
      code: "registry.refused",
      registryStatus: 422,
      registryBody: { error: "Invalid value for policyIssuer: EU.EORI.NLSOMEONE" },
    });
  });

  it("says which party may write policies when the registry answers 403", async () => {
    const refused = await proxy("create-policy", evidence(), ids.grant);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({
      code: "registry.policyForbidden",
      registryStatus: 403,
      registryBody: { error: "You are not authorized to update policies" },
    });
    expect(refused.body.detail).toBe(
      `The authorization registry Registry lets only its own party ${registryParty.identifier} (or its administrator) write policies, and the grant signs in as ${orrery.identifier}: choose a grant of ${registryParty.identifier}, with its key and certificate chain.`,
    );
  });

  it("explains an empty 404 as a subject the registry has no policy for, and an HTML refusal by its reason", async () => {
    const unknown = await proxy("request-delegation", delegationRequest("Nobody"));
    expect(unknown.body).toMatchObject({
      code: "registry.noPolicy",
      registryStatus: 404,
      registryBody: null,
      detail: "The authorization registry Registry knows no policy for the access subject Nobody (404).",
    });
    // A party the satellite does not list: Keyrock's OAuth error page, 400 text/html.
    const untrusted = await proxy("create-policy", evidence(), ids.stranger);
    expect(untrusted.body).toMatchObject({
      code: "registry.refused",
      registryStatus: 400,
      params: { step: "token" },
      registryBody: "client is not a trusted participant",
    });
    expect(untrusted.body.detail).toBe(
      "The authorization registry Registry refused the token request (400): client is not a trusted participant",
    );
    // A party id that is not its certificate's serialNumber: "invalid client credentials".
    const impostor = (await grant(orrery, { identifier: "EU.EORI.NLIMPOSTOR" })).body.id;
    const refused = await proxy("create-policy", evidence(), impostor);
    expect(refused.body.detail).toMatch(/\(400\): invalid_request: invalid client credentials$/);
    expect(JSON.stringify(refused.body)).not.toContain("<");
    expect(registry.refusals).toContain("iss must be the leaf certificate's serialNumber");
    const goneRegistry = await registryRecord(9, "Gone");
    const goneGrant = (await grant(registryParty, { hasAuthorizationRegistry: goneRegistry })).body.id;
    const gone = await proxy("create-policy", evidence(), goneGrant, goneRegistry);
    expect(gone.status).toBe(502);
    expect(gone.body.code).toBe("registry.unreachable");
  });

  it("refuses previous_steps outside the delegation request with a reason, before the registry, and passes it inside", async () => {
    const outside = await proxy("request-delegation", {
      ...delegationRequest("EU.EORI.NLORRERY"),
      previous_steps: ["eyJ.*+?(|\\"],
    });
    expect(outside.status).toBe(400);
    expect(outside.body.errors).toEqual([
      expect.objectContaining({ path: "previous_steps", code: "registry.previousStepsOutside" }),
    ]);
    expect(outside.body.detail).toContain("belongs inside delegationRequest");
    const french = await ctx.api(
      "POST",
      `/api/proxies/authorization-registry/request-delegation?authorizationRegistryId=${ids.registry}&authorizationRegistryGrantId=${ids.owner}`,
      { ...delegationRequest("EU.EORI.NLORRERY"), previous_steps: [] },
      { "accept-language": "fr" },
    );
    expect(french.body.detail).toContain("va dans delegationRequest");
    // Inside the request, as iSHARE has it, the registry takes it.
    const request = delegationRequest("EU.EORI.NLORRERY");
    const inside = await proxy("request-delegation", {
      delegationRequest: { ...request.delegationRequest, previous_steps: [] },
    });
    expect(inside.status, JSON.stringify(inside.body)).toBe(200);
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
      `/api/proxies/authorization-registry/create-policy?authorizationRegistryId=${ids.registry}&authorizationRegistryGrantId=${ids.owner}`,
      evidence(),
    );
    expect(refused.status).toBe(403);
    expect(JSON.stringify(ctx.t.logs)).not.toContain(orrery.privateKey.slice(0, 40));
    expect(JSON.stringify(ctx.t.logs)).not.toContain(registryParty.privateKey.slice(0, 40));
  });
});
