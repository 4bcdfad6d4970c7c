import { fetchWithin, PEER_TIMEOUT_MS, unreachableCause } from "../peers.ts";

/**
 * Calls to FIWARE Keyrock, shared by the sign-in provider and the users of a workspace: one fetch
 * with a bounded time, Keyrock's error bodies read, and the management API (/v1) with one
 * management token per account, reused until shortly before it expires and released on close.
 */

export const KEYROCK_TIMEOUT_MS = PEER_TIMEOUT_MS;

/** A Keyrock call that failed: `status` is undefined when Keyrock could not be reached. */
export class KeyrockFailure extends Error {
  constructor(
    readonly what: string,
    readonly status: number | undefined,
    readonly reason: string,
  ) {
    super(status === undefined ? `${what}: ${reason}` : `${what} (${status}): ${reason}`);
  }
}

/** Keyrock's error bodies: a bare JSON string on /oauth2 and /user, `{error:{message}}` on /v1, HTML elsewhere. */
export async function reasonOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === "string") return body;
    const message = (body as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message;
  } catch {
    // not JSON
  }
  return /<(!doctype|html)/i.test(text) ? "an HTML page" : text.slice(0, 200);
}

/** One call to Keyrock; a 2xx or a 404 (Keyrock's answer to an empty list) comes back, anything else throws. */
export async function keyrockFetch(
  url: string,
  init: RequestInit,
  what: string,
  timeoutMs = KEYROCK_TIMEOUT_MS,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetchWithin(url, init, timeoutMs, Infinity, "identity-managers");
  } catch (err) {
    throw new KeyrockFailure(what, undefined, unreachableCause(err));
  }
  if (!response.ok && response.status !== 404)
    throw new KeyrockFailure(what, response.status, await reasonOf(response));
  return response;
}

export interface KeyrockManagement {
  /** A /v1 call with the management token (a JSON body gets Keyrock's required content type). */
  call(method: string, path: string, what: string, body?: unknown): Promise<Response>;
  /** Releases the management token (DELETE /v1/auth/tokens). */
  release(): Promise<void>;
}

/**
 * The management API of the Keyrock at `base` for one account (Keyrock signs in with the e-mail
 * address as `name`). The token is asked for once and reused; a token Keyrock no longer knows
 * (restarted, expired early) is asked for again once.
 */
export function keyrockManagement(
  base: string,
  account: { name: string; password: string },
  timeoutMs = KEYROCK_TIMEOUT_MS,
): KeyrockManagement {
  let current: Promise<{ token: string; until: number }> | undefined;

  async function signIn() {
    const response = await keyrockFetch(
      `${base}/v1/auth/tokens`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(account),
      },
      "the management account's sign-in",
      timeoutMs,
    );
    const token = response.headers.get("x-subject-token");
    if (!response.ok || !token)
      throw new KeyrockFailure("the management account's sign-in", response.status, "no X-Subject-Token");
    const body = (await response.json().catch(() => ({}))) as { token?: { expires_at?: string } };
    return { token, until: Date.parse(body.token?.expires_at ?? "") || Date.now() + 30 * 60_000 };
  }

  function signInOnce() {
    const attempt = signIn();
    current = attempt;
    attempt.catch(() => {
      if (current === attempt) current = undefined;
    });
    return attempt;
  }

  // The calls waiting on one sign-in share its outcome, a failure too: none of them signs in again
  // (against a Keyrock that does not answer, each would wait out its own timeout after the 502).
  async function token(): Promise<string> {
    const pending = current;
    if (pending) {
      const held = await pending;
      if (held.until > Date.now() + 60_000) return held.token;
      if (current === pending) current = undefined;
    }
    return (await (current ?? signInOnce())).token;
  }

  async function call(method: string, path: string, what: string, body?: unknown, again = true) {
    // Keyrock wants a JSON content type on every POST, PUT and PATCH, even one without a body.
    const sent = ["POST", "PUT", "PATCH"].includes(method) ? JSON.stringify(body ?? {}) : undefined;
    const response = await keyrockFetch(
      `${base}${path}`,
      {
        method,
        headers: {
          "x-auth-token": await token(),
          ...(sent !== undefined ? { "content-type": "application/json" } : {}),
        },
        ...(sent !== undefined ? { body: sent } : {}),
      },
      what,
      timeoutMs,
    ).catch((err: unknown) => {
      if (again && err instanceof KeyrockFailure && err.status === 401) return undefined;
      throw err;
    });
    if (response && !(again && response.status === 404 && (await isUnknownToken(response)))) return response;
    current = undefined;
    return call(method, path, what, body, false);
  }

  async function release() {
    const held = current && (await current.catch(() => undefined));
    current = undefined;
    if (!held) return;
    await fetchWithin(
      `${base}/v1/auth/tokens`,
      { method: "DELETE", headers: { "x-auth-token": held.token, "x-subject-token": held.token } },
      timeoutMs,
      Infinity,
      "identity-managers",
    ).catch(() => undefined);
  }

  return { call: (method, path, what, body) => call(method, path, what, body), release };
}

/** Keyrock answers an unknown management token with 404 "Token not found". */
async function isUnknownToken(response: Response): Promise<boolean> {
  const reason = await reasonOf(response.clone());
  return reason === "Token not found";
}
