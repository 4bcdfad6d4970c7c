import { performance } from "node:perf_hooks";
import { Agent, fetch as undiciFetch } from "undici";
import { outcomeOfFailure, outcomeOfStatus, peerCalls, type CallOutcome } from "./metrics/registry.ts";

/** Calls from the API to the peers of a data space (registries, verifiers, issuer lists, identity managers). */

/** How long the API waits for a peer's answer. */
export const PEER_TIMEOUT_MS = 10_000;

/** A peer that could not be reached (`cause` as unreachableCause says it). */
export class PeerUnreachable extends Error {
  constructor(readonly cause: string) {
    super(cause);
  }
}

/** Statuses whose answer has no body (a Response refuses one). */
const bodiless = new Set([204, 205, 304]);

/** An answer whose body is longer than the call accepts. */
export class BodyTooLarge extends Error {
  constructor(readonly max: number) {
    super(`The body is larger than ${max} bytes`);
  }
}

/** The redirects a call follows within the peer's own origin. */
export const MAX_REDIRECTS = 3;
const redirects = new Set([301, 302, 303, 307, 308]);

/** A redirect's target as a reader is shown it: no user, password, query nor fragment (they may hold secrets). */
const shownUrl = (url: URL) => `${url.origin}${url.pathname}`.slice(0, 300);

/**
 * A peer that redirected a call to another origin (scheme, host or port): not followed, since
 * calls to peers carry credentials (a grant's password in a form body that a 307 would send again,
 * a bearer, a broker's API key) that belong to the peer the operator registered, not to whatever
 * host its answer names.
 */
export class CrossOriginRedirect extends Error {
  override name = "CrossOriginRedirect";
  readonly location: string;
  constructor(target: URL) {
    const location = shownUrl(target);
    super(`it redirected to ${location}; Orrery does not send credentials to another origin`);
    this.location = location;
  }
}

/** A redirect answered to a call made with `redirect: "error"`, whose address alone was checked. */
export class RedirectRefused extends Error {
  override name = "RedirectRefused";
  constructor(target: URL) {
    super(`it redirected to ${shownUrl(target)}, and this call follows no redirect`);
  }
}

/** A peer that redirected a call more than MAX_REDIRECTS times within its own origin. */
export class TooManyRedirects extends Error {
  override name = "TooManyRedirects";
  constructor() {
    super(`it redirected more than ${MAX_REDIRECTS} times`);
  }
}

/** Why a peer could not be reached, as node's fetch says it: the system error's code, else the error's name (a refused redirect in words). */
export const unreachableCause = (err: unknown): string =>
  err instanceof CrossOriginRedirect || err instanceof TooManyRedirects || err instanceof RedirectRefused
    ? err.message
    : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name);

/**
 * The kind of peer a call goes to, the label of its outcome in GET /metrics: a registered kind's
 * name, or what the call is for. A bounded set: never an address or a name an operator typed.
 */
export type PeerKind =
  | "identity-managers"
  | "authorization-registries"
  | "vc-verifiers"
  | "trusted-issuers-lists"
  | "policy-administration-points"
  | "credentials-config-services"
  | "smart-data-models"
  | "google-sheets"
  | "health-check"
  | "other";

/** The outcome of a call that threw, as GET /metrics counts it. */
function outcomeOfError(err: unknown): CallOutcome {
  if (err instanceof CrossOriginRedirect) return "cross_origin_redirect";
  if (err instanceof RedirectRefused) return "redirect_refused";
  if (err instanceof TooManyRedirects) return "too_many_redirects";
  if (err instanceof BodyTooLarge) return "body_too_large";
  return outcomeOfFailure(err);
}

