import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Permission } from "@orrery/model";
import type { Database } from "../storage/database.ts";
import type { Cipher } from "../cipher.ts";
import { sessions } from "../storage/schema.ts";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface Identity {
  subject: string;
  username: string;
  provider: string;
  permissions: Permission[];
  expiresAt: Date;
  /** What the identity manager gave at sign-in to read the user's permissions again (Keyrock's access token). */
  grant?: string;
}

export interface Session extends Omit<Identity, "grant"> {
  tokenHash: string;
}

/** Reads a session's permissions again from its grant: undefined ends the session. */
export type Refresh = (grant: string) => Promise<Permission[] | undefined>;

/** How often a session's permissions are read again from the identity manager. */
export const PERMISSIONS_REFRESH_MS = 3 * 60_000;
/** When the identity manager cannot be asked, the permissions it gave last are kept and asked again after this. */
const RETRY_MS = 30_000;

/** What a session's bearer token looks like: 32 random bytes, base64url (43 characters). */
export const sessionTokenShape = /^[A-Za-z0-9_-]{43}$/;

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

  private readonly refreshing = new Map<string, Promise<Session | undefined>>();

  /** What ends with a session in this process (its streams), by token hash. */
  private readonly endings = new Map<string, Set<() => void>>();

  constructor(
    private readonly db: Database,
    private readonly options: {
      cipher?: Cipher;
      refresh?: Refresh;
      refreshMs?: number;
      log?: { warn(obj: object, msg: string): void };
    } = {},
  ) {}

  /**
   * A new session. `alongside` writes what else the sign-in records (its audit event) in the
   * session's transaction: a session without its event, or the reverse, cannot be left behind.
   */
  async create(
    identity: Identity,
    alongside?: (tx: Transaction) => Promise<unknown>,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    const { grant, ...rest } = identity;
    await this.db.transaction(async (tx) => {
      await tx.delete(sessions).where(lt(sessions.expiresAt, new Date()));
      await tx.insert(sessions).values({
        tokenHash: hash(token),
        ...rest,
        // The grant is a secret of the identity manager's: encrypted at rest like every other.
        grant: grant && this.options.cipher ? this.options.cipher.encrypt(grant) : null,
        permissionsCheckedAt: new Date(),
      });
      await alongside?.(tx);
    });
    return { token, expiresAt: identity.expiresAt };
  }

  /** The session with permissions read again from the identity manager when they are older than the refresh delay. */
  private async fresh(row: typeof sessions.$inferSelect): Promise<Session | undefined> {
    const { grant, permissionsCheckedAt, ...session } = row;
    const refresh = this.options.refresh;
    const every = this.options.refreshMs ?? PERMISSIONS_REFRESH_MS;
    if (!grant || !refresh || !this.options.cipher || Date.now() - permissionsCheckedAt.getTime() < every)
      return session;
    const running = this.refreshing.get(row.tokenHash);
    if (running) return running;
    const job = (async () => {
      let permissions: Permission[] | undefined;
      try {
        permissions = await refresh(this.options.cipher!.decrypt(grant));
      } catch (err) {
        this.options.log?.warn({ err: (err as Error).message }, "permissions could not be read again; kept");
        await this.db
          .update(sessions)
          .set({ permissionsCheckedAt: new Date(Date.now() - every + RETRY_MS) })
          .where(eq(sessions.tokenHash, row.tokenHash));
        return session;
      }
      if (!permissions) {
        await this.db.delete(sessions).where(eq(sessions.tokenHash, row.tokenHash));
        return undefined;
      }
      await this.db
        .update(sessions)
        .set({ permissions, permissionsCheckedAt: new Date() })
        .where(eq(sessions.tokenHash, row.tokenHash));
      return { ...session, permissions };
    })().finally(() => this.refreshing.delete(row.tokenHash));
    this.refreshing.set(row.tokenHash, job);
    return job;
  }

  async find(token: string): Promise<Session | undefined> {
    return this.findByHash(hash(token));
  }

  /** The session of a token hash: what a stream token issued by it names (never the token itself). */
  async findByHash(tokenHash: string): Promise<Session | undefined> {
    const now = Date.now();
    const cached = this.cache.get(tokenHash);
    if (cached && now < cached.until) return cached.session;
    this.cache.delete(tokenHash);
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date(now))));
    const session = row && (await this.fresh(row));
    if (session) {
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(tokenHash, {
        session,
        until: Math.min(
          now + Math.min(SESSION_CACHE_MS, this.options.refreshMs ?? SESSION_CACHE_MS),
          session.expiresAt.getTime(),
        ),
      });
    }
    return session;
  }

  async revoke(token: string): Promise<void> {
    const tokenHash = hash(token);
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    this.cache.delete(tokenHash);
    const endings = this.endings.get(tokenHash);
    this.endings.delete(tokenHash);
    for (const end of endings ?? []) end();
  }

  /**
   * Runs `end` when the session of `tokenHash` is revoked (a sign-out) in this process: an open
   * stream of its own, or of a stream token it issued, closes at once. Returns how to forget it.
   * A sign-out in another process closes nothing here; the stream's tokens are refused there and
   * here from then on (within SESSION_CACHE_MS).
   */
  onRevoke(tokenHash: string, end: () => void): () => void {
    let endings = this.endings.get(tokenHash);
    if (!endings) this.endings.set(tokenHash, (endings = new Set()));
    endings.add(end);
    return () => {
      endings.delete(end);
      if (!endings.size && this.endings.get(tokenHash) === endings) this.endings.delete(tokenHash);
    };
  }
}
