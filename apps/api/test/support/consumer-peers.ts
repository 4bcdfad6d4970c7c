import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { SignJWT, importPKCS8 } from "jose";
import { startFakeKeyrock, type FakeKeyrock } from "../../../../test/fakes/keyrock.ts";
import type { FakeRegistry } from "../../../../test/fakes/ishare-registry.ts";
import type { FakeVerifier } from "../../../../test/fakes/vc-verifier.ts";
import type { FakePap } from "../../../../test/fakes/odrl-pap.ts";
// pki.ts gives @peculiar/x509 its crypto provider.
import "../../../../test/fakes/pki.ts";
import type { PartyCredentials } from "../../../../test/fakes/pki.ts";
import { samplePayload } from "../../../../test/samples/platform.ts";

/**
 * The peers of a data-space consumer, as the PEP's consumer tests set them up: iSHARE parties under
 * one scheme CA, a Keyrock whose users hold a workspace's role directly or through an organisation,
 * the records that make a workspace judge by its registry (iSHARE) or by its PAP (FDSC), and the
 * tokens a consumer would get (Keyrock's password grant, an iSHARE JWT, a VC verifier's vp_token).
 */

/** Calls an Orrery route and gives its body, or throws with the status and body. */
export type Ok = (method: string, url: string, body?: unknown) => Promise<any>;

const algorithm = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
type KeyPair = webcrypto.CryptoKeyPair;
const base64 = (data: ArrayBuffer) => Buffer.from(data).toString("base64");

