import { X509Certificate } from "node:crypto";
import { compactVerify, decodeJwt, decodeProtectedHeader, importX509, type JWTPayload } from "jose";
import { certificateOf } from "../trust/ishare.ts";
import { pem } from "./ishare-setting.ts";

/** Why an iSHARE JWT is refused, as a verdict reason and sentence; or its party and claims. */
export type PartyCheck =
  | { ok: true; party: string; payload: JWTPayload }
  | { ok: false; reason: "expired" | "badSignature" | "untrustedChain"; detail: string };

/** An iSHARE JWT (RS256, x5c): signed by its leaf, the chain unbroken and valid, its root trusted, alive. */
export async function checkPartyToken(
  token: string,
  x5c: string[],
  trustedRoots: Set<string>,
): Promise<PartyCheck> {
  let chain: X509Certificate[];
  try {
    chain = x5c.map(certificateOf);
    await compactVerify(token, await importX509(pem(x5c[0]!), "RS256"));
  } catch {
    return {
      ok: false,
      reason: "badSignature",
      detail: "The token's signature does not hold for the first certificate of its x5c chain.",
    };
  }
  const now = new Date();
  for (const [i, certificate] of chain.entries()) {
    const issuer = chain[i + 1];
    if (new Date(certificate.validFrom) > now || new Date(certificate.validTo) <= now)
      return {
        ok: false,
        reason: "untrustedChain",
        detail: `The certificate ${certificate.subject.replace(/\n/g, ", ")} of the token's chain is not valid now.`,
      };
    if (issuer && (!certificate.checkIssued(issuer) || !certificate.verify(issuer.publicKey)))
      return {
        ok: false,
        reason: "untrustedChain",
        detail: "The token's x5c chain is broken: a certificate is not signed by the next one.",
      };
  }
  if (!trustedRoots.has(chain.at(-1)!.fingerprint256))
    return {
      ok: false,
      reason: "untrustedChain",
      detail: "The token's certificate chain does not end at a root this data space trusts.",
    };
  const payload = decodeJwt(token);
  const serialNumber = /^serialNumber=(.*)$/m.exec(chain[0]!.subject)?.[1];
  if (typeof payload.iss !== "string" || payload.iss !== serialNumber)
    return {
      ok: false,
      reason: "badSignature",
      detail: `The token's issuer is not the party its certificate names (${serialNumber ?? "none"}).`,
    };
  const seconds = Date.now() / 1000;
  if (typeof payload.exp !== "number" || payload.exp <= seconds)
    return { ok: false, reason: "expired", detail: "The token has expired." };
  if (typeof payload.iat !== "number" || payload.iat > seconds + 60)
    return { ok: false, reason: "expired", detail: "The token was issued in the future." };
  return { ok: true, party: typeof payload.sub === "string" ? payload.sub : payload.iss, payload };
}

/** Whether a token is an iSHARE JWT: its protected header carries an x5c chain. */
export function x5cOf(token: string): string[] | undefined {
  try {
    const x5c = decodeProtectedHeader(token).x5c;
    return Array.isArray(x5c) && x5c.length && x5c.every((c) => typeof c === "string") ? x5c : undefined;
  } catch {
    return undefined;
  }
}
