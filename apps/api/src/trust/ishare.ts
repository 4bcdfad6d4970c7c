import { X509Certificate, createPrivateKey, createPublicKey, randomUUID } from "node:crypto";
import { SignJWT, compactVerify, decodeJwt, decodeProtectedHeader, importX509 } from "jose";
import { PeerUnreachable, callPeer } from "../peers.ts";

/** A registered authorization registry and the grant Orrery signs in with (their records' data). */
export interface Registry {
  name: string;
  identifier: string;
  scheme: string;
  host: string;
  port: number;
  path?: string;
  oauth2TokenPath: string;
  delegationPath: string;
  policyPath: string;
  /** keyrock, or another iSHARE registry: decides what a policy may carry. */
  implementationName?: string;
}
export interface RegistryGrant {
  identifier: string;
  certificates: string[];
  privateKey: string;
}

/** A registry that refused or could not be reached: its status (none when unreachable) and body. */
export class RegistryFailure extends Error {
  constructor(
    readonly step: "token" | "delegation" | "policy",
    readonly status: number | undefined,
    readonly body: unknown,
  ) {
    super(`${step}: ${status ?? "unreachable"}`);
  }
}

/** PEM armour around a base64 body, 64 characters a line. */
const pem = (body: string, label: string) =>
  `-----BEGIN ${label}-----\n${body.replace(/\s+/g, "").replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;

export const certificateOf = (base64: string) => new X509Certificate(Buffer.from(base64, "base64"));

/** Why a grant's key and certificates cannot sign: unreadable key or certificate, or a key of another certificate. */
export function grantProblem(
  grant: Partial<RegistryGrant>,
): { field: string; fault: "key" | "certificate" | "mismatch" } | undefined {
  let key;
  try {
    key = createPrivateKey(pem(String(grant.privateKey ?? ""), "PRIVATE KEY"));
  } catch {
    return { field: "privateKey", fault: "key" };
  }
  const certificates = grant.certificates ?? [];
  for (const [i, body] of certificates.entries()) {
    try {
      certificateOf(body);
    } catch {
      return { field: `certificates.${i}`, fault: "certificate" };
    }
  }
  const der = (k: ReturnType<typeof createPublicKey>) => k.export({ format: "der", type: "spki" });
  const leaf = certificates[0] ? certificateOf(certificates[0]).publicKey : undefined;
  if (leaf && !der(createPublicKey(key)).equals(der(leaf))) return { field: "privateKey", fault: "mismatch" };
  return undefined;
}

/** The iSHARE client assertion: RS256, typ JWT, the chain in x5c, iss = sub = the grant's party, exp = iat + 30. */
export async function clientAssertion(grant: RegistryGrant, audience: string): Promise<string> {
  const key = createPrivateKey(pem(grant.privateKey, "PRIVATE KEY"));
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "RS256", typ: "JWT", x5c: grant.certificates })
    .setIssuer(grant.identifier)
    .setSubject(grant.identifier)
    .setAudience(audience)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + 30)
    .sign(key);
}

const base = (r: Registry) => `${r.scheme}://${r.host}:${r.port}${r.path ?? ""}`.replace(/\/$/, "");

async function send(step: RegistryFailure["step"], url: string, init: RequestInit) {
  const answer = await callPeer(url, init, "authorization-registries").catch((err: unknown) => {
    throw err instanceof PeerUnreachable ? new RegistryFailure(step, undefined, err.cause) : err;
  });
  if (!answer.ok) throw new RegistryFailure(step, answer.status, answer.body);
  return { status: answer.status, body: answer.body };
}

/** An access token from the registry (client credentials with the client assertion). */
export async function registryToken(registry: Registry, grant: RegistryGrant): Promise<string> {
  const { body } = await send("token", `${base(registry)}${registry.oauth2TokenPath}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      scope: "iSHARE",
      client_id: grant.identifier,
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: await clientAssertion(grant, registry.identifier),
    }),
  });
  const token = (body as { access_token?: unknown } | undefined)?.access_token;
  if (typeof token !== "string") throw new RegistryFailure("token", 200, body);
  return token;
}

const bearer = (token: string) => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json",
});

/**
 * A delegation request: the evidence from the registry's delegation_token, whose signature is
 * checked against the leaf of its x5c (`verified` says whether it could be).
 */
export async function requestDelegation(
  registry: Registry,
  grant: RegistryGrant,
  request: unknown,
): Promise<Record<string, unknown> & { verified: boolean }> {
  const token = await registryToken(registry, grant);
  const { body } = await send("delegation", `${base(registry)}${registry.delegationPath}`, {
    method: "POST",
    headers: bearer(token),
    body: JSON.stringify(request),
  });
  const answer = body as { delegation_token?: unknown; delegationToken?: unknown } | undefined;
  const jwt = answer?.delegation_token ?? answer?.delegationToken;
  if (typeof jwt !== "string") throw new RegistryFailure("delegation", 200, body);
  let payload: Record<string, unknown>;
  try {
    payload = decodeJwt(jwt);
  } catch {
    throw new RegistryFailure("delegation", 200, body);
  }
  return { ...payload, verified: await verifiedByX5c(jwt) };
}

/** Whether a JWT's signature holds for the leaf certificate of its own x5c chain. */
async function verifiedByX5c(jwt: string): Promise<boolean> {
  try {
    const header = decodeProtectedHeader(jwt);
    const leaf = header.x5c?.[0];
    if (!leaf || !header.alg) return false;
    await compactVerify(jwt, await importX509(pem(leaf, "CERTIFICATE"), header.alg));
    return true;
  } catch {
    return false;
  }
}

/** A policy (a delegation evidence) sent to the registry's policy path; the registry's answer as it gave it. */
export async function createPolicy(registry: Registry, grant: RegistryGrant, policy: unknown) {
  const token = await registryToken(registry, grant);
  return send("policy", `${base(registry)}${registry.policyPath}`, {
    method: "POST",
    headers: bearer(token),
    body: JSON.stringify(policy),
  });
}
