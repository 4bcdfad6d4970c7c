import { createHash, randomBytes } from "node:crypto";

/** RFC 7636 S256: the challenge is the base64url SHA-256 of the verifier. */
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** Unguessable values for codes and tokens. */
export const opaque = (bytes = 24) => randomBytes(bytes).toString("base64url");
