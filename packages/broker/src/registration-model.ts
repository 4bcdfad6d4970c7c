import type { Geometry } from "geojson";
import { checkName, isDateTime, isUri } from "./attributes.ts";
import type { CompiledContext } from "./contexts.ts";
import { geometryProblem } from "./geo.ts";
import { compilePattern } from "./patterns.ts";
import { NgsiLdError, badRequest } from "./problems.ts";
import type { TypeNode } from "./type-query.ts";

/**
 * Context source registrations (ETSI GS CIM 009 v1.8, 5.2.9 CSourceRegistration, 5.2.10
 * RegistrationInfo, 4.3.6 registration modes) in stored form: entity types and attribute names
 * expanded with the request's @context, so that a registration made with one context matches
 * queries made with another. Other members (CSource properties, 4.3.6.1) keep their values with
 * expanded names.
 */
export type RegistrationMode = "inclusive" | "exclusive" | "redirect" | "auxiliary";

/**
 * Modes this broker acts on. Exclusive and redirect registrations take the data away from this
 * broker (writes and reads go to the source only, with conflict checks between registrations,
 * 4.3.6.3-4.3.6.4): not implemented, so they are refused with 422 rather than stored and ignored.
 */
export const supportedModes: readonly RegistrationMode[] = ["inclusive", "auxiliary"];
const allModes: readonly RegistrationMode[] = ["inclusive", "exclusive", "redirect", "auxiliary"];

/** Operation names and groups of table 4.20-1 (v1.8); the groups' members, for matching. */
const operationGroups: Record<string, string[]> = {
  federationOps: [
    "retrieveEntity",
    "queryEntity",
    "queryBatch",
    "retrieveEntityTypes",
    "retrieveEntityTypeDetails",
    "retrieveEntityTypeInfo",
    "retrieveAttrTypes",
    "retrieveAttrTypeDetails",
    "retrieveAttrTypeInfo",
    "createSubscription",
    "updateSubscription",
    "retrieveSubscription",
    "querySubscription",
    "deleteSubscription",
  ],
  updateOps: ["updateEntity", "updateAttrs", "replaceEntity", "replaceAttrs"],
  retrieveOps: ["retrieveEntity", "queryEntity"],
  redirectionOps: [
    "createEntity",
    "updateEntity",
    "appendAttrs",
    "updateAttrs",
    "deleteAttrs",
    "deleteEntity",
    "mergeEntity",
    "replaceEntity",
    "replaceAttrs",
    "retrieveEntity",
    "queryEntity",
    "retrieveEntityTypes",
    "retrieveEntityTypeDetails",
    "retrieveEntityTypeInfo",
    "retrieveAttrTypes",
    "retrieveAttrTypeDetails",
    "retrieveAttrTypeInfo",
  ],
};
const singleOperations = new Set([
  ...Object.values(operationGroups).flat(),
  "createEntity",
  "appendAttrs",
  "deleteAttrs",
  "deleteEntity",
  "mergeEntity",
  "createBatch",
  "upsertBatch",
  "updateBatch",
  "deleteBatch",
  "mergeBatch",
  "retrieveTemporal",
  "queryTemporal",
  "createTemporal",
  "updateTemporal",
  "appendAttrsTemporal",
  "deleteAttrsTemporal",
  "deleteAttrInstanceTemporal",
  "deleteTemporal",
  "mergeTemporal",
  "replaceTemporal",
  "retrieveEntityMap",
  "updateEntityMap",
  "deleteEntityMap",
  "retrieveEntityTypes",
  "retrieveAttrTypes",
]);

/** Whether a registration's operations cover one operation (directly or through a group). */
export const offers = (r: StoredRegistration, operation: string) =>
  r.operations.some((o) => o === operation || operationGroups[o]?.includes(operation));

export interface StoredEntityInfo {
  id?: string;
  idPattern?: string;
  /** Expanded type. */
  type: string;
}

