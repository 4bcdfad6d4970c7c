import { sql, type SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkName, isDateTime, isUri, parseAttribute, parseTypes } from "./attributes.ts";
import type { Broker } from "./broker.ts";
import type { CompiledContext } from "./contexts.ts";
import { parseGeoQuery } from "./geo.ts";
import { instanceMembers, NGSI_LD_NULL, valueMemberOf, type Instance } from "./model.ts";
import {
  boolParam,
  checkParams,
  intParam,
  listParam,
  pageParams,
  stringParam,
  type Query,
} from "./params.ts";
import { badRequest, notFound } from "./problems.ts";
import { checkPattern, runQuery, type EntityQuery } from "./query.ts";
import { parseQuery } from "./query-language.ts";
import { renderInstance, type RenderOptions } from "./representation.ts";
import { ngsiRequest, pathSegment, sendJson, type NgsiRequest } from "./request.ts";
import { toPgArray } from "./storage.ts";
import { type InstanceRow, type TemporalStore, type TimeProperty, type TimeQuery } from "./temporal-store.ts";
import { parseTypeQuery, typeCondition } from "./type-query.ts";

/**
 * The temporal API (ETSI GS CIM 009 v1.8, 5.6.11-5.6.16 and 5.7.3-5.7.4; binding 6.18-6.21):
 * query and retrieve the history written by history.ts, create entities' histories and append
 * instances directly. Representation 4.5.7 (arrays of instances with instanceId) and 4.5.9
 * (options=temporalValues: [[value, time], ...]).
 */
const readParams = [
  "attrs",
  "q",
  "georel",
  "geometry",
  "coordinates",
  "geoproperty",
  "timerel",
  "timeAt",
  "endTimeAt",
  "timeproperty",
  "lastN",
  "options",
  "format",
  "lang",
  "local",
];
const valuesMember: Record<string, string> = {
  Property: "values",
  GeoProperty: "values",
  Relationship: "objects",
  LanguageProperty: "languageMaps",
  VocabProperty: "vocabs",
  JsonProperty: "jsons",
  ListProperty: "valueLists",
  ListRelationship: "objectLists",
};

function timeQueryOf(query: Query): TimeQuery {
  const timerel = stringParam(query, "timerel");
  const timeAt = stringParam(query, "timeAt");
  const endTimeAt = stringParam(query, "endTimeAt");
  const timeproperty = (stringParam(query, "timeproperty") ?? "observedAt") as TimeProperty;
  if (!["observedAt", "createdAt", "modifiedAt"].includes(timeproperty))
    throw badRequest("timeproperty must be observedAt, createdAt or modifiedAt");
  if (timerel === undefined) {
    if (timeAt !== undefined || endTimeAt !== undefined)
      throw badRequest("timeAt and endTimeAt need timerel");
    return { timeproperty };
  }
  if (timerel !== "before" && timerel !== "after" && timerel !== "between")
    throw badRequest("timerel must be before, after or between");
  if (!isDateTime(timeAt)) throw badRequest("timerel needs timeAt, an ISO 8601 date-time");
  if (timerel === "between") {
    if (!isDateTime(endTimeAt)) throw badRequest("timerel=between needs endTimeAt, an ISO 8601 date-time");
    if (Date.parse(endTimeAt) <= Date.parse(timeAt)) throw badRequest("endTimeAt must be after timeAt");
  } else if (endTimeAt !== undefined) throw badRequest("endTimeAt is only allowed with timerel=between");
  return { timerel, timeAt, endTimeAt, timeproperty };
}

interface TemporalOptions {
  temporalValues: boolean;
  sysAttrs: boolean;
}

function temporalOptions(query: Query): TemporalOptions {
  const list = [...(listParam(query, "options") ?? []), ...(listParam(query, "format") ?? [])];
  for (const o of list)
    if (!["temporalValues", "sysAttrs", "normalized"].includes(o))
      throw badRequest(`option ${o} is not supported by the temporal API of this broker`);
  return { temporalValues: list.includes("temporalValues"), sysAttrs: list.includes("sysAttrs") };
}

