import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** AES-256-GCM for secrets at rest. A stored value is `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export interface Cipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64");
  return key;
}

/** The key from ENCRYPTION_KEY, or one generated once into DATA_DIR (readable by the owner only). */
export function loadKey(encryptionKey: string | undefined, dataDir: string): Buffer {
  if (encryptionKey) return parseKey(encryptionKey);
  const file = join(dataDir, "encryption.key");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
  }
  return parseKey(readFileSync(file, "utf8"));
}

export function createCipher(key: Buffer): Cipher {
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    decrypt(stored) {
      const [version, iv, tag, body] = stored.split(".");
      if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("unknown secret format");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}
