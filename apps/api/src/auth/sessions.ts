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

/**
 * How long a process may answer a token from memory instead of the database. A logout in this
 * process takes effect at once; a logout in another process sharing the PostgreSQL database is seen
 * here within this delay. Expiry is always exact.
 */
export const SESSION_CACHE_MS = 5_000;
const CACHE_MAX = 10_000;

/** Sessions are rows keyed by the hash of an opaque bearer token, so any API process can check them and a leaked table yields no token. */
export class Sessions {
  /**
   * Found sessions by token hash, with the time until which they may be used without asking the
   * database again: the lookup was a query on every request (a third of a create's time on PGlite).
   * Unknown tokens are never cached.
   */
  private readonly cache = new Map<string, { session: Session; until: number }>();

  constructor(private readonly db: Database) {}

  async create(identity: Identity): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    await this.db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    await this.db.insert(sessions).values({ tokenHash: hash(token), ...identity });
    return { token, expiresAt: identity.expiresAt };
  }

  async find(token: string): Promise<Session | undefined> {
    const tokenHash = hash(token);
    const now = Date.now();
    const cached = this.cache.get(tokenHash);
    if (cached && now < cached.until) return cached.session;
    this.cache.delete(tokenHash);
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date(now))));
    if (row) {
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(tokenHash, {
        session: row,
        until: Math.min(now + SESSION_CACHE_MS, row.expiresAt.getTime()),
      });
    }
    return row;
  }

  async revoke(token: string): Promise<void> {
    const tokenHash = hash(token);
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    this.cache.delete(tokenHash);
  }
}
