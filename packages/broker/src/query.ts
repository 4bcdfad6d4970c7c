import { sql, type SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Geometry } from "geojson";
import type { Broker } from "./broker.ts";
import type { CompiledContext } from "./contexts.ts";
import type { EntityMatcher } from "./counts.ts";
import { queryWithSources } from "./federation.ts";
import { geoMatches, parseGeoQuery, type GeoQuery } from "./geo.ts";
import { boxDecision } from "./geo-box.ts";
import { geoCandidates, geoExact } from "./geo-sql.ts";
import type { StoredEntity } from "./model.ts";
import {
  boolParam,
  checkParams,
  listParam,
  pageParams,
  stringParam,
  type Page,
  type Query,
} from "./params.ts";
import { compilePattern } from "./patterns.ts";
import { badRequest } from "./problems.ts";
import {
  evaluate,
  parseQuery,
  pathsOf,
  resolvePath,
  type QueryNode,
  type Resolved,
} from "./query-language.ts";
import { translate } from "./query-sql.ts";
import { renderEntity, renderOptions } from "./representation.ts";
import { ngsiRequest, sendJson, type NgsiRequest } from "./request.ts";
import { toPgArray } from "./storage.ts";
import { parseTypeQuery, typeCondition, typeMatches, type TypeNode } from "./type-query.ts";

/** Query Entities (5.7.2) by GET /entities and by POST /entityOperations/query (6.23). */

export interface EntitySelector {
  types?: TypeNode;
  ids?: string[];
  idPattern?: string;
}

export interface EntityQuery {
  /** Alternatives (any may match); empty = no selection by id or type. */
  selectors: EntitySelector[];
  attrs?: string[];
  q?: QueryNode;
  geo?: GeoQuery;
}

export function checkPattern(pattern: string): string {
  return compilePattern(pattern, "idPattern").source;
}

function selectorCondition(s: EntitySelector, ctx: CompiledContext): SQL | undefined {
  const parts: SQL[] = [];
  if (s.types) parts.push(typeCondition(s.types, (t) => ctx.expand(t)));
  if (s.ids) parts.push(sql`id = ANY(${toPgArray(s.ids)}::text[])`);
  // PostgreSQL's ~ and JS RegExp agree on the patterns ids are matched with (classes, anchors, alternation).
  if (s.idPattern) parts.push(sql`id ~ ${s.idPattern}`);
  return parts.length ? sql`(${sql.join(parts, sql` AND `)})` : undefined;
}

/**
 * The selectors in JS, exactly as selectorCondition decides in SQL; undefined when one has an
 * idPattern (PostgreSQL's regular expressions are not JS's in every corner).
 */
function selectorMatcher(selectors: EntitySelector[], ctx: CompiledContext): EntityMatcher | undefined {
  if (selectors.some((s) => s.idPattern !== undefined)) return undefined;
  const expand = (t: string) => ctx.expand(t);
  return (e) =>
    selectors.length === 0 ||
    selectors.some(
      (s) => (!s.types || typeMatches(s.types, expand, e.types)) && (!s.ids || s.ids.includes(e.id)),
    );
}