export interface StoredRegistrationInfo {
  entities?: StoredEntityInfo[];
  propertyNames?: string[];
  relationshipNames?: string[];
}

export interface TimeInterval {
  startAt: string;
  endAt?: string;
}

export interface StoredRegistration {
  id: string;
  registrationName?: string;
  description?: string;
  information: StoredRegistrationInfo[];
  /** The tenant at the context source (sent as NGSILD-Tenant when it is asked). */
  tenant?: string;
  observationInterval?: TimeInterval;
  managementInterval?: TimeInterval;
  location?: Geometry;
  observationSpace?: Geometry;
  operationSpace?: Geometry;
  expiresAt?: string;
  endpoint: string;
  contextSourceInfo?: Array<{ key: string; value: string }>;
  scope?: string[];
  mode: RegistrationMode;
  operations: string[];
  refreshRate?: string;
  management?: { localOnly?: boolean; cacheDuration?: number; timeout?: number; cooldown?: number };
  /** CSource properties: expanded name -> value as given. */
  properties?: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The members a registration keeps as they were given (shown back unchanged, beside its information). */
const keptAsGiven = [
  "tenant",
  "observationInterval",
  "managementInterval",
  "location",
  "observationSpace",
  "operationSpace",
  "expiresAt",
  "endpoint",
  "contextSourceInfo",
  "scope",
  "mode",
  "operations",
  "refreshRate",
  "management",
] as const;

const known = new Set([
  "id",
  "type",
  "registrationName",
  "description",
  "information",
  ...keptAsGiven,
  "@context",
]);
/** Members the broker writes (5.2.9 status members, system attributes): ignored on input. */
const readOnly = new Set([
  "createdAt",
  "modifiedAt",
  "status",
  "timesSent",
  "timesFailed",
  "lastSuccess",
  "lastFailure",
]);

function text(v: unknown, what: string): string {
  if (typeof v !== "string" || v === "") throw badRequest(`${what} must be a non-empty string`);
  return v;
}

function nameList(v: unknown, what: string, ctx: CompiledContext): string[] {
  if (!Array.isArray(v) || v.length === 0) throw badRequest(`${what} must be a non-empty array of names`);
  return v.map((n) => {
    const name = text(n, what);
    checkName(name, what);
    return ctx.expand(name);
  });
}

function interval(v: unknown, what: string): TimeInterval {
  if (!isObject(v) || !isDateTime(v.startAt)) throw badRequest(`${what} needs a startAt date-time`);
  const out: TimeInterval = { startAt: new Date(v.startAt).toISOString() };
  if (v.endAt !== undefined) {
    if (!isDateTime(v.endAt)) throw badRequest(`${what}.endAt must be a date-time`);
    if (Date.parse(v.endAt) <= Date.parse(v.startAt)) throw badRequest(`${what}.endAt must be after startAt`);
    out.endAt = new Date(v.endAt).toISOString();
  }
  return out;
}

function geometry(v: unknown, what: string): Geometry {
  const problem = geometryProblem(v);
  if (problem) throw badRequest(`${what} ${problem}`);
  return v as Geometry;
}

function entityInfo(v: unknown, ctx: CompiledContext): StoredEntityInfo {
  if (!isObject(v)) throw badRequest("an information entities item must be an object");
  for (const k of Object.keys(v))
    if (!["id", "idPattern", "type"].includes(k)) throw badRequest(`unknown EntityInfo member ${k}`);
  const type = text(v.type, "an EntityInfo type");
  checkName(type, "entity type");
  const out: StoredEntityInfo = { type: ctx.expand(type) };
  if (v.id !== undefined) {
    if (!isUri(v.id)) throw badRequest(`EntityInfo id ${JSON.stringify(v.id)} is not a URI`);
    out.id = v.id;
  }
  if (v.idPattern !== undefined) {
    if (out.id !== undefined) throw badRequest("an EntityInfo has an id or an idPattern, not both");
    out.idPattern = compilePattern(text(v.idPattern, "idPattern"), "idPattern").source;
  }
  return out;
}

function information(v: unknown, ctx: CompiledContext): StoredRegistrationInfo[] {
  if (!Array.isArray(v) || v.length === 0)
    throw badRequest("information must be a non-empty array of RegistrationInfo");
  return v.map((item) => {
    if (!isObject(item)) throw badRequest("a RegistrationInfo must be an object");
    for (const k of Object.keys(item))
      if (!["entities", "propertyNames", "relationshipNames"].includes(k))
        throw badRequest(`unknown RegistrationInfo member ${k}`);
    const out: StoredRegistrationInfo = {};
    if (item.entities !== undefined) {
      if (!Array.isArray(item.entities) || item.entities.length === 0)
        throw badRequest("information entities must be a non-empty array");
      out.entities = item.entities.map((e) => entityInfo(e, ctx));
    }
    if (item.propertyNames !== undefined)
      out.propertyNames = nameList(item.propertyNames, "propertyNames", ctx);
    if (item.relationshipNames !== undefined)
      out.relationshipNames = nameList(item.relationshipNames, "relationshipNames", ctx);
    if (!out.entities && !out.propertyNames && !out.relationshipNames)
      throw badRequest("a RegistrationInfo needs entities, propertyNames or relationshipNames");
    return out;
  });
}

/**
 * Reads a whole registration (create, and the merged result of an update); 400 BadRequestData for
 * what the spec rules out, 422 OperationNotSupported for the modes this broker does not act on.
 * `keepExpiry` lets an update leave an expiry that has passed since.
 */
export function parseRegistration(
  body: unknown,
  ctx: CompiledContext,
  options: { now?: Date; keepExpiry?: string } = {},
): Omit<StoredRegistration, "id"> & { id?: string } {
  if (!isObject(body)) throw badRequest("the body must be a ContextSourceRegistration object");
  if (body.type !== "ContextSourceRegistration")
    throw badRequest('a registration needs "type": "ContextSourceRegistration"');
  if (body.information === undefined || body.information === null)
    throw badRequest("a registration needs information");
  if (body.endpoint === undefined || body.endpoint === null)
    throw badRequest("a registration needs an endpoint");
  if (!isUri(body.endpoint)) throw badRequest(`endpoint ${JSON.stringify(body.endpoint)} is not a URI`);
  const out: Omit<StoredRegistration, "id"> & { id?: string } = {
    information: information(body.information, ctx),
    endpoint: body.endpoint,
    mode: "inclusive",
    operations: ["federationOps"],
  };
  if (body.id !== undefined) {
    if (!isUri(body.id)) throw badRequest(`registration id ${JSON.stringify(body.id)} is not a URI`);
    out.id = body.id;
  }
  if (body.registrationName !== undefined)
    out.registrationName = text(body.registrationName, "registrationName");
  if (body.description !== undefined) out.description = text(body.description, "description");
  if (body.tenant !== undefined) {
    const tenant = text(body.tenant, "tenant");
    if (tenant.length > 100 || !/^[A-Za-z0-9_.:\-/]+$/.test(tenant))
      throw badRequest(`tenant ${JSON.stringify(tenant)} is not a valid tenant name`);
    out.tenant = tenant;
  }
  if (body.observationInterval !== undefined)
    out.observationInterval = interval(body.observationInterval, "observationInterval");
  if (body.managementInterval !== undefined)
    out.managementInterval = interval(body.managementInterval, "managementInterval");
  for (const g of ["location", "observationSpace", "operationSpace"] as const)
    if (body[g] !== undefined) out[g] = geometry(body[g], g);
  if (body.expiresAt !== undefined) {
    if (!isDateTime(body.expiresAt)) throw badRequest("expiresAt must be an ISO 8601 date-time");
    const expiresAt = new Date(body.expiresAt).toISOString();
    if (expiresAt !== options.keepExpiry && Date.parse(expiresAt) <= (options.now ?? new Date()).getTime())
      throw badRequest("expiresAt must be in the future");
    out.expiresAt = expiresAt;
  }
  if (body.contextSourceInfo !== undefined) {
    const info = body.contextSourceInfo;
    if (
      !Array.isArray(info) ||
      !info.every((kv) => isObject(kv) && typeof kv.key === "string" && typeof kv.value === "string")
    )
      throw badRequest("contextSourceInfo must be an array of {key, value} strings");
    out.contextSourceInfo = info.map((kv) => ({ key: kv.key as string, value: kv.value as string }));
  }
  if (body.scope !== undefined) {
    const scopes = Array.isArray(body.scope) ? body.scope : [body.scope];
    if (scopes.length === 0 || !scopes.every((s) => typeof s === "string" && /^\/\S*$/.test(s)))
      throw badRequest("scope must be a scope (/a/b) or an array of scopes");
    out.scope = scopes as string[];
  }
  if (body.mode !== undefined) {
    if (!allModes.includes(body.mode as RegistrationMode))
      throw badRequest(`mode must be one of ${allModes.join(", ")}`);
    if (!supportedModes.includes(body.mode as RegistrationMode))
      throw new NgsiLdError(
        "OperationNotSupported",
        `mode ${String(body.mode)} is not supported by this broker, which forwards to ${supportedModes.join(" and ")} registrations only`,
      );
    out.mode = body.mode as RegistrationMode;
  }
  if (body.operations !== undefined) {
    const ops = body.operations;
    if (!Array.isArray(ops) || ops.length === 0 || !ops.every((o) => typeof o === "string"))
      throw badRequest("operations must be a non-empty array of operation names");
    for (const o of ops as string[])
      if (!(o in operationGroups) && !singleOperations.has(o)) throw badRequest(`unknown operation ${o}`);
    out.operations = [...new Set(ops as string[])];
  }
  if (body.refreshRate !== undefined) out.refreshRate = text(body.refreshRate, "refreshRate");
  if (body.management !== undefined) {
    const m = body.management;
    if (!isObject(m)) throw badRequest("management must be an object");
    const management: NonNullable<StoredRegistration["management"]> = {};
    for (const [k, v] of Object.entries(m)) {
      if (k === "localOnly") {
        if (typeof v !== "boolean") throw badRequest("management.localOnly must be a boolean");
        management.localOnly = v;
      } else if (k === "cacheDuration" || k === "timeout" || k === "cooldown") {
        if (typeof v !== "number" || !(v > 0)) throw badRequest(`management.${k} must be a positive number`);
        management[k] = v;
      } else throw badRequest(`unknown management member ${k}`);
    }
    out.management = management;
  }
  for (const [k, v] of Object.entries(body)) {
    if (known.has(k) || readOnly.has(k)) continue;
    checkName(k, "registration property");
    if (v === null) continue;
    (out.properties ??= {})[ctx.expand(k)] = v;
  }
  return out;
}

/** The registration compacted with ctx, as GET shows it (and the base an update merges into). */
export function renderRegistration(
  r: StoredRegistration,
  ctx: CompiledContext,
  system?: { createdAt: string; modifiedAt: string },
): Record<string, unknown> {
  const c = (iri: string) => ctx.compact(iri);
  const out: Record<string, unknown> = { id: r.id, type: "ContextSourceRegistration" };
  if (r.registrationName !== undefined) out.registrationName = r.registrationName;
  if (r.description !== undefined) out.description = r.description;
  out.information = r.information.map((i) => ({
    ...(i.entities
      ? {
          entities: i.entities.map((e) => ({
            ...(e.id !== undefined ? { id: e.id } : {}),
            ...(e.idPattern !== undefined ? { idPattern: e.idPattern } : {}),
            type: c(e.type),
          })),
        }
      : {}),
    ...(i.propertyNames ? { propertyNames: i.propertyNames.map(c) } : {}),
    ...(i.relationshipNames ? { relationshipNames: i.relationshipNames.map(c) } : {}),
  }));
  for (const k of keptAsGiven) if (r[k] !== undefined) out[k] = r[k];
  if (r.scope?.length === 1) out.scope = r.scope[0];
  for (const [iri, value] of Object.entries(r.properties ?? {})) out[c(iri)] = value;
  if (system) Object.assign(out, system);
  return out;
}

/** An update fragment (5.9.3) merged into the current definition: members replace, null removes. */
export function mergeRegistration(
  current: Record<string, unknown>,
  fragment: unknown,
): Record<string, unknown> {
  if (!isObject(fragment) || Object.keys(fragment).filter((k) => k !== "@context").length === 0)
    throw badRequest("the body must be a non-empty ContextSourceRegistration fragment");
  const { "@context": _ignored, ...rest } = fragment;
  if (rest.id !== undefined && rest.id !== current.id)
    throw badRequest("the fragment's id differs from the registration's");
  if (rest.type !== undefined && rest.type !== "ContextSourceRegistration")
    throw badRequest('type must be "ContextSourceRegistration"');
  if ("information" in rest && rest.information === null) throw badRequest("information cannot be removed");
  if ("endpoint" in rest && rest.endpoint === null) throw badRequest("endpoint cannot be removed");
  const merged: Record<string, unknown> = { ...current, ...rest };
  for (const [k, v] of Object.entries(rest)) if (v === null) delete merged[k];
  return merged;
}

/** Whether a registration is in force now: not expired, and inside its managementInterval if it has one. */
export function inForce(r: StoredRegistration, now = Date.now()): boolean {
  if (r.expiresAt && Date.parse(r.expiresAt) <= now) return false;
  const m = r.managementInterval;
  if (m && (Date.parse(m.startAt) > now || (m.endAt && Date.parse(m.endAt) <= now))) return false;
  return true;
}

/** What a query of registrations, or a query of entities to forward, asks about (names expanded). */
export interface RegistrationFilter {
  types?: TypeNode;
  ids?: string[];
  idPattern?: string;
  attrs?: string[];
}

/** Whether an entity of type `type` satisfies a type selection (4.17), names expanded by `expand`. */
function typeMatches(node: TypeNode, type: string, expand: (t: string) => string): boolean {
  if (node.kind === "name") return expand(node.name) === type;
  return node.kind === "and"
    ? node.items.every((i) => typeMatches(i, type, expand))
    : node.items.some((i) => typeMatches(i, type, expand));
}

function entityInfoMatches(
  e: StoredEntityInfo,
  f: RegistrationFilter,
  expand: (t: string) => string,
): boolean {
  if (f.types && !typeMatches(f.types, e.type, expand)) return false;
  if (f.ids) {
    if (e.id !== undefined && !f.ids.includes(e.id)) return false;
    if (e.idPattern !== undefined && !f.ids.some((id) => compilePattern(e.idPattern!, "idPattern").test(id)))
      return false;
  }
  // Two patterns cannot be compared: a registration's idPattern may cover what the query's matches.
  if (f.idPattern && e.id !== undefined && !compilePattern(f.idPattern, "idPattern").test(e.id)) return false;
  return true;
}

/**
 * The information items of a registration that match a filter (5.10.2.4, 4.3.6.2): an item with
 * entities needs one that matches the type and id selection; an item with attribute names needs one
 * of the asked attributes; an item without entities matches any entity, one without names any
 * attribute.
 */
export function matchingInfo(
  r: StoredRegistration,
  f: RegistrationFilter,
  expand: (t: string) => string,
): StoredRegistrationInfo[] {
  return r.information.filter((i) => {
    if (i.entities) {
      if (!i.entities.some((e) => entityInfoMatches(e, f, expand))) return false;
    }
    const names = [...(i.propertyNames ?? []), ...(i.relationshipNames ?? [])];
    if (f.attrs && names.length > 0 && !f.attrs.some((a) => names.includes(a))) return false;
    return true;
  });
}
