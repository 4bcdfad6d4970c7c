import { fetchOnce } from "./outgoing.ts";
import { randomUUID } from "node:crypto";
import type { Geometry } from "geojson";
import type { Broker } from "./broker.ts";
import { geoMatches, parseGeoQuery } from "./geo.ts";
import { contextSourcesOf, type ContextSources } from "./registration-store.ts";
import { inForce, matchingInfo, renderRegistration, type StoredRegistration } from "./registration-model.ts";
import type { StoredSubscription } from "./subscription-model.ts";

/**
 * Context source registration subscriptions (ETSI GS CIM 009 v1.8, 5.11): when a registration is
 * created, changed or deleted, each active subscription of the tenant it matches gets a
 * notification (5.3.2 CsourceNotification) with triggerReason newlyMatching, updated or
 * noLongerMatching. Delivery is one POST after the write, with the broker's notification timeout;
 * its outcome is kept in the subscription's notification status. A failed delivery is not retried
 * (unlike entity notifications, which go through the outbox): the registration is still there to
 * be queried.
 */
export function registrationMatches(s: StoredSubscription, r: StoredRegistration): boolean {
  if (!inForce(r)) return false;
  const attrs = s.watchedAttributes;
  const same = (t: string) => t;
  const byEntities = s.entities
    ? s.entities.some(
        (e) =>
          matchingInfo(
            r,
            {
              types: { kind: "name", name: e.type },
              ids: e.id !== undefined ? [e.id] : undefined,
              idPattern: e.idPattern,
              attrs,
            },
            same,
          ).length > 0,
      )
    : matchingInfo(r, { attrs }, same).length > 0;
  if (!byEntities) return false;
  if (s.geoQ) {
    const where = r.location;
    const g = s.geoQ;
    const query = parseGeoQuery({ georel: g.georel, geometry: g.geometry, coordinates: g.coordinates });
    if (!where || !query || !geoMatches(where as Geometry, query)) return false;
  }
  return true;
}

const active = (s: StoredSubscription) =>
  s.isActive && (s.expiresAt === undefined || Date.parse(s.expiresAt) > Date.now());

/** Notifies the tenant's matching registration subscriptions of a change (before/after undefined = created/deleted). */
export async function notifyRegistrationChange(
  broker: Broker,
  tenant: string,
  before: StoredRegistration | undefined,
  after: StoredRegistration | undefined,
  log: { warn(obj: object, msg: string): void },
): Promise<void> {
  const sources = contextSourcesOf(broker)!;
  const subscriptions = (await sources.csourceSubscriptions.all(tenant)).map((s) => s.body).filter(active);
  await Promise.all(
    subscriptions.map(async (s) => {
      const was = before !== undefined && registrationMatches(s, before);
      const is = after !== undefined && registrationMatches(s, after);
      if (!was && !is) return;
      const reason = was && is ? "updated" : is ? "newlyMatching" : "noLongerMatching";
      await deliver(broker, sources, tenant, s, (is ? after : before)!, reason, log);
    }),
  );
}

async function deliver(
  broker: Broker,
  sources: ContextSources,
  tenant: string,
  s: StoredSubscription,
  r: StoredRegistration,
  triggerReason: string,
  log: { warn(obj: object, msg: string): void },
): Promise<void> {
  const at = new Date().toISOString();
  let ok = false;
  try {
    const ctx = await broker.contexts.compile(s.context);
    const ld = s.notification.endpoint.accept === "application/ld+json";
    const body: Record<string, unknown> = {
      id: `urn:ngsi-ld:Notification:${randomUUID()}`,
      type: "Notification",
      subscriptionId: s.id,
      notifiedAt: at,
      data: [renderRegistration(r, ctx)],
      triggerReason,
    };
    if (ld) body["@context"] = ctx.value ?? ctx.linkUrl;
    const headers: Record<string, string> = {
      "content-type": ld ? "application/ld+json" : "application/json",
    };
    if (!ld)
      headers.link = `<${ctx.linkUrl}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`;
    if (tenant) headers["ngsild-tenant"] = tenant;
    for (const { key, value } of s.notification.endpoint.receiverInfo ?? []) headers[key] = value;
    ok = await fetchOnce(
      s.notification.endpoint.uri,
      {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        // receiverInfo may hold the receiver's credentials: never sent on to the host a redirect names.
        redirect: "manual",
        signal: AbortSignal.timeout(sources.notificationTimeoutMs),
      },
      async (response) => {
        await response.arrayBuffer();
        return response.ok;
      },
    );
  } catch (error) {
    log.warn({ err: error, subscription: s.id }, "registration notification not delivered");
  }
  await sources.csourceSubscriptions.delivered(tenant, s.id, ok, at);
}