/** Runs a query: in SQL alone when it can, else SQL as a prefilter and the rest in JS. */
export async function runQuery(
  broker: Broker,
  ngsi: NgsiRequest,
  query: EntityQuery,
  page: Page,
): Promise<{ entities: StoredEntity[]; total?: number; more: boolean }> {
  const ctx = ngsi.context;
  const where: SQL[] = [];
  const selectors = query.selectors
    .map((s) => selectorCondition(s, ctx))
    .filter((s): s is SQL => s !== undefined);
  if (selectors.length) where.push(sql`(${sql.join(selectors, sql` OR `)})`);
  const shown = query.attrs?.length ? query.attrs.map((a) => ctx.expand(a)) : undefined;
  if (shown) where.push(sql`attrs ?| ${toPgArray(shown)}::text[]`);
  let jsFilter: JsFilter | undefined;
  // The whole condition in JS, when SQL alone answers it: counts follow writes with it (counts.ts).
  let matches = query.geo ? undefined : selectorMatcher(query.selectors, ctx);
  if (matches && shown) {
    const selected = matches;
    matches = (e) => selected(e) && shown.some((a) => Object.hasOwn(e.attrs, a));
  }
  if (query.q) {
    const resolved: Resolved = new Map(
      pathsOf(query.q).map((p) => [p, resolvePath(p, (t) => ctx.expand(t))]),
    );
    const translation = translate(query.q, resolved);
    if (translation.where) where.push(translation.where);
    const q = query.q;
    if (!translation.exact)
      jsFilter = {
        test: (e) => evaluate(q, e.attrs, resolved),
        key: JSON.stringify(["q", q, [...resolved.values()]]),
      };
    else if (matches) {
      const selected = matches;
      matches = (e) => selected(e) && evaluate(q, e.attrs, resolved);
    }
  }
  if (!query.geo) return selectPage(broker, ngsi, where, jsFilter, page, matches, typeOnly(query, ctx));
  const geo = query.geo;
  const iri = ctx.expand(geo.geoproperty);
  where.push(sql`attrs ? ${iri}`);
  // The spatial index selects the candidates; PostGIS or turf (geoMatches) decides on those only.
  const candidates = geoCandidates(geo);
  if (candidates) where.push(candidates);
  const inGeo = (e: StoredEntity) =>
    (e.attrs[iri] ?? []).some((i) => i.type === "GeoProperty" && geoMatches(i.value as Geometry, geo));
  // A box of points (the map's area) is decided in SQL; turf sees only the entities of other shapes.
  const box = jsFilter ? undefined : boxDecision(geo, iri);
  if (box) {
    const { entities, total } = await broker.store.selectDecided(
      ngsi.tenant,
      where,
      { sure: box.exact, unsure: box.unsure },
      inGeo,
      JSON.stringify(["geo", geo, iri]),
      { offset: page.offset, limit: page.limit },
    );
    return { entities, total, more: page.offset + page.limit < total };
  }
  if ((await broker.spatial()).postgis) {
    try {
      return await selectPage(broker, ngsi, [...where, geoExact(geo, iri)], jsFilter, page);
    } catch (error) {
      // GEOS refuses some invalid geometries a client stored (a self-crossing ring): turf decides then.
      if (!isGeometryError(error)) throw error;
    }
  }
  const previous = jsFilter;
  const geoFilter: JsFilter = {
    test: previous ? (e) => previous.test(e) && inGeo(e) : inGeo,
    key: JSON.stringify(["geo", geo, iri, previous?.key ?? null]),
  };
  return selectPage(broker, ngsi, where, geoFilter, page);
}

/** The (expanded) type of a query by one type alone, whose count the store keeps (type-counts.ts). */
function typeOnly(query: EntityQuery, ctx: CompiledContext): string | undefined {
  const [selector, ...others] = query.selectors;
  if (others.length || query.attrs?.length || query.q || query.geo) return undefined;
  if (selector?.types?.kind !== "name" || selector.ids || selector.idPattern !== undefined) return undefined;
  return ctx.expand(selector.types.name);
}

/** A condition SQL cannot decide exactly, tested in JS; `key` names it (the same key, the same test). */
interface JsFilter {
  test: (e: StoredEntity) => boolean;
  key: string;
}

/** PostGIS failing on a stored geometry (GEOS TopologyException, a parse error): SQLSTATE XX000 or 22023. */
const isGeometryError = (error: unknown) => {
  const e = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
  return e.code === "XX000" || e.code === "22023";
};

