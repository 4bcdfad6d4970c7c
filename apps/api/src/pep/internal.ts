import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The credential the API presents to its own embedded broker. It is derived from the encryption key,
 * which every process sharing one database shares (ENCRYPTION_KEY), so that a process reaching the
 * broker through a load balancer is accepted by whichever process answers. No route returns it and
 * it is sent to no other address than this process's own origins.
 */
export function internalToken(key: Buffer): string {
  return `orrery-internal.${createHmac("sha256", key).update("orrery embedded broker v1").digest("base64url")}`;
}

export const matchesInternal = (token: string, internal: string): boolean =>
  token.length === internal.length && timingSafeEqual(Buffer.from(token), Buffer.from(internal));

/**
 * The internal credential by origin of the API processes living in this Node process. It is a
 * process-wide table, not a field of one app, because the clients of NGSI-LD calls are made from a
 * broker record's address deep in the routes; several apps (tests, a restart) each add their origins.
 */
const own = new Map<string, string>();

/**
 * The origins where this app's embedded broker answers: its public address, the address brokers
 * notify it at (LIVE_NOTIFY_URL), and loopback at its port.
 */
export function ownOrigins(urls: readonly string[], port: number): string[] {
  const origins: string[] = [];
  for (const url of urls) {
    try {
      origins.push(new URL(url).origin);
    } catch {
      // not an address: nothing of ours
    }
  }
  if (port > 0)
    for (const host of ["127.0.0.1", "localhost", "[::1]"])
      origins.push(new URL(`http://${host}:${port}`).origin);
  return [...new Set(origins)];
}

/** Adds origins of this process's embedded broker; the returned function removes them. */
export function addOwnOrigins(origins: readonly string[], token: string): () => void {
  for (const origin of origins) own.set(origin, token);
  return () => {
    for (const origin of origins) if (own.get(origin) === token) own.delete(origin);
  };
}

/**
 * The bearer the API sends to a broker at this base address (scheme://host:port[/path]): the internal
 * credential when it is the embedded broker of this process (its origin, no path), else none.
 */
export function ownBrokerBearer(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.pathname !== "/" && url.pathname !== "") return undefined;
  return own.get(url.origin);
}

export const isOwnBroker = (baseUrl: string) => ownBrokerBearer(baseUrl) !== undefined;
