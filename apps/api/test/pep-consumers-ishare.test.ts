import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { SignJWT, importPKCS8 } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaces } from "@orrery/model";
import { startFakeRegistry, type FakeRegistry } from "../../../test/fakes/ishare-registry.ts";
import { startFakeKeyrock, type FakeKeyrock } from "../../../test/fakes/keyrock.ts";
import { partyCredentials, type PartyCredentials } from "../../../test/fakes/pki.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { consumerJudge, type ConsumerRequest } from "../src/pep/consumers.ts";
import { driver, useTestApp } from "./support/harness.ts";

// iSHARE consumers of a workspace with an authorization registry, judged by the PEP's consumer
// module against a registry that answers as Keyrock 8.4's /ar does and a Keyrock identity manager:
// a user's roles (held through an organisation) are the workspace's roles whose policies Orrery's
// own synchronisation wrote; a consumer party's iSHARE JWT is judged by the evidence an operator
// wrote for its EORI with the console's registry tool.

const ctx = useTestApp();
const CACHE_MS = 400;
let registry: FakeRegistry;
let keyrock: FakeKeyrock;
let scheme: { registry: PartyCredentials; consumer: PartyCredentials; stranger: PartyCredentials };
let outsider: PartyCredentials;
const ids: Record<string, string> = {};
let path: string;
const judge = () => consumerJudge(ctx.t.records, { cacheMs: CACHE_MS });
let shared: ReturnType<typeof consumerJudge>;

async function ok(method: string, url: string, body?: unknown) {
  const res = await ctx.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const algorithm = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
type KeyPair = webcrypto.CryptoKeyPair;
const base64 = (data: ArrayBuffer) => Buffer.from(data).toString("base64");

/** Parties whose certificates one scheme CA issued (root and intermediate), as iSHARE's test CA does. */
async function schemeParties<N extends string>(
  names: Record<N, string>,
): Promise<Record<N, PartyCredentials>> {
  const notBefore = new Date(Date.now() - 24 * 3600_000);
  const notAfter = new Date(Date.now() + 365 * 24 * 3600_000);
  const key = () => webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]) as Promise<KeyPair>;
  const [rootKeys, caKeys] = await Promise.all([key(), key()]);
  const ca = (pathLength: number) => [
    new x509.BasicConstraintsExtension(true, pathLength, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
  ];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: "CN=Test scheme root",
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: algorithm,
    extensions: ca(1),
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: "02",
    subject: "CN=Test scheme CA",
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: caKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: algorithm,
    extensions: ca(0),
  });
  const parties = {} as Record<N, PartyCredentials>;
  let serial = 3;
  for (const [name, identifier] of Object.entries(names) as Array<[N, string]>) {
    const keys = await key();
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber: `0${serial++}`,
      subject: `CN=${name},2.5.4.5=${identifier}`,
      issuer: intermediate.subject,
      notBefore,
      notAfter,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: algorithm,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ],
    });
    parties[name] = {
      identifier,
      certificates: [leaf, intermediate, root].map((c) => base64(c.rawData)),
      privateKey: base64(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey)),
      root: base64(root.rawData),
    };
  }
  return parties;
}

/** An iSHARE JWT of a party for the data space's party (RS256, its chain in x5c, exp = iat + 30). */
async function partyToken(
  party: PartyCredentials,
  options: { signer?: PartyCredentials; iat?: number; audience?: string } = {},
) {
  const signer = options.signer ?? party;
  const key = await importPKCS8(
    `-----BEGIN PRIVATE KEY-----\n${signer.privateKey.replace(/.{1,64}/g, "$&\n")}-----END PRIVATE KEY-----\n`,
    "RS256",
  );
  const iat = options.iat ?? Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "RS256", typ: "JWT", x5c: party.certificates })
    .setIssuer(party.identifier)
    .setSubject(party.identifier)
    .setAudience(options.audience ?? scheme.registry.identifier)
    .setJti(crypto.randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + 30)
    .sign(key);
}