/** One entity's temporal representation. */
function renderTemporal(
  entity: { id: string; types: string[] },
  rows: InstanceRow[],
  ctx: CompiledContext,
  options: TemporalOptions,
): Record<string, unknown> {
  const types = entity.types.map((t) => ctx.compact(t));
  const out: Record<string, unknown> = { id: entity.id, type: types.length === 1 ? types[0] : types };
  const render: RenderOptions = { format: "normalized", sysAttrs: options.sysAttrs };
  const byAttribute = new Map<string, InstanceRow[]>();
  for (const row of rows) byAttribute.set(row.attribute, [...(byAttribute.get(row.attribute) ?? []), row]);
  for (const [attribute, list] of byAttribute) {
    const name = ctx.compact(attribute);
    if (!options.temporalValues) {
      out[name] = list.map((r) => ({
        ...(renderInstance(r.value, ctx, render) as object),
        instanceId: r.instance_id,
      }));
      continue;
    }
    // Simplified temporal representation, one object per datasetId.
    const byDataset = new Map<string, InstanceRow[]>();
    for (const r of list) {
      const key = r.value.datasetId ?? "";
      byDataset.set(key, [...(byDataset.get(key) ?? []), r]);
    }
    const objects = [...byDataset.entries()].map(([datasetId, instances]) => {
      const kind = instances[0]!.value.type;
      const values = instances.map((r) => [valueOf(r.value, ctx), new Date(r.time).toISOString()]);
      return { type: kind, ...(datasetId ? { datasetId } : {}), [valuesMember[kind] ?? "values"]: values };
    });
    out[name] = objects.length === 1 ? objects[0] : objects;
  }
  return out;
}

function valueOf(instance: Instance, ctx: CompiledContext): unknown {
  const v = instance[valueMemberOf[instance.type]];
  if (instance.type === "VocabProperty")
    return Array.isArray(v) ? v.map((x) => ctx.compact(x as string)) : ctx.compact(v as string);
  return v;
}

