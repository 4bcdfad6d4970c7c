import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

(x509.cryptoProvider as unknown as { set(crypto: unknown): void }).set(webcrypto);
type KeyPair = webcrypto.CryptoKeyPair;

const algorithm = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

/** An iSHARE party's credentials as Orrery stores them: base64 DER certificates (leaf first) and a base64 PKCS#8 key. */
export interface PartyCredentials {
  identifier: string;
  certificates: string[];
  privateKey: string;
  /** The root's base64 DER, for a registry's trusted list. */
  root: string;
}

const base64 = (data: ArrayBuffer) => Buffer.from(data).toString("base64");

/**
 * A three-level chain made at test time (root CA, intermediate CA, leaf with digitalSignature and
 * the party id as serialNumber, as iSHARE certificates carry it), valid from yesterday for a year.
 */
export async function partyCredentials(identifier: string, name = identifier): Promise<PartyCredentials> {
  const notBefore = new Date(Date.now() - 24 * 3600_000);
  const notAfter = new Date(Date.now() + 365 * 24 * 3600_000);
  const keys = await Promise.all(
    [0, 1, 2].map(
      () => webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]) as Promise<KeyPair>,
    ),
  );
  const [rootKeys, caKeys, leafKeys] = keys as [KeyPair, KeyPair, KeyPair];
  const ca = (pathLength: number) => [
    new x509.BasicConstraintsExtension(true, pathLength, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
  ];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: `CN=${name} test root`,
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: algorithm,
    extensions: ca(1),
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: "02",
    subject: `CN=${name} test intermediate`,
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: caKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: algorithm,
    extensions: ca(0),
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: "03",
    subject: `CN=${name},2.5.4.5=${identifier}`,
    issuer: intermediate.subject,
    notBefore,
    notAfter,
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  return {
    identifier,
    certificates: [leaf, intermediate, root].map((c) => base64(c.rawData)),
    privateKey: base64(await webcrypto.subtle.exportKey("pkcs8", leafKeys.privateKey)),
    root: base64(root.rawData),
  };
}