/** A Keyrock user's access token (the password grant, as a script of the consumer would get it). */
async function userToken(email: string, password: string): Promise<string> {
  const res = await fetch(`${keyrock.url}/oauth2/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from("consumer-app:consumer-secret").toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "password", username: email, password }),
  });
  const body = (await res.json()) as { access_token: string };
  return body.access_token;
}

const readShelves: ConsumerRequest = {
  method: "GET",
  path: "/entities",
  routePattern: "/entities",
  params: {},
  query: { type: "Shelf" },
  body: undefined,
};
const patchShelf: ConsumerRequest = {
  method: "PATCH",
  path: "/entities/urn:ngsi-ld:Shelf:1/attrs",
  routePattern: "/entities/:entityId/attrs",
  params: { entityId: "urn:ngsi-ld:Shelf:1" },
  query: {},
  body: { numberOfItems: { type: "Property", value: 3 } },
};
const entityTypeOf = async (id: string) => (id.startsWith("urn:ngsi-ld:Shelf:") ? "Shelf" : undefined);
const tenantWorkspaces = async () =>
  (await ctx.t.records.list(workspaces)).filter((w) => w.id === ids.workspace);
const decide = async (token: string, request: ConsumerRequest, on = shared) =>
  on.judge(token, request, await tenantWorkspaces(), entityTypeOf);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  scheme = await schemeParties({
    registry: "EU.EORI.NLKEYROCK",
    consumer: "EU.EORI.NLCONSUMER",
    stranger: "EU.EORI.NLSTRANGER",
  });
  outsider = await partyCredentials("EU.EORI.NLCONSUMER", "Self-made CA");
  registry = await startFakeRegistry({ credentials: scheme.registry, trustedRoots: [scheme.registry.root] });
  keyrock = await startFakeKeyrock({
    clientId: "consumer-app",
    clientSecret: "consumer-secret",
    admin: { email: "admin@test.com", password: "1234" },
    users: [
      { id: "alice", username: "alice", email: "alice@shop.example", password: "alice-pw", roles: [] },
      { id: "bob", username: "bob", email: "bob@shop.example", password: "bob-pw", roles: ["kr-cashier"] },
    ],
    organizations: [{ id: "org-stockers", name: "Stockers", members: ["alice"], roles: ["kr-stocker"] }],
    roles: [
      { id: "kr-stocker", name: "Shelf_stocker", permissions: [] },
      { id: "kr-cashier", name: "Cashier", permissions: [] },
    ],
  });
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const service = await ok("POST", "/api/services", { name: "Shop service", hasContextBroker: broker.id });
  ids.registry = (
    await ok("POST", "/api/authorization-registries", {
      name: "Keyrock AR",
      identifier: scheme.registry.identifier,
      certificates: scheme.registry.certificates,
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(registry.url).port),
      oauth2TokenPath: "/oauth2/token",
      delegationPath: "/ar/delegation",
      policyPath: "/ar/policy",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    })
  ).id;
  // Keyrock lets its own party alone write policies: the workspace signs in as it.
  ids.grant = (
    await ok("POST", "/api/authorization-registry-grants", {
      name: "Keyrock's own party",
      hasAuthorizationRegistry: ids.registry,
      identifier: scheme.registry.identifier,
      certificates: scheme.registry.certificates,
      privateKey: scheme.registry.privateKey,
    })
  ).id;
  const idm = await ok("POST", "/api/identity-managers", {
    ...samplePayload("identity-managers", () => ""),
    name: "Shop Keyrock",
    scheme: "http",
    host: "127.0.0.1",
    port: Number(new URL(keyrock.url).port),
    userPath: "/user",
  });
  const idmGrant = await ok("POST", "/api/identity-manager-grants", {
    name: "Consumer application",
    hasIdentityManager: idm.id,
    grantType: "client_credentials",
    clientId: "consumer-app",
    clientSecret: "consumer-secret",
  });
  ids.workspace = (
    await ok("POST", "/api/workspaces", {
      name: "Shop",
      dataModelName: "shop",
      hasService: service.id,
      enableOffers: true,
      hasAuthorizationRegistry: ids.registry,
      hasAuthorizationRegistryGrant: ids.grant,
      hasIdentityManager: idm.id,
      hasIdentityManagerGrant: idmGrant.id,
    })
  ).id;
  path = `/api/workspace/${ids.workspace}`;
  const type = await ok("POST", `${path}/types`, { name: "Shelf" });
  const get = await ok("POST", "/api/data-actions", { name: "GET" });
  await ok("POST", "/api/data-actions", { name: "PATCH" });
  const shelves = await ok("POST", `${path}/data-services`, {
    name: "Shelves (read)",
    hasEntityType: type.id,
    hasDataActions: [get.id],
  });
  ids.role = (
    await ok("POST", `${path}/roles`, {
      name: "Shelf stocker",
      roleName: "Shelf_stocker",
      notBefore: Math.floor(Date.now() / 1000) - 3600,
      notOnOrAfter: Math.floor(Date.now() / 1000) + 86_400,
      dataServiceProviderId: scheme.registry.identifier,
      verifiableCredentialType: "StockerCredential",
    })
  ).id;
  await ok("POST", `${path}/data-service-accesses`, { hasRole: ids.role, hasDataService: shelves.id });
  // As the console does it: the role synchronised with Permit (written, then proven by the registry).
  const synced = await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Permit" });
  expect(synced.synchronized).toBe(true);
  // The consumer party's evidence, written with the console's authorization registry tool.
  const now = Math.floor(Date.now() / 1000);
  await ok(
    "POST",
    `/api/proxies/authorization-registry/create-policy?authorizationRegistryId=${ids.registry}&authorizationRegistryGrantId=${ids.grant}`,
    {
      delegationEvidence: {
        notBefore: now - 60,
        notOnOrAfter: now + 86_400,
        policyIssuer: scheme.registry.identifier,
        target: { accessSubject: scheme.consumer.identifier },
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
      },
    },
  );
  shared = judge();
});

afterAll(async () => {
  await registry?.close().catch(() => undefined);
  await keyrock?.close();
});

describe(`an iSHARE consumer of a workspace with an authorization registry (${driver})`, () => {
  it("a Keyrock user holding the role through an organisation reads what the role's synchronised policy permits, and may not write", async () => {
    const token = await userToken("alice@shop.example", "alice-pw");
    const read = await decide(token, readShelves);
    expect(read).toMatchObject({
      permit: true,
      reason: "permit",
      holder: "alice@shop.example",
      holderKind: "ishare-user",
      roles: ["Shelf_stocker"],
      workspaceId: ids.workspace,
      asked: ["GET Shelf [*] [*]"],
    });
    const write = await decide(token, patchShelf);
    expect(write).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
      asked: ["PATCH Shelf [urn:ngsi-ld:Shelf:1] [numberOfItems]"],
    });
    expect(write!.detail).toContain("does not permit PATCH Shelf");
  });

  it("a user with none of the workspace's roles is refused 403, and a token no identity manager knows is no consumer's", async () => {
    const bob = await decide(await userToken("bob@shop.example", "bob-pw"), readShelves);
    expect(bob).toMatchObject({
      permit: false,
      status: 403,
      reason: "noRole",
      holder: "bob@shop.example",
      roles: [],
    });
    expect(bob!.detail).toContain("Cashier");
    expect(await decide("not-a-token-anyone-issued", readShelves)).toBeUndefined();
  });

  it("a role synchronised with Deny stops access once the cache time has passed", async () => {
    const token = await userToken("alice@shop.example", "alice-pw");
    const on = judge();
    expect((await decide(token, readShelves, on))!.permit).toBe(true);
    const denied = await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Deny" });
    expect(denied.synchronized).toBe(true);
    // Still the registry's last answer for this holder, role and target until the cache time ends...
    expect((await decide(token, readShelves, on))!.permit).toBe(true);
    await wait(CACHE_MS + 100);
    // ... then the registry's Deny.
    expect(await decide(token, readShelves, on)).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
      roles: ["Shelf_stocker"],
    });
    await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Permit" });
  });

  it("a consumer party's iSHARE JWT, its chain from the scheme's root, is allowed what the registry's evidence for its EORI permits", async () => {
    const token = await partyToken(scheme.consumer);
    expect(await decide(token, readShelves)).toMatchObject({
      permit: true,
      holder: "EU.EORI.NLCONSUMER",
      holderKind: "ishare-party",
      party: "EU.EORI.NLCONSUMER",
      asked: ["GET Shelf [*] [*]"],
    });
    expect(await decide(token, patchShelf)).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
    });
    // A party the registry holds nothing for (Keyrock's empty 404) is denied, not failed.
    expect(await decide(await partyToken(scheme.stranger), readShelves)).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
    });
  });

  it("refuses with 401 a party JWT whose chain is untrusted, that is expired, or that another key signed", async () => {
    expect(await decide(await partyToken(outsider), readShelves)).toMatchObject({
      permit: false,
      status: 401,
      reason: "untrustedChain",
    });
    const expired = await partyToken(scheme.consumer, { iat: Math.floor(Date.now() / 1000) - 120 });
    expect(await decide(expired, readShelves)).toMatchObject({
      permit: false,
      status: 401,
      reason: "expired",
    });
    const forged = await partyToken(scheme.consumer, { signer: scheme.stranger });
    expect(await decide(forged, readShelves)).toMatchObject({
      permit: false,
      status: 401,
      reason: "badSignature",
    });
    // Addressed to another data space's party: not a consumer of this one.
    expect(
      await decide(await partyToken(scheme.consumer, { audience: "EU.EORI.NLELSEWHERE" }), readShelves),
    ).toBeUndefined();
  });

  it("the registry down gives 503 with the reason, never a Permit", async () => {
    const token = await userToken("alice@shop.example", "alice-pw");
    const on = judge();
    expect((await decide(token, readShelves, on))!.permit).toBe(true);
    await registry.close();
    await wait(CACHE_MS + 100);
    const verdict = await decide(token, readShelves, on);
    expect(verdict).toMatchObject({ permit: false, status: 503, reason: "registryUnreachable" });
    expect(verdict!.detail).toMatch(/Keyrock AR could not be reached \(ECONNREFUSED\)/);
    expect(await decide(await partyToken(scheme.consumer), readShelves, on)).toMatchObject({
      permit: false,
      status: 503,
      reason: "registryUnreachable",
    });
  });
});
