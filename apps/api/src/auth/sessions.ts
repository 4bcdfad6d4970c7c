import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Permission } from "@orrery/model";
import type { Database } from "../storage/database.ts";
import { sessions } from "../storage/schema.ts";

export interface Identity {
  subject: string;
  username: string;
  provider: string;
  permissions: Permission[];
  expiresAt: Date;
}

export interface Session extends Identity {
  tokenHash: string;
}

const hash = (token: string) => createHash("sha256").update(token).digest("base64url");

/** Sessions are rows keyed by the hash of an opaque bearer token, so any API process can check them and a leaked table yields no token. */
export class Sessions {
  constructor(private readonly db: Database) {}

  async create(identity: Identity): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    await this.db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    await this.db.insert(sessions).values({ tokenHash: hash(token), ...identity });
    return { token, expiresAt: identity.expiresAt };
  }

  async find(token: string): Promise<Session | undefined> {
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tokenHash, hash(token)), gt(sessions.expiresAt, new Date())));
    return row;
  }

  async revoke(token: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenHash, hash(token)));
  }
}
