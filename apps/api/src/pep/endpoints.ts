import { hostReach } from "../private-networks.ts";

/**
 * The addresses a write to the broker would make it call: a subscription's notification endpoint
 * (subscriptions and context source subscriptions), a registration's endpoint. `route` is the route's
 * pattern under /ngsi-ld/v1.
 */
export function endpointsOf(route: string, body: unknown): string[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return [];
  const b = body as { endpoint?: unknown; notification?: { endpoint?: { uri?: unknown } } };
  if (/^\/(subscriptions|csourceSubscriptions)(\/|$)/.test(route)) {
    const uri = b.notification?.endpoint?.uri;
    return typeof uri === "string" ? [uri] : [];
  }
  if (/^\/csourceRegistrations(\/|$)/.test(route)) return typeof b.endpoint === "string" ? [b.endpoint] : [];
  return [];
}

/**
 * The first of these addresses that leads to a private network (loopback, private ranges, link-local),
 * or that no name server resolves now (it may lead anywhere later). Not a URL: the broker refuses it.
 */
export async function privateEndpoint(uris: readonly string[]): Promise<string | undefined> {
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      continue;
    }
    if (!url.hostname) continue;
    if ((await hostReach(url.hostname)) !== "public") return uri;
  }
  return undefined;
}
