import type { FastifyRequest } from "fastify";
import { isAllowed, type Permission } from "@orrery/model";
import type { Cipher } from "../cipher.ts";
import type { Session, Sessions } from "../auth/sessions.ts";
import { wantsEventStream } from "../live/streams.ts";

/** The query parameter of a stream token, as the TD's `stream_sc` security scheme names it. */
export const STREAM_TOKEN = "stream_token";

/** How long a stream token opens streams: an EventSource reconnects with it within this time. */
export const STREAM_TOKEN_MS = 15 * 60_000;

const USE = "wot-stream";

interface Payload {
  use: typeof USE;
  subject: string;
  username: string;
  provider: string;
  workspaceId: string;
  /** The token hash of the session that issued it: a stream token ends with it (a sign-out). */
  session: string;
  /** The served paths of the observations it opens (the caller's, when it was issued). */
  paths: string[];
  expiresAt: number;
}

/**
 * A stream token: what an EventSource client (a browser, node-wot 0.9), which cannot send an
 * Authorization header, puts in the query of a thing description's Server-Sent Events forms. It
 * is issued with the TD to a caller with a bearer token, for the observations of that thing the
 * caller may open, and opens only them (GET), for a quarter of an hour: short-lived, read-only and
 * per thing, and no longer than the session that issued it (a sign-out ends it). It is sealed
 * with the server's key (AES-GCM: neither readable nor forgeable) and never logged (request logs
 * keep paths, not queries).
 */
export function issueStreamToken(
  cipher: Cipher,
  session: Session,
  workspaceId: string,
  paths: string[],
): string | undefined {
  const allowed = paths.filter((path) => isAllowed(session.permissions, "GET", path));
  if (!allowed.length) return undefined;
  const payload: Payload = {
    use: USE,
    subject: session.subject,
    username: session.username,
    provider: session.provider,
    workspaceId,
    session: session.tokenHash,
    paths: allowed,
    expiresAt: Math.min(Date.now() + STREAM_TOKEN_MS, session.expiresAt.getTime()),
  };
  return cipher.encrypt(JSON.stringify(payload));
}

/**
 * The session a request's stream token stands for, for Server-Sent Events: its holder, allowed
 * only the GET of the observations it names (the guard decides on the served path as for any
 * session); none when the token is missing, forged, expired, not a stream token, or when the
 * session that issued it has ended (signed out). Its `tokenHash` is the issuing session's, so that
 * a stream it opens closes when that session is revoked.
 */
export function streamSession(cipher: Cipher, sessions: Pick<Sessions, "findByHash">) {
  return async (request: FastifyRequest): Promise<Session | undefined> => {
    // Server-Sent Events only: a long poll's mailbox is its bearer token's.
    if (request.method !== "GET" || !wantsEventStream(request)) return undefined;
    const token = (request.query as Record<string, unknown> | undefined)?.[STREAM_TOKEN];
    if (typeof token !== "string" || !token || token.length > 4_000) return undefined;
    let payload: Payload;
    try {
      payload = JSON.parse(cipher.decrypt(token)) as Payload;
    } catch {
      return undefined;
    }
    if (
      payload.use !== USE ||
      !(payload.expiresAt > Date.now()) ||
      !Array.isArray(payload.paths) ||
      typeof payload.session !== "string" ||
      !(await sessions.findByHash(payload.session))
    )
      return undefined;
    const permissions: Permission[] = payload.paths.map((resource) => ({
      action: "GET",
      resource: String(resource),
      exact: true,
    }));
    return {
      subject: payload.subject,
      username: payload.username,
      provider: payload.provider,
      permissions,
      expiresAt: new Date(payload.expiresAt),
      tokenHash: payload.session,
    };
  };
}
