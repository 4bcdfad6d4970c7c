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
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(PEER_TIMEOUT_MS) });
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
