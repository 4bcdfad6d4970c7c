import { Agent, fetch as undiciFetch } from "undici";

/** Calls from the API to the peers of a data space (registries, verifiers, issuer lists, identity managers). */

/** How long the API waits for a peer's answer. */
export const PEER_TIMEOUT_MS = 10_000;

/** Why a peer could not be reached, as node's fetch says it: the system error's code, else the error's name. */
export const unreachableCause = (err: unknown): string =>
  (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;

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

/**
 * One request within `timeoutMs`, headers and body: the answer with its body read whole, or what
 * fetch throws (a TimeoutError when the peer is too slow), or BodyTooLarge past `maxBytes`.
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
): Promise<Response> {
  const dispatcher = new Agent();
  try {
    const response = await undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
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
  } finally {
    dispatcher.destroy().catch(() => undefined);
  }
}

/**
 * One call to a peer within PEER_TIMEOUT_MS: its status and body, parsed when it is JSON, its text
 * otherwise, null when empty. A peer that cannot be reached throws PeerUnreachable.
 */
export async function callPeer(
  url: string,
  init: RequestInit,
): Promise<{ status: number; ok: boolean; body: unknown }> {
  let response: Response;
  try {
    response = await fetchWithin(url, init);
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