/** The page (and count) of a selection: in SQL alone, or all of it through the JS filter. */
async function selectPage(
  broker: Broker,
  ngsi: NgsiRequest,
  where: SQL[],
  jsFilter: JsFilter | undefined,
  page: Page,
  /** The whole condition in JS, when SQL alone answers it: a remembered count follows writes with it. */
  matches?: EntityMatcher,
  /** The query selects this type alone: its count is kept by the writes. */
  countedType?: string,
): Promise<{ entities: StoredEntity[]; total?: number; more: boolean }> {
  if (jsFilter) {
    const { entities, total } = await broker.store.selectFiltered(
      ngsi.tenant,
      where,
      jsFilter.test,
      jsFilter.key,
      {
        offset: page.offset,
        limit: page.limit,
      },
    );
    return { entities, total, more: page.offset + page.limit < total };
  }
  // The count and the page run side by side (two connections on PostgreSQL): the answer waits for
  // the slower one, usually the count. One row more than the page tells whether a next page exists.
  const [total, rows] = await Promise.all([
    !page.count
      ? undefined
      : countedType !== undefined
        ? broker.store.countOfType(ngsi.tenant, countedType)
        : broker.store.count(ngsi.tenant, where, matches),
    page.limit === 0
      ? []
      : broker.store.select(ngsi.tenant, { where, limit: page.limit + 1, offset: page.offset }),
  ]);
  return { entities: rows.slice(0, page.limit), total, more: rows.length > page.limit };
}

/** rel="prev"/"next" Link headers with the same query and a moved offset. */
function paginationLinks(request: FastifyRequest, page: Page, more: boolean): string[] {
  const links: string[] = [];
  const url = new URL(request.url, "http://broker.invalid");
  const at = (offset: number) => {
    url.searchParams.set("offset", String(offset));
    url.searchParams.set("limit", String(page.limit));
    return `${url.pathname}${url.search}`;
  };
  if (page.offset > 0 && page.limit > 0)
    links.push(`<${at(Math.max(0, page.offset - page.limit))}>; rel="prev"; type="application/ld+json"`);
  if (more && page.limit > 0)
    links.push(`<${at(page.offset + page.limit)}>; rel="next"; type="application/ld+json"`);
  return links;
}

async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  broker: Broker,
  ngsi: NgsiRequest,
  query: EntityQuery,
  page: Page,
  params: Query,
) {
  await broker.store.requireTenant(ngsi.tenant);
  const shown = query.attrs ? new Set(query.attrs.map((a) => ngsi.context.expand(a))) : undefined;
  const options = renderOptions(stringParam(params, "options"), stringParam(params, "format"), shown);
  // With the matching inclusive registrations' sources (federation.ts), unless local=true.
  const result = await queryWithSources(broker, request, reply, ngsi, query, page, (p) =>
    runQuery(broker, ngsi, query, p),
  );
  if (result.total !== undefined && page.count) reply.header("NGSILD-Results-Count", String(result.total));
  const links = paginationLinks(request, page, result.more);
  if (links.length) reply.header("link", links);
  return sendJson(
    reply,
    ngsi,
    result.entities.map((e) => renderEntity(e, ngsi.context, options)),
  );
}

const readParams = ["options", "format", "limit", "offset", "count", "lang", "local", "csf"];