/**
 * One request within `timeoutMs`, headers and body: the answer with its body read whole, or what
 * fetch throws (a TimeoutError when the peer is too slow), or BodyTooLarge past `maxBytes`.
 * Redirects are followed within the peer's origin only, at most MAX_REDIRECTS (a 303, or a 301/302
 * of a POST, goes on as a GET without body, as fetch does); one to another origin throws
 * CrossOriginRedirect before anything is sent there. `redirect: "error"` follows none (RedirectRefused),
 * `redirect: "manual"` answers the redirect itself. Its outcome and duration are counted under
 * `peer` (GET /metrics).
 * Whatever the outcome, the call leaves no socket open: it has a connection pool of its own, closed
 * when the call is over, because on a timeout undici closes the request's socket and then opens
 * another one for the aborted request that nothing uses or closes (nodejs/undici#5845): a peer that
 * never answers would otherwise keep one socket of ours per call.
 */
export async function fetchWithin(
  url: string | URL,
  init: RequestInit,
  timeoutMs = PEER_TIMEOUT_MS,
  maxBytes = Infinity,
  peer: PeerKind = "other",
): Promise<Response> {
  const started = performance.now();
  let outcome: CallOutcome = "unreachable";
  try {
    const response = await fetchFollowing(url, init, timeoutMs, maxBytes);
    outcome = outcomeOfStatus(response.status);
    return response;
  } catch (err) {
    outcome = outcomeOfError(err);
    throw err;
  } finally {
    peerCalls.observe({ peer, outcome }, (performance.now() - started) / 1000);
  }
}

async function fetchFollowing(
  url: string | URL,
  init: RequestInit,
  timeoutMs: number,
  maxBytes: number,
): Promise<Response> {
  const dispatcher = new Agent();
  const signal = AbortSignal.timeout(timeoutMs);
  let target = new URL(url);
  let { method = "GET", body, headers } = init;
  try {
    for (let hops = 0; ; hops++) {
      const response = await undiciFetch(target, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        method,
        headers: headers as never,
        body: body as never,
        redirect: "manual",
        dispatcher,
        signal,
      });
      const location = redirects.has(response.status) ? response.headers.get("location") : null;
      if (location !== null && init.redirect !== "manual") {
        await response.body?.cancel().catch(() => undefined);
        const next = new URL(location, target);
        if (next.origin !== target.origin) throw new CrossOriginRedirect(next);
        // A caller that takes no redirect at all (a fetch whose address was checked, not its next one).
        if (init.redirect === "error") throw new RedirectRefused(next);
        if (hops >= MAX_REDIRECTS) throw new TooManyRedirects();
        if (
          response.status === 303 ||
          (method === "POST" && response.status !== 307 && response.status !== 308)
        ) {
          method = "GET";
          body = undefined;
          headers = withoutBodyHeaders(headers);
        }
        target = next;
        continue;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of response.body ?? []) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new BodyTooLarge(maxBytes);
        chunks.push(chunk);
      }
      return new Response(bodiless.has(response.status) ? null : Buffer.concat(chunks), {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
      });
    }
  } finally {
    dispatcher.destroy().catch(() => undefined);
  }
}

/** The headers of a request without those of its body (a redirect that goes on as a GET). */
function withoutBodyHeaders(headers: HeadersInit | undefined): Headers {
  const kept = new Headers(headers);
  for (const name of [
    "content-type",
    "content-length",
    "content-encoding",
    "content-language",
    "content-location",
  ])
    kept.delete(name);
  return kept;
}

/**
 * One call to a peer within PEER_TIMEOUT_MS: its status and body, parsed when it is JSON, its text
 * otherwise, null when empty. A peer that cannot be reached throws PeerUnreachable.
 */
export async function callPeer(
  url: string,
  init: RequestInit,
  peer: PeerKind = "other",
): Promise<{ status: number; ok: boolean; body: unknown }> {
  let response: Response;
  try {
    response = await fetchWithin(url, init, PEER_TIMEOUT_MS, Infinity, peer);
  } catch (err) {
    throw new PeerUnreachable(unreachableCause(err));
  }
  const text = await response.text();
  let body: unknown = text || null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // the peer's text as it is
  }
  return { status: response.status, ok: response.ok, body };
}
