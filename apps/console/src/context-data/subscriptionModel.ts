/** NGSI-LD subscriptions (spec section 3, Subscription): the record, the form's draft and the rules between them. */

export interface EntitySelector {
  id?: string;
  idPattern?: string;
  type?: string;
}

export interface Subscription {
  id: string;
  type: "Subscription";
  subscriptionName?: string;
  description?: string;
  entities?: EntitySelector[];
  watchedAttributes?: string[];
  timeInterval?: number;
  q?: string;
  geoQ?: { geometry: string; coordinates: unknown; georel: string; geoproperty?: string };
  isActive?: boolean;
  status?: string;
  notification: {
    attributes?: string[];
    format?: string;
    endpoint: { uri: string; accept?: string; receiverInfo?: unknown; notifierInfo?: unknown };
    status?: string;
    timesSent?: number;
    lastNotification?: string;
    lastSuccess?: string;
    lastFailure?: string;
  };
  expiresAt?: string;
  throttling?: number;
  lang?: string;
}

export const geometries = [
  "Point",
  "MultiPoint",
  "LineString",
  "MultiLineString",
  "Polygon",
  "MultiPolygon",
] as const;
export const georels = [
  "near;maxDistance==1000",
  "near;minDistance==1000",
  "within",
  "contains",
  "intersects",
  "overlaps",
  "disjoint",
  "equals",
] as const;
export const formats = ["normalized", "keyValues"] as const;
export const accepts = ["application/json", "application/ld+json", "application/geo+json"] as const;

export interface SubscriptionDraft {
  subscriptionName: string;
  description: string;
  entities: Array<{ id: string; idPattern: string; type: string }>;
  watchedAttributes: string[];
  timeInterval: string;
  q: string;
  geometry: string;
  coordinates: string;
  georel: string;
  geoproperty: string;
  isActive: boolean;
  attributes: string[];
  format: string;
  uri: string;
  accept: string;
  expiresAt: string;
  throttling: string;
  lang: string;
}

export const emptyRow = { id: "", idPattern: "", type: "" };

export function newDraft(typeName?: string): SubscriptionDraft {
  return {
    subscriptionName: "",
    description: "",
    entities: [typeName ? { ...emptyRow, type: typeName } : { ...emptyRow }],
    watchedAttributes: [],
    timeInterval: "",
    q: "",
    geometry: "",
    coordinates: "",
    georel: "",
    geoproperty: "",
    isActive: true,
    attributes: [],
    format: "",
    uri: "",
    accept: "",
    expiresAt: "",
    throttling: "",
    lang: "",
  };
}

/** A row with nothing in it: the Add-entity button waits until the last row has something. */
export const isEmptyRow = (row: { id: string; idPattern: string; type: string }) =>
  !row.id.trim() && !row.idPattern.trim() && !row.type.trim();

/** Error message keys (i18n) by field; empty when the draft can be sent. */
export function validateSubscription(draft: SubscriptionDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!draft.uri.trim()) errors.uri = "validation.required";
  else if (!URL.canParse(draft.uri.trim())) errors.uri = "subscriptions.invalidUri";
  if (draft.throttling.trim()) {
    const n = Number(draft.throttling);
    if (!Number.isInteger(n)) errors.throttling = "validation.integer";
    else if (n < 1) errors.throttling = "subscriptions.throttlingMinimum";
  }
  if (draft.timeInterval.trim()) {
    const n = Number(draft.timeInterval);
    if (!Number.isInteger(n)) errors.timeInterval = "validation.integer";
    else if (n < 1) errors.timeInterval = "subscriptions.throttlingMinimum";
  }
  if (draft.geometry) {
    try {
      JSON.parse(draft.coordinates);
    } catch {
      errors.coordinates = "entities.invalidJson";
    }
    if (!draft.georel.trim()) errors.georel = "validation.required";
  }
  return errors;
}

const text = (s: string) => (s.trim() ? s.trim() : undefined);

/** The body sent to the API: empty fields omitted (spec section 5). */
export function subscriptionBody(draft: SubscriptionDraft): Record<string, unknown> {
  const entities = draft.entities
    .filter((row) => !isEmptyRow(row))
    .map((row) => ({ id: text(row.id), idPattern: text(row.idPattern), type: text(row.type) }));
  const endpoint = { uri: draft.uri.trim(), accept: text(draft.accept) };
  const notification = {
    attributes: draft.attributes.length ? draft.attributes : undefined,
    format: text(draft.format),
    endpoint,
  };
  const body: Record<string, unknown> = {
    type: "Subscription",
    subscriptionName: text(draft.subscriptionName),
    description: text(draft.description),
    entities: entities.length ? entities : undefined,
    watchedAttributes: draft.watchedAttributes.length ? draft.watchedAttributes : undefined,
    timeInterval: draft.timeInterval.trim() ? Number(draft.timeInterval) : undefined,
    q: text(draft.q),
    geoQ: draft.geometry
      ? {
          geometry: draft.geometry,
          coordinates: JSON.parse(draft.coordinates) as unknown,
          georel: draft.georel.trim(),
          geoproperty: text(draft.geoproperty),
        }
      : undefined,
    isActive: draft.isActive,
    notification,
    expiresAt: draft.expiresAt ? new Date(draft.expiresAt).toISOString() : undefined,
    throttling: draft.throttling.trim() ? Number(draft.throttling) : undefined,
    lang: text(draft.lang),
  };
  // JSON.stringify drops the undefined members; strip them here too so the body is what is sent.
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}
