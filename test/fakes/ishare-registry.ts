import { X509Certificate, createPrivateKey, randomUUID } from "node:crypto";
import { SignJWT, compactVerify, decodeJwt, decodeProtectedHeader, importX509 } from "jose";
import { isForm, listen, readBody, sendJson, type Listening } from "./http.ts";
import type { PartyCredentials } from "./pki.ts";

/**
 * A fake iSHARE authorization registry that checks what a real one checks (iSHARE's JWT rules as
 * Keyrock's AR enforces them, notes/trust-and-peers.md 1.6): the client assertion is RS256 with
 * `typ` JWT, `iss` = `sub` = client_id, `aud` = the registry, `exp` = `iat` + 30, a fresh `jti`,
 * signed by the leaf of an `x5c` chain that verifies up to a trusted root. It issues bearer
 * tokens, stores policies (a delegation evidence) upserted by policy issuer and access subject at
 * /ar/policy (Keyrock's i4Trust flavour: `policyIssuer` must be the registry), and answers
 * delegation requests with a `delegation_token` signed with its own chain.
 */

export interface FakeRegistryOptions {
  /** The registry's own party and keys (signs delegation tokens). */
  credentials: PartyCredentials;
  /** Roots (base64 DER) whose chains are trusted (the satellite's trusted list). */
  trustedRoots: string[];
  tokenPath?: string;
  delegationPath?: string;
  policyPath?: string;
}

export interface FakeRegistry extends Listening {
  /** The stored delegation evidences, by "policyIssuer accessSubject". */
  readonly policies: Map<string, Record<string, unknown>>;
  /** Client assertions refused, with why. */
  readonly refusals: string[];
}

const pem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`;

export async function startFakeRegistry(options: FakeRegistryOptions, port = 0): Promise<FakeRegistry> {
  const { credentials } = options;
  const paths = {
    token: options.tokenPath ?? "/connect/token",
    delegation: options.delegationPath ?? "/delegation",
    policy: options.policyPath ?? "/ar/policy",
  };
  const tokens = new Map<string, { party: string; expiresAt: number }>();
  const usedJti = new Set<string>();
  const policies = new Map<string, Record<string, unknown>>();
  const refusals: string[] = [];
  const signingKey = createPrivateKey(
    `-----BEGIN PRIVATE KEY-----\n${credentials.privateKey.replace(/.{1,64}/g, "$&\n")}-----END PRIVATE KEY-----\n`,
  );

  /** Why a client assertion is not acceptable, or undefined. */
  async function assertionProblem(jwt: string, clientId: string): Promise<string | undefined> {
    let header;
    let payload;
    try {
      header = decodeProtectedHeader(jwt);
      payload = decodeJwt(jwt);
    } catch {
      return "not a JWT";
    }
    if (header.alg !== "RS256") return `alg ${String(header.alg)} is not RS256`;
    if (header.typ !== "JWT") return "typ is not JWT";
    const chain = header.x5c ?? [];
    if (chain.length < 2) return "x5c must hold the chain, leaf first";
    const certificates = chain.map((c) => new X509Certificate(Buffer.from(c, "base64")));
    for (let i = 0; i + 1 < certificates.length; i++)
      if (!certificates[i]!.verify(certificates[i + 1]!.publicKey))
        return `x5c[${i}] is not signed by x5c[${i + 1}]`;
    const root = certificates.at(-1)!;
    if (
      !options.trustedRoots.some(
        (r) => new X509Certificate(Buffer.from(r, "base64")).fingerprint256 === root.fingerprint256,
      )
    )
      return "the chain's root is not trusted";
    try {
      await compactVerify(jwt, await importX509(pem(chain[0]!), "RS256"));
    } catch {
      return "the signature does not hold for the leaf certificate";
    }
    if (payload.iss !== clientId || payload.sub !== clientId) return "iss and sub must be the client_id";
    if (payload.aud !== credentials.identifier) return "aud must be the registry's party id";
    if (typeof payload.iat !== "number" || payload.exp !== payload.iat + 30) return "exp must be iat + 30";
    if (Math.abs(payload.iat - Date.now() / 1000) > 30) return "iat is not now";
    if (!payload.jti || usedJti.has(payload.jti)) return "jti must be fresh";
    usedJti.add(payload.jti);
    return undefined;
  }

  /** The party of a valid bearer token, or undefined (answered 401). */
  function bearerParty(authorization: string | undefined): string | undefined {
    const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    const entry = token ? tokens.get(token) : undefined;
    return entry && entry.expiresAt > Date.now() ? entry.party : undefined;
  }

  const server = await listen(async (req, res, url) => {
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /_fake/health") return sendJson(res, 200, { ok: true });
    if (route === `POST ${paths.token}`) {
      if (!isForm(req))
        return sendJson(res, 400, { error: "invalid_request", error_description: "form body expected" });
      const form = new URLSearchParams(await readBody(req));
      const clientId = form.get("client_id") ?? "";
      if (form.get("grant_type") !== "client_credentials" || form.get("scope") !== "iSHARE")
        return sendJson(res, 400, { error: "invalid_request", error_description: "grant_type or scope" });
      if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        return sendJson(res, 400, { error: "invalid_request", error_description: "client_assertion_type" });
      const refused = await assertionProblem(form.get("client_assertion") ?? "", clientId);
      if (refused) {
        refusals.push(refused);
        return sendJson(res, 401, { error: "invalid_client", error_description: refused });
      }
      const token = randomUUID();
      tokens.set(token, { party: clientId, expiresAt: Date.now() + 3600_000 });
      return sendJson(res, 200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
    }
    const party = bearerParty(req.headers.authorization);
    if (route === `POST ${paths.policy}` || route === `POST ${paths.delegation}`) {
      if (!party) return sendJson(res, 401, { error: "invalid_token" });
      let body: Record<string, any>;
      try {
        body = JSON.parse(await readBody(req)) as Record<string, any>;
      } catch {
        return sendJson(res, 400, { error: "Invalid JSON" });
      }
      if (route === `POST ${paths.policy}`) {
        const evidence = body.delegationEvidence;
        if (!evidence?.target?.accessSubject || !Array.isArray(evidence.policySets))
          return sendJson(res, 400, { error: "Invalid policy document", details: ["delegationEvidence"] });
        if (evidence.policyIssuer !== credentials.identifier)
          return sendJson(res, 422, {
            error: `Invalid value for policyIssuer: ${String(evidence.policyIssuer)}`,
          });
        policies.set(`${evidence.policyIssuer} ${evidence.target.accessSubject}`, evidence);
        return sendJson(res, 200, {});
      }
      const request = body.delegationRequest;
      if (!request?.target?.accessSubject) return sendJson(res, 400, { error: "Invalid delegation request" });
      const evidence = policies.get(`${request.policyIssuer} ${request.target.accessSubject}`);
      if (!evidence) return sendJson(res, 404, { error: "Policy not found" });
      const iat = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ delegationEvidence: evidence })
        .setProtectedHeader({ alg: "RS256", typ: "JWT", x5c: credentials.certificates })
        .setIssuer(credentials.identifier)
        .setSubject(String(request.target.accessSubject))
        .setAudience(party)
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + 30)
        .sign(signingKey);
      return sendJson(res, 200, { delegation_token: token });
    }
    return sendJson(res, 404, { error: "Not found" });
  }, port);
  return { ...server, policies, refusals };
}
