import { isIP } from "node:net";
import { checkServerIdentity, connect, type DetailedPeerCertificate } from "node:tls";
import type { Message } from "../messages/say.ts";

/** Verify codes that say the chain ends at an authority nobody here trusts. */
const untrustedCodes = new Set([
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
]);

const day = (date: string) => new Date(date).toISOString().slice(0, 10);
const commonName = (name: { CN?: string | string[]; O?: string | string[] } | undefined) =>
  String(name?.CN ?? name?.O ?? "?");

/**
 * Everything wrong with the certificate a TLS peer presents, for an operator to fix: TLS verification
 * stops at its first error (a self-signed certificate that has also expired says only "self-signed"),
 * so the certificate is read once more without verification, and judged here: dates, host names,
 * issuer. Never used to talk to the peer: the connection is closed as soon as the certificate is read.
 */
export async function certificateProblems(
  host: string,
  port: number,
  timeoutMs: number,
  verifyCode: string,
): Promise<Message[]> {
  const certificate = await new Promise<{ cert?: DetailedPeerCertificate; error?: string }>((resolve) => {
    const socket = connect({
      host,
      port,
      ...(isIP(host) ? {} : { servername: host }),
      rejectUnauthorized: false,
    });
    const done = (value: { cert?: DetailedPeerCertificate; error?: string }) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done({}));
    socket.once("secureConnect", () =>
      done({ cert: socket.getPeerCertificate(true), error: socket.authorizationError?.toString() }),
    );
    socket.once("error", () => done({}));
  });
  const cert = certificate.cert;
  if (!cert?.valid_to) return [{ code: "health.certificate.other", params: { cause: verifyCode } }];
  const problems: Message[] = [];
  const now = Date.now();
  if (Date.parse(cert.valid_to) < now)
    problems.push({ code: "health.certificate.expired", params: { date: day(cert.valid_to) } });
  if (Date.parse(cert.valid_from) > now)
    problems.push({ code: "health.certificate.notYetValid", params: { date: day(cert.valid_from) } });
  if (checkServerIdentity(host, cert)) {
    const names = (cert.subjectaltname ?? "")
      .split(/,\s*/)
      .map((n) => n.replace(/^(DNS|IP Address):/, ""))
      .filter(Boolean);
    problems.push({
      code: "health.certificate.wrongHost",
      params: { names: names.length ? names : [commonName(cert.subject)], host },
    });
  }
  const code = certificate.error ?? verifyCode;
  // A self-signed certificate is its own issuer (node links it to itself).
  if (
    code === "DEPTH_ZERO_SELF_SIGNED_CERT" ||
    cert.issuerCertificate?.fingerprint256 === cert.fingerprint256
  )
    problems.push({ code: "health.certificate.selfSigned" });
  else if (untrustedCodes.has(code))
    problems.push({
      code: "health.certificate.untrusted",
      params: { issuer: commonName(rootOf(cert).issuer) },
    });
  if (!problems.length) problems.push({ code: "health.certificate.other", params: { cause: code } });
  return problems;
}

/** The last certificate of the chain the peer sent. */
function rootOf(cert: DetailedPeerCertificate): DetailedPeerCertificate {
  let current = cert;
  while (current.issuerCertificate && current.issuerCertificate !== current)
    current = current.issuerCertificate;
  return current;
}