/** Parties whose certificates one scheme CA issued (root and intermediate), as iSHARE's test CA does. */
export async function schemeParties<N extends string>(
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

/** An iSHARE JWT of a party for the data space's party `audience` (RS256, its chain in x5c, exp = iat + 30). */
export async function partyToken(
  party: PartyCredentials,
  audience: string,
  options: { signer?: PartyCredentials; iat?: number } = {},
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
    .setAudience(audience)
    .setJti(crypto.randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + 30)
    .sign(key);
}

/** The consumer application registered in the fake Keyrock (the workspace's identity manager grant). */
export const consumerApp = { clientId: "consumer-app", clientSecret: "consumer-secret" };

/**
 * A Keyrock where alice holds `roleName` through the organisation Stockers and bob holds only
 * Cashier (no role of the workspace).
 */
export function startConsumerKeyrock(roleName = "Shelf_stocker"): Promise<FakeKeyrock> {
  return startFakeKeyrock({
    ...consumerApp,
    admin: { email: "admin@test.com", password: "1234" },
    users: [
      { id: "alice", username: "alice", email: "alice@shop.example", password: "alice-pw", roles: [] },
      { id: "bob", username: "bob", email: "bob@shop.example", password: "bob-pw", roles: ["kr-cashier"] },
    ],
    organizations: [{ id: "org-stockers", name: "Stockers", members: ["alice"], roles: ["kr-stocker"] }],
    roles: [
      { id: "kr-stocker", name: roleName, permissions: [] },
      { id: "kr-cashier", name: "Cashier", permissions: [] },
    ],
  });
}

/** A Keyrock user's access token (the password grant, as a script of the consumer would get it). */
export async function userToken(keyrock: FakeKeyrock, email: string, password: string): Promise<string> {
  const res = await fetch(`${keyrock.url}/oauth2/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${consumerApp.clientId}:${consumerApp.clientSecret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "password", username: email, password }),
  });
  const body = (await res.json()) as { access_token: string };
  return body.access_token;
}

/**
 * The records that make a workspace judge consumers by its authorization registry: the registry
 * (Keyrock's /ar), a grant signing in as the registry's own party (Keyrock lets that party alone
 * write policies), the identity manager and the consumer application's grant. Spread the result
 * into the workspace.
 */
export async function ishareRecords(
  ok: Ok,
  registry: FakeRegistry,
  party: PartyCredentials,
  keyrock: FakeKeyrock,
): Promise<{
  hasAuthorizationRegistry: string;
  hasAuthorizationRegistryGrant: string;
  hasIdentityManager: string;
  hasIdentityManagerGrant: string;
}> {
  const registryId = (
    await ok("POST", "/api/authorization-registries", {
      name: "Keyrock AR",
      identifier: party.identifier,
      certificates: party.certificates,
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
  const grantId = (
    await ok("POST", "/api/authorization-registry-grants", {
      name: "Keyrock's own party",
      hasAuthorizationRegistry: registryId,
      identifier: party.identifier,
      certificates: party.certificates,
      privateKey: party.privateKey,
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
    ...consumerApp,
  });
  return {
    hasAuthorizationRegistry: registryId,
    hasAuthorizationRegistryGrant: grantId,
    hasIdentityManager: idm.id,
    hasIdentityManagerGrant: idmGrant.id,
  };
}

/** A consumer party's evidence (Permit `actions` on `type`), written with the console's registry tool. */
export async function partyEvidence(
  ok: Ok,
  records: { hasAuthorizationRegistry: string; hasAuthorizationRegistryGrant: string },
  issuer: string,
  party: string,
  type: string,
  actions = ["GET"],
) {
  const now = Math.floor(Date.now() / 1000);
  const query = new URLSearchParams({
    authorizationRegistryId: records.hasAuthorizationRegistry,
    authorizationRegistryGrantId: records.hasAuthorizationRegistryGrant,
  });
  await ok("POST", `/api/proxies/authorization-registry/create-policy?${query}`, {
    delegationEvidence: {
      notBefore: now - 60,
      notOnOrAfter: now + 86_400,
      policyIssuer: issuer,
      target: { accessSubject: party },
      policySets: [
        {
          maxDelegationDepth: 0,
          target: { environment: { licenses: ["ISHARE.0001"] } },
          policies: [
            {
              target: { resource: { type, identifiers: ["*"], attributes: ["*"] }, actions },
              rules: [{ effect: "Permit" }],
            },
          ],
        },
      ],
    },
  });
}

/** A role of a workspace allowed `actions` on an entity type through a data service. */
export async function roleWithAccess(
  ok: Ok,
  path: string,
  options: {
    typeId: string;
    actions: string[];
    roleName: string;
    provider: string;
    credentialType?: string;
  },
): Promise<string> {
  const actionIds = [];
  const existing = (await ok("GET", "/api/data-actions")) as Array<{ id: string; name: string }>;
  for (const name of options.actions)
    actionIds.push(
      existing.find((a) => a.name === name)?.id ?? (await ok("POST", "/api/data-actions", { name })).id,
    );
  const dataService = await ok("POST", `${path}/data-services`, {
    name: `${options.roleName} data`,
    hasEntityType: options.typeId,
    hasDataActions: actionIds,
  });
  const now = Math.floor(Date.now() / 1000);
  const role = await ok("POST", `${path}/roles`, {
    name: options.roleName.replace(/_/g, " "),
    roleName: options.roleName,
    notBefore: now - 3600,
    notOnOrAfter: now + 86_400,
    dataServiceProviderId: options.provider,
    verifiableCredentialType: options.credentialType ?? "StockerCredential",
  });
  await ok("POST", `${path}/data-service-accesses`, { hasRole: role.id, hasDataService: dataService.id });
  return role.id;
}

/**
 * A service in FDSC mode on a context broker: its PAP (the fake, for the organisation `provider`;
 * `papFields` change its record, a name or a path), credentials config service and trusted issuers
 * list (samples: not called by the PEP), and the verifiers registered in Orrery.
 */
export async function fdscService(
  ok: Ok,
  options: {
    brokerId: string;
    pap: Pick<FakePap, "url">;
    papFields?: Record<string, unknown>;
    provider?: string;
    clientId: string;
    verifiers?: Record<string, FakeVerifier>;
  },
): Promise<string> {
  const papRecord = await ok("POST", "/api/policy-administration-points", {
    ...samplePayload("policy-administration-points", () => ""),
    host: "127.0.0.1",
    port: Number(new URL(options.pap.url).port),
    ...(options.provider ? { organizationDid: options.provider } : {}),
    ...options.papFields,
  });
  const ccs = await ok(
    "POST",
    "/api/credentials-config-services",
    samplePayload("credentials-config-services", () => ""),
  );
  const til = await ok(
    "POST",
    "/api/trusted-issuers-lists",
    samplePayload("trusted-issuers-lists", () => ""),
  );
  for (const [name, at] of Object.entries(options.verifiers ?? {}))
    await ok("POST", "/api/vc-verifiers", {
      ...samplePayload("vc-verifiers", () => ""),
      name,
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(at.url).port),
    });
  return (
    await ok("POST", "/api/services", {
      name: `Service ${options.clientId}`,
      hasContextBroker: options.brokerId,
      authorizationRequired: true,
      authorizationMode: "fdsc",
      hasPolicyAdministrationPoint: papRecord.id,
      hasCredentialsConfigService: ccs.id,
      hasTrustedIssuersList: til.id,
      clientId: options.clientId,
      papServiceId: options.clientId,
    })
  ).id;
}

/** A credential whose subject holds `roles` for the organisation `provider`. */
export const credential = (provider: string, roles: string[], type = "OperatorCredential") => ({
  "@context": ["https://www.w3.org/2018/credentials/v1"],
  type: ["VerifiableCredential", type],
  issuer: "did:web:consumer.example.org",
  credentialSubject: { id: "did:key:operator-1", roles: [{ target: provider, names: roles }] },
});

/** A token of the verifier for a service, machine to machine (grant_type=vp_token). */
export async function verifierToken(
  at: FakeVerifier,
  service: string,
  vc: ReturnType<typeof credential>,
): Promise<string> {
  const vp = { type: ["VerifiablePresentation"], verifiableCredential: [vc] };
  const res = await fetch(`${at.url}/services/${service}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "vp_token",
      vp_token: Buffer.from(JSON.stringify(vp)).toString("base64url"),
      scope: "operator",
    }),
  });
  if (res.status !== 200) throw new Error(`the verifier answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
