import { checkName, isDateTime, isUri } from "./attributes.ts";
import type { CompiledContext } from "./contexts.ts";
import { parseGeoQuery } from "./geo.ts";
import { compilePattern } from "./patterns.ts";
import { badRequest } from "./problems.ts";
import { parseQuery, pathsOf, resolvePath, type ResolvedPath } from "./query-language.ts";

/**
 * The Subscription data type (ETSI GS CIM 009 v1.8, 5.2.12, with NotificationParams 5.2.14 and
 * Endpoint 5.2.15): reading a body into the stored form, with every name expanded by the
 * request's @context so that matching needs no context, and rendering it back compacted.
 */
export type NotificationFormat = "normalized" | "keyValues" | "concise";
export const notificationTriggers = [
  "entityCreated",
  "entityUpdated",
  "entityDeleted",
  "attributeCreated",
  "attributeUpdated",
  "attributeDeleted",
] as const;
export type NotificationTrigger = (typeof notificationTriggers)[number];
/** Without notificationTrigger, creations and updates of (watched) attributes notify (5.2.12). */
export const defaultTriggers: NotificationTrigger[] = ["attributeCreated", "attributeUpdated"];

export interface KeyValue {
  key: string;
  value: string;
}

export interface StoredEntitySelector {
  id?: string;
  idPattern?: string;
  /** Expanded type IRI. */
  type: string;
}

export interface StoredGeoQuery {
  geometry: string;
  coordinates: unknown;
  georel: string;
  /** Expanded GeoProperty IRI. */
  geoproperty: string;
}

export interface StoredSubscription {
  id: string;
  subscriptionName?: string;
  description?: string;
  entities?: StoredEntitySelector[];
  watchedAttributes?: string[];
  notificationTrigger?: NotificationTrigger[];
  timeInterval?: number;
  q?: string;
  /** The expanded paths of q, in pathsOf order. */
  qPaths?: ResolvedPath[];
  geoQ?: StoredGeoQuery;
  csf?: string;
  isActive: boolean;
  expiresAt?: string;
  throttling?: number;
  lang?: string;
  jsonldContext?: string;
  notification: {
    attributes?: string[];
    format: NotificationFormat;
    sysAttrs?: boolean;
    endpoint: {
      uri: string;
      accept: "application/json" | "application/ld+json";
      receiverInfo?: KeyValue[];
      notifierInfo?: KeyValue[];
    };
  };
  /** The @context of the creating request (undefined: the core context), used to compact notifications. */
  context?: unknown;
}

/** Delivery status kept by the worker in the subscription row. */
export interface DeliveryStatus {
  status?: "ok" | "failed";
  timesSent: number;
  timesFailed: number;
  lastNotification?: string;
  lastSuccess?: string;
  lastFailure?: string;
}