export function registerQueryRoutes(app: FastifyInstance, broker: Broker): void {
  app.get("/entities", async (request, reply) => {
    const params = request.query as Query;
    checkParams(params, [
      "type",
      "id",
      "idPattern",
      "attrs",
      "q",
      "georel",
      "geometry",
      "coordinates",
      "geoproperty",
      "scopeQ",
      ...readParams,
    ]);
    const ngsi = await ngsiRequest(request, broker.contexts, { hasBody: false });
    const page = pageParams(params, broker);
    const type = stringParam(params, "type");
    const idPattern = stringParam(params, "idPattern");
    const selector: EntitySelector = {
      types: type !== undefined ? parseTypeQuery(type) : undefined,
      ids: listParam(params, "id"),
      idPattern: idPattern !== undefined ? checkPattern(idPattern) : undefined,
    };
    const q = stringParam(params, "q");
    const query: EntityQuery = {
      selectors: selector.types || selector.ids || selector.idPattern ? [selector] : [],
      attrs: listParam(params, "attrs"),
      q: q !== undefined ? parseQuery(q) : undefined,
      geo: parseGeoQuery({
        georel: stringParam(params, "georel"),
        geometry: stringParam(params, "geometry"),
        coordinates: stringParam(params, "coordinates"),
        geoproperty: stringParam(params, "geoproperty"),
      }),
    };
    if (stringParam(params, "scopeQ") !== undefined)
      throw badRequest("scopeQ is not supported by this broker yet");
    if (!query.selectors.length && !query.attrs && !query.q && !query.geo && !boolParam(params, "local"))
      throw badRequest(
        "a query needs at least one of type, id, idPattern, attrs, q or a geo-query (or local=true)",
      );
    return answer(request, reply, broker, ngsi, query, page, params);
  });

  app.post("/entityOperations/query", async (request, reply) => {
    const params = request.query as Query;
    checkParams(params, readParams);
    const ngsi = await ngsiRequest(request, broker.contexts, { hasBody: true });
    const page = pageParams(params, broker);
    return answer(request, reply, broker, ngsi, queryFromBody(request.body), page, params);
  });
}

/** The Query data type (5.2.23) of POST /entityOperations/query. */
function queryFromBody(body: unknown): EntityQuery {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("the body must be a Query object");
  const b = body as Record<string, unknown>;
  const known = ["type", "entities", "attrs", "q", "geoQ", "@context", "lang", "temporalQ", "scopeQ", "csf"];
  for (const k of Object.keys(b)) if (!known.includes(k)) throw badRequest(`unknown Query member ${k}`);
  if (b.type !== "Query") throw badRequest('a Query object needs "type": "Query"');
  if (b.temporalQ !== undefined || b.scopeQ !== undefined || b.csf !== undefined)
    throw badRequest("temporalQ, scopeQ and csf are not supported by this broker yet");
  const selectors: EntitySelector[] = [];
  if (b.entities !== undefined) {
    if (!Array.isArray(b.entities) || b.entities.length === 0)
      throw badRequest("entities must be a non-empty array of entity selectors");
    for (const s of b.entities) {
      if (typeof s !== "object" || s === null) throw badRequest("an entity selector must be an object");
      const { id, idPattern, type } = s as Record<string, unknown>;
      if (typeof type !== "string") throw badRequest("an entity selector needs a type");
      if (id !== undefined && typeof id !== "string")
        throw badRequest("an entity selector's id must be a string");
      if (idPattern !== undefined && typeof idPattern !== "string")
        throw badRequest("an entity selector's idPattern must be a string");
      selectors.push({
        types: parseTypeQuery(type),
        ids: id !== undefined ? [id] : undefined,
        idPattern: idPattern !== undefined ? checkPattern(idPattern) : undefined,
      });
    }
  }
  if (
    b.attrs !== undefined &&
    (!Array.isArray(b.attrs) || !b.attrs.every((a) => typeof a === "string" && a !== ""))
  )
    throw badRequest("attrs must be an array of attribute names");
  if (b.q !== undefined && typeof b.q !== "string") throw badRequest("q must be a string");
  let geo: GeoQuery | undefined;
  if (b.geoQ !== undefined) {
    if (typeof b.geoQ !== "object" || b.geoQ === null) throw badRequest("geoQ must be an object");
    const g = b.geoQ as Record<string, unknown>;
    geo = parseGeoQuery({
      georel: g.georel,
      geometry: g.geometry,
      coordinates: g.coordinates,
      geoproperty: g.geoproperty,
    });
  }
  const query: EntityQuery = {
    selectors,
    attrs: b.attrs as string[] | undefined,
    q: b.q !== undefined ? parseQuery(b.q as string) : undefined,
    geo,
  };
  if (!selectors.length && !query.attrs && !query.q && !query.geo)
    throw badRequest("a Query needs at least one of entities, attrs, q or geoQ");
  return query;
}