/** Reads the attributes of a temporal entity body: each an instance or an array of instances. */
function parseInstances(
  body: Record<string, unknown>,
  ctx: CompiledContext,
  now: string,
): Array<[string, Instance]> {
  const out: Array<[string, Instance]> = [];
  for (const [name, raw] of Object.entries(body)) {
    if (["id", "@id", "type", "@type", "@context", "createdAt", "modifiedAt"].includes(name)) continue;
    checkName(name, "attribute");
    const attribute = ctx.expand(name);
    for (const item of Array.isArray(raw) ? raw : [raw]) {
      const parsed = parseAttribute(name, item, ctx, "full");
      if (parsed === "delete") throw badRequest(`attribute ${name} cannot be null`);
      for (const instance of parsed) {
        // Fresh objects of this request's parse: stamped in place.
        instance.createdAt = now;
        instance.modifiedAt = now;
        out.push([attribute, instance]);
      }
    }
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The body of a PATCH on an instance: the instance fragment itself (as the ETSI test suite sends
 * it), or wrapped under the attribute's name, alone or in an array of one (as Stellio accepts it).
 */
function instanceFragment(body: unknown, attrId: string, attribute: string, ctx: CompiledContext): Instance {
  if (!isObject(body)) throw badRequest("the body must be an attribute instance fragment (a JSON object)");
  const { "@context": _context, ...rest } = body;
  let raw: unknown = rest;
  const keys = Object.keys(rest);
  if (keys.length === 1 && !instanceMembers.has(keys[0]!) && ctx.expand(keys[0]!) === attribute) {
    raw = rest[keys[0]!];
    if (Array.isArray(raw)) {
      if (raw.length !== 1) throw badRequest("the body must hold one attribute instance");
      raw = raw[0];
    }
  }
  if (!isObject(raw) || Object.keys(raw).length === 0)
    throw badRequest("the body is an empty attribute instance fragment");
  if (raw.instanceId !== undefined) throw badRequest("an instance's instanceId cannot be changed");
  const parsed = parseAttribute(attrId, raw, ctx, "fragment");
  if (parsed === "delete" || parsed.length !== 1) throw badRequest("the body must be one attribute instance");
  return parsed[0]!;
}

/** The fragment's members over the stored instance; another attribute type replaces it whole. */
function mergeInstance(
  existing: Instance,
  fragment: Instance,
  attrId: string,
  ctx: CompiledContext,
  now: string,
): Instance {
  const stamps = { createdAt: existing.createdAt ?? now, modifiedAt: now };
  if (fragment.type && fragment.type !== existing.type) {
    const whole = parseAttribute(attrId, fragment, ctx, "full");
    if (whole === "delete") throw badRequest("the body must be one attribute instance");
    return { ...whole[0]!, ...stamps };
  }
  const next: Instance = { ...existing, ...fragment, type: existing.type, ...stamps };
  for (const [key, v] of Object.entries(next))
    if (v === NGSI_LD_NULL && !instanceMembers.has(key)) delete next[key];
  return next;
}

export function registerTemporalRoutes(app: FastifyInstance, broker: Broker, temporal: TemporalStore): void {
  const { contexts } = broker;
  const location = (id: string) => `${broker.prefix}/temporal/entities/${pathSegment(id)}`;
  const entityId = (params: unknown): string => {
    const id = (params as { entityId: string }).entityId;
    if (!isUri(id)) throw badRequest(`entity id ${JSON.stringify(id)} is not a URI`);
    return id;
  };

  /** Entity conditions on broker_temporal_entities (columns id, types). */
  async function selection(ngsi: NgsiRequest, query: Query, time: TimeQuery, id?: string): Promise<SQL[]> {
    const ctx = ngsi.context;
    const where: SQL[] = [];
    const type = stringParam(query, "type");
    const ids = id ? [id] : listParam(query, "id");
    const idPattern = stringParam(query, "idPattern");
    const types = type !== undefined ? parseTypeQuery(type) : undefined;
    if (types) where.push(typeCondition(types, (t) => ctx.expand(t)));
    if (ids) where.push(sql`id = ANY(${toPgArray(ids)}::text[])`);
    if (idPattern !== undefined) where.push(sql`id ~ ${checkPattern(idPattern)}`);
    const attrs = listParam(query, "attrs")?.map((a) => ctx.expand(a));
    if (attrs || time.timerel) where.push(temporal.hasInstances({ ...time, attrs }));
    // q and geo-queries apply to the entities' current values (broker_entities).
    const q = stringParam(query, "q");
    const geo = parseGeoQuery({
      georel: stringParam(query, "georel"),
      geometry: stringParam(query, "geometry"),
      coordinates: stringParam(query, "coordinates"),
      geoproperty: stringParam(query, "geoproperty"),
    });
    if (q !== undefined || geo) {
      const current: EntityQuery = {
        selectors: types || ids || idPattern ? [{ types, ids, idPattern }] : [],
        q: q !== undefined ? parseQuery(q) : undefined,
        geo,
      };
      const found = await runQuery(broker, ngsi, current, { limit: 100_000, offset: 0, count: false });
      where.push(sql`id = ANY(${toPgArray(found.entities.map((e) => e.id))}::text[])`);
    }
    if (!id && !types && !ids && idPattern === undefined && !attrs)
      throw badRequest("a temporal query needs type, id, idPattern or attrs");
    return where;
  }

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    ngsi: NgsiRequest,
    query: Query,
    entities: Array<{ id: string; types: string[] }>,
    time: TimeQuery,
    single: boolean,
  ) {
    const options = temporalOptions(query);
    const lastN = intParam(query, "lastN", 1);
    const cap = broker.temporalInstanceCap;
    const rows = await temporal.instances(
      ngsi.tenant,
      entities.map((e) => e.id),
      { ...time, attrs: listParam(query, "attrs")?.map((a) => ngsi.context.expand(a)), lastN, cap },
    );
    // More than cap instances of an attribute: the first cap are sent with 206 (6.3.10 temporal pagination).
    const groups = new Map<string, InstanceRow[]>();
    for (const r of rows) {
      const key = `${r.entity_id}\n${r.attribute}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    let cutAt: number | undefined;
    let from: number | undefined;
    const kept: InstanceRow[] = [];
    for (const list of groups.values()) {
      const first = new Date(list[0]!.time).getTime();
      from = from === undefined ? first : Math.min(from, first);
      if (lastN === undefined && list.length > cap) {
        list.length = cap;
        const last = new Date(list[cap - 1]!.time).getTime();
        cutAt = cutAt === undefined ? last : Math.min(cutAt, last);
      }
      kept.push(...list);
    }
    const byEntity = new Map<string, InstanceRow[]>();
    for (const r of kept) byEntity.set(r.entity_id, [...(byEntity.get(r.entity_id) ?? []), r]);
    const body = entities.map((e) => renderTemporal(e, byEntity.get(e.id) ?? [], ngsi.context, options));
    if (cutAt !== undefined) {
      reply.code(206);
      reply.header(
        "content-range",
        `date-time ${new Date(from!).toISOString()}-${new Date(cutAt).toISOString()}/*`,
      );
    }
    void request;
    return sendJson(reply, ngsi, single ? body[0] : body);
  }

  app.get("/temporal/entities", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["type", "id", "idPattern", "limit", "offset", "count", ...readParams]);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const time = timeQueryOf(query);
    const { limit, offset, count } = pageParams(query, broker);
    temporalOptions(query);
    await broker.store.requireTenant(ngsi.tenant);
    const where = await selection(ngsi, query, time);
    if (count) reply.header("NGSILD-Results-Count", String(await temporal.count(ngsi.tenant, where)));
    const entities = limit === 0 ? [] : await temporal.entities(ngsi.tenant, where, limit, offset);
    return answer(request, reply, ngsi, query, entities, time, false);
  });

  app.get("/temporal/entities/:entityId", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, readParams);
    const id = entityId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const time = timeQueryOf(query);
    temporalOptions(query);
    const found = await temporal.exists(ngsi.tenant, id);
    if (!found) throw notFound(`entity ${id} has no temporal history`);
    return answer(request, reply, ngsi, query, [{ id, types: found.types }], time, true);
  });

  app.post("/temporal/entities", async (request, reply) => {
    checkParams(request.query as Query, []);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const body = request.body;
    if (!isObject(body)) throw badRequest("the body must be a temporal entity (a JSON object)");
    const id = body.id ?? body["@id"];
    if (!isUri(id)) throw badRequest("the temporal entity needs an id (a URI)");
    const typeValue = body.type ?? body["@type"];
    if (typeValue === undefined) throw badRequest("the temporal entity needs a type");
    const types = parseTypes(typeValue, ngsi.context);
    const now = new Date().toISOString();
    const written = parseInstances(body, ngsi.context, now);
    await broker.store.ensureTenant(ngsi.tenant);
    const existing = await temporal.exists(ngsi.tenant, id);
    const all = existing ? [...existing.types, ...types.filter((t) => !existing.types.includes(t))] : types;
    const created = await temporal.write(ngsi.tenant, { id, types: all, written }, now);
    if (!created) return reply.code(204).send();
    return reply.code(201).header("location", location(id)).send();
  });

  app.post("/temporal/entities/:entityId/attrs", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = entityId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const body = request.body;
    if (!isObject(body)) throw badRequest("the body must be a temporal entity fragment (a JSON object)");
    if (body.id !== undefined && body.id !== id)
      throw badRequest(`the body's id ${String(body.id)} differs from ${id}`);
    const existing = await temporal.exists(ngsi.tenant, id);
    if (!existing) throw notFound(`entity ${id} has no temporal history`);
    const now = new Date().toISOString();
    const written = parseInstances(body, ngsi.context, now);
    if (written.length === 0) throw badRequest("the body has no attribute instances");
    await temporal.write(ngsi.tenant, { id, types: existing.types, written }, now);
    return reply.code(204).send();
  });

  /** The attribute of a temporal route, checked and expanded, and its entity, which must have a history. */
  async function target(request: FastifyRequest, ngsi: NgsiRequest) {
    const id = entityId(request.params);
    const { attrId, instanceId } = request.params as { attrId: string; instanceId?: string };
    checkName(attrId, "attribute");
    if (instanceId !== undefined && !isUri(instanceId))
      throw badRequest(`instance id ${JSON.stringify(instanceId)} is not a URI`);
    const existing = await temporal.exists(ngsi.tenant, id);
    if (!existing) throw notFound(`entity ${id} has no temporal history`);
    return { id, attrId, attribute: ngsi.context.expand(attrId), instanceId: instanceId! };
  }

  // Delete Attribute from Temporal Representation of an Entity (5.6.13).
  app.delete("/temporal/entities/:entityId/attrs/:attrId", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["datasetId", "deleteAll"]);
    const datasetId = stringParam(query, "datasetId");
    if (datasetId !== undefined && !isUri(datasetId)) throw badRequest("datasetId must be a URI");
    const deleteAll = boolParam(query, "deleteAll");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const { id, attrId, attribute } = await target(request, ngsi);
    const removed = await temporal.removeAttribute(ngsi.tenant, id, attribute, { datasetId, deleteAll });
    if (removed === 0)
      throw notFound(
        `entity ${id} has no instance of ${attrId}${deleteAll ? "" : datasetId ? ` with datasetId ${datasetId}` : " without datasetId"}`,
      );
    return reply.code(204).send();
  });

  // Modify Attribute Instance in Temporal Representation of an Entity (5.6.14).
  app.patch("/temporal/entities/:entityId/attrs/:attrId/:instanceId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const { id, attrId, attribute, instanceId } = await target(request, ngsi);
    const fragment = instanceFragment(request.body, attrId, attribute, ngsi.context);
    const existing = await temporal.instance(ngsi.tenant, id, attribute, instanceId);
    if (!existing) throw notFound(`${attrId} of ${id} has no instance ${instanceId}`);
    const now = new Date().toISOString();
    const next = mergeInstance(existing, fragment, attrId, ngsi.context, now);
    if (!(await temporal.replaceInstance(ngsi.tenant, id, attribute, instanceId, next)))
      throw notFound(`${attrId} of ${id} has no instance ${instanceId}`);
    return reply.code(204).send();
  });

  // Delete Attribute Instance from Temporal Representation of an Entity (5.6.15).
  app.delete("/temporal/entities/:entityId/attrs/:attrId/:instanceId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const { id, attrId, attribute, instanceId } = await target(request, ngsi);
    if (!(await temporal.removeInstance(ngsi.tenant, id, attribute, instanceId)))
      throw notFound(`${attrId} of ${id} has no instance ${instanceId}`);
    return reply.code(204).send();
  });

  app.delete("/temporal/entities/:entityId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = entityId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    if (!(await temporal.remove(ngsi.tenant, id))) throw notFound(`entity ${id} has no temporal history`);
    return reply.code(204).send();
  });
}