const topMembers = new Set([
  "id",
  "type",
  "subscriptionName",
  "name",
  "description",
  "entities",
  "watchedAttributes",
  "notificationTrigger",
  "timeInterval",
  "q",
  "geoQ",
  "csf",
  "isActive",
  "notification",
  "expiresAt",
  "throttling",
  "lang",
  "jsonldContext",
  "@context",
  // Read-only members a client may send back from a GET; ignored.
  "status",
  "createdAt",
  "modifiedAt",
]);
const notificationMembers = new Set([
  "attributes",
  "format",
  "sysAttrs",
  "endpoint",
  "status",
  "timesSent",
  "timesFailed",
  "lastNotification",
  "lastSuccess",
  "lastFailure",
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function names(value: unknown, what: string, ctx: CompiledContext): string[] {
  if (!Array.isArray(value) || value.length === 0)
    throw badRequest(`${what} must be a non-empty array of names`);
  return value.map((n) => {
    if (typeof n !== "string") throw badRequest(`${what} must hold names (strings)`);
    checkName(n, what);
    return ctx.expand(n);
  });
}

function positive(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    throw badRequest(`${what} must be a number of seconds greater than 0`);
  return value;
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw badRequest(`${what} must be a string`);
  return value;
}

function keyValues(value: unknown, what: string): KeyValue[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw badRequest(`${what} must be an array of {key, value}`);
  return value.map((kv) => {
    if (!isObject(kv) || typeof kv.key !== "string" || typeof kv.value !== "string" || kv.key === "")
      throw badRequest(`${what} must be an array of {key, value} strings`);
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(kv.key))
      throw badRequest(`${what} key ${kv.key} is not a header name`);
    if (/[\r\n]/.test(kv.value)) throw badRequest(`${what} value of ${kv.key} has a line break`);
    return { key: kv.key, value: kv.value };
  });
}

function parseEntities(value: unknown, ctx: CompiledContext): StoredEntitySelector[] {
  if (!Array.isArray(value) || value.length === 0)
    throw badRequest("entities must be a non-empty array of entity selectors");
  return value.map((s) => {
    if (!isObject(s)) throw badRequest("an entity selector must be an object");
    for (const k of Object.keys(s))
      if (!["id", "idPattern", "type"].includes(k)) throw badRequest(`unknown entity selector member ${k}`);
    if (typeof s.type !== "string") throw badRequest("an entity selector needs a type");
    checkName(s.type, "entity type");
    const out: StoredEntitySelector = { type: ctx.expand(s.type) };
    if (s.id !== undefined) {
      if (!isUri(s.id)) throw badRequest(`entity selector id ${JSON.stringify(s.id)} is not a URI`);
      out.id = s.id;
    }
    if (s.idPattern !== undefined) {
      if (typeof s.idPattern !== "string")
        throw badRequest("an entity selector's idPattern must be a string");
      out.idPattern = compilePattern(s.idPattern, "idPattern").source;
    }
    return out;
  });
}

function parseGeo(value: unknown, ctx: CompiledContext): StoredGeoQuery {
  if (!isObject(value)) throw badRequest("geoQ must be an object");
  for (const k of Object.keys(value))
    if (!["geometry", "coordinates", "georel", "geoproperty"].includes(k))
      throw badRequest(`unknown geoQ member ${k}`);
  const parsed = parseGeoQuery(value)!;
  if (!parsed) throw badRequest("geoQ needs georel, geometry and coordinates");
  const coordinates =
    typeof value.coordinates === "string" ? JSON.parse(value.coordinates) : value.coordinates;
  return {
    geometry: value.geometry as string,
    coordinates,
    georel: value.georel as string,
    geoproperty: ctx.expand(parsed.geoproperty),
  };
}

function parseNotification(value: unknown, ctx: CompiledContext): StoredSubscription["notification"] {
  if (!isObject(value)) throw badRequest("a subscription needs a notification object");
  for (const k of Object.keys(value))
    if (!notificationMembers.has(k)) throw badRequest(`unknown notification member ${k}`);
  const format = value.format ?? "normalized";
  if (format !== "normalized" && format !== "keyValues" && format !== "concise")
    throw badRequest("notification.format must be normalized, keyValues or concise");
  if (value.sysAttrs !== undefined && typeof value.sysAttrs !== "boolean")
    throw badRequest("notification.sysAttrs must be a boolean");
  const endpoint = value.endpoint;
  if (!isObject(endpoint)) throw badRequest("notification.endpoint is required");
  for (const k of Object.keys(endpoint))
    if (!["uri", "accept", "receiverInfo", "notifierInfo"].includes(k))
      throw badRequest(`unknown endpoint member ${k}`);
  if (endpoint.uri === undefined) throw badRequest("notification.endpoint.uri is required");
  if (typeof endpoint.uri !== "string" || !isUri(endpoint.uri))
    throw badRequest("notification.endpoint.uri must be a URI");
  let url: URL;
  try {
    url = new URL(endpoint.uri);
  } catch {
    throw badRequest("notification.endpoint.uri must be a URI");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw badRequest(
      `notification.endpoint.uri: ${url.protocol} endpoints are not supported (http and https are)`,
    );
  const accept = endpoint.accept ?? "application/json";
  if (accept !== "application/json" && accept !== "application/ld+json")
    throw badRequest("notification.endpoint.accept must be application/json or application/ld+json");
  const out: StoredSubscription["notification"] = {
    format,
    endpoint: { uri: endpoint.uri, accept },
  };
  if (value.attributes !== undefined)
    out.attributes = names(value.attributes, "notification.attributes", ctx);
  if (value.sysAttrs !== undefined) out.sysAttrs = value.sysAttrs;
  const receiverInfo = keyValues(endpoint.receiverInfo, "receiverInfo");
  const notifierInfo = keyValues(endpoint.notifierInfo, "notifierInfo");
  if (receiverInfo) out.endpoint.receiverInfo = receiverInfo;
  if (notifierInfo) out.endpoint.notifierInfo = notifierInfo;
  return out;
}

/** Reads a whole subscription; throws 400 BadRequestData for anything the spec rules out. */
export function parseSubscription(
  body: unknown,
  ctx: CompiledContext,
  now: Date = new Date(),
): Omit<StoredSubscription, "id"> & { id?: string } {
  if (!isObject(body)) throw badRequest("the body must be a Subscription object");
  for (const k of Object.keys(body))
    if (!topMembers.has(k)) throw badRequest(`unknown Subscription member ${k}`);
  if (body.type !== "Subscription") throw badRequest('a subscription needs "type": "Subscription"');
  const out: Omit<StoredSubscription, "id"> & { id?: string } = {
    isActive: true,
    notification: parseNotification(body.notification, ctx),
  };
  if (body.id !== undefined) {
    if (!isUri(body.id)) throw badRequest(`subscription id ${JSON.stringify(body.id)} is not a URI`);
    out.id = body.id;
  }
  const name = optionalString(body.subscriptionName ?? body.name, "subscriptionName");
  if (name !== undefined) out.subscriptionName = name;
  const description = optionalString(body.description, "description");
  if (description !== undefined) out.description = description;
  if (body.entities !== undefined) out.entities = parseEntities(body.entities, ctx);
  if (body.watchedAttributes !== undefined)
    out.watchedAttributes = names(body.watchedAttributes, "watchedAttributes", ctx);
  if (body.notificationTrigger !== undefined) {
    const t = body.notificationTrigger;
    if (!Array.isArray(t) || t.length === 0 || !t.every((x) => notificationTriggers.includes(x)))
      throw badRequest(`notificationTrigger must be a non-empty array of ${notificationTriggers.join(", ")}`);
    out.notificationTrigger = [...new Set(t as NotificationTrigger[])];
  }
  if (body.timeInterval !== undefined) out.timeInterval = positive(body.timeInterval, "timeInterval");
  if (body.throttling !== undefined) out.throttling = positive(body.throttling, "throttling");
  if (!out.entities && !out.watchedAttributes)
    throw badRequest("a subscription needs entities or watchedAttributes (or both)");
  if (out.timeInterval !== undefined) {
    if (out.watchedAttributes) throw badRequest("timeInterval and watchedAttributes exclude each other");
    if (out.throttling !== undefined) throw badRequest("timeInterval and throttling exclude each other");
    if (out.notificationTrigger) throw badRequest("timeInterval and notificationTrigger exclude each other");
    if (!out.entities) throw badRequest("a periodic subscription (timeInterval) needs entities");
  }
  if (body.q !== undefined) {
    if (typeof body.q !== "string") throw badRequest("q must be a string");
    out.q = body.q;
    out.qPaths = pathsOf(parseQuery(body.q)).map((p) => resolvePath(p, (t) => ctx.expand(t)));
  }
  if (body.geoQ !== undefined) out.geoQ = parseGeo(body.geoQ, ctx);
  const csf = optionalString(body.csf, "csf");
  if (csf !== undefined) out.csf = csf;
  if (body.isActive !== undefined) {
    if (typeof body.isActive !== "boolean") throw badRequest("isActive must be a boolean");
    out.isActive = body.isActive;
  }
  if (body.expiresAt !== undefined) {
    if (!isDateTime(body.expiresAt)) throw badRequest("expiresAt must be an ISO 8601 date-time");
    if (Date.parse(body.expiresAt) <= now.getTime()) throw badRequest("expiresAt must be in the future");
    out.expiresAt = new Date(body.expiresAt).toISOString();
  }
  const lang = optionalString(body.lang, "lang");
  if (lang !== undefined) out.lang = lang;
  if (body.jsonldContext !== undefined) {
    if (!isUri(body.jsonldContext) || !/^https?:\/\//.test(body.jsonldContext))
      throw badRequest("jsonldContext must be an http(s) URL");
    out.jsonldContext = body.jsonldContext;
  }
  return out;
}

/** active, paused or expired (5.2.12). */
export function statusOf(s: StoredSubscription, now = Date.now()): "active" | "paused" | "expired" {
  if (s.expiresAt && Date.parse(s.expiresAt) <= now) return "expired";
  return s.isActive ? "active" : "paused";
}

/** The definition compacted with ctx, without status (also the base a PATCH fragment merges into). */
export function renderDefinition(s: StoredSubscription, ctx: CompiledContext): Record<string, unknown> {
  const c = (iri: string) => ctx.compact(iri);
  const out: Record<string, unknown> = { id: s.id, type: "Subscription" };
  if (s.subscriptionName !== undefined) out.subscriptionName = s.subscriptionName;
  if (s.description !== undefined) out.description = s.description;
  if (s.entities)
    out.entities = s.entities.map((e) => ({
      ...(e.id !== undefined ? { id: e.id } : {}),
      ...(e.idPattern !== undefined ? { idPattern: e.idPattern } : {}),
      type: c(e.type),
    }));
  if (s.watchedAttributes) out.watchedAttributes = s.watchedAttributes.map(c);
  if (s.notificationTrigger) out.notificationTrigger = s.notificationTrigger;
  if (s.timeInterval !== undefined) out.timeInterval = s.timeInterval;
  if (s.q !== undefined) out.q = s.q;
  if (s.geoQ) out.geoQ = { ...s.geoQ, geoproperty: c(s.geoQ.geoproperty) };
  if (s.csf !== undefined) out.csf = s.csf;
  out.isActive = s.isActive;
  const n = s.notification;
  out.notification = {
    ...(n.attributes ? { attributes: n.attributes.map(c) } : {}),
    format: n.format,
    ...(n.sysAttrs !== undefined ? { sysAttrs: n.sysAttrs } : {}),
    endpoint: { ...n.endpoint },
  };
  if (s.expiresAt !== undefined) out.expiresAt = s.expiresAt;
  if (s.throttling !== undefined) out.throttling = s.throttling;
  if (s.lang !== undefined) out.lang = s.lang;
  if (s.jsonldContext !== undefined) out.jsonldContext = s.jsonldContext;
  return out;
}

/** The subscription as GET shows it: the definition plus status and delivery status. */
export function renderSubscription(
  s: StoredSubscription,
  delivery: DeliveryStatus,
  ctx: CompiledContext,
  system?: { createdAt: string; modifiedAt: string },
): Record<string, unknown> {
  const out = renderDefinition(s, ctx);
  out.status = statusOf(s);
  const notification = out.notification as Record<string, unknown>;
  if (delivery.status) notification.status = delivery.status;
  notification.timesSent = delivery.timesSent;
  notification.timesFailed = delivery.timesFailed;
  if (delivery.lastNotification) notification.lastNotification = delivery.lastNotification;
  if (delivery.lastSuccess) notification.lastSuccess = delivery.lastSuccess;
  if (delivery.lastFailure) notification.lastFailure = delivery.lastFailure;
  if (system) Object.assign(out, system);
  return out;
}

/** A PATCH fragment (5.8.2) merged into the current definition: members replace, notification merges one level. */
export function mergeFragment(current: Record<string, unknown>, fragment: unknown): Record<string, unknown> {
  if (!isObject(fragment) || Object.keys(fragment).filter((k) => k !== "@context").length === 0)
    throw badRequest("the body must be a non-empty Subscription fragment");
  const { "@context": _ignored, ...rest } = fragment;
  if (rest.id !== undefined && rest.id !== current.id)
    throw badRequest("the fragment's id differs from the subscription's");
  if (rest.type !== undefined && rest.type !== "Subscription")
    throw badRequest('type must be "Subscription"');
  const merged: Record<string, unknown> = { ...current, ...rest };
  if (isObject(rest.notification) && isObject(current.notification))
    merged.notification = { ...current.notification, ...rest.notification };
  // null removes an optional member (merge-patch style).
  for (const [k, v] of Object.entries(rest)) if (v === null) delete merged[k];
  return merged;
}
