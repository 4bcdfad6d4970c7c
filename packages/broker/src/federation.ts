import { fetchOnce } from "./outgoing.ts";
import { sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { parseEntity } from "./attributes.ts";
import type { Broker } from "./broker.ts";
import type { CompiledContext } from "./contexts.ts";
import type { Instance, StoredEntity } from "./model.ts";
import { newEntity } from "./operations.ts";
import { badRequest } from "./problems.ts";
import { boolParam, stringParam, type Page, type Query } from "./params.ts";
import type { EntityQuery } from "./query.ts";
import {
  inForce,
  matchingInfo,
  offers,
  type RegistrationFilter,
  type StoredRegistration,
} from "./registration-model.ts";
import { contextSourcesOf } from "./registration-store.ts";
import type { NgsiRequest } from "./request.ts";
import { toPgArray } from "./storage.ts";

/**
 * Distributed reads over context source registrations (ETSI GS CIM 009 v1.8, 4.3.6 and 6.3.17-18):
 * a query (GET /entities, POST /entityOperations/query) or an entity retrieval also asks, over
 * HTTP, the endpoint of every inclusive or auxiliary registration in force whose information and
 * operations match, and merges the answers into the local ones. The temporal API, discovery (/types,
 * /attributes) and writes are not forwarded.
 *
 * - Failures are not fatal: the local data is answered with an NGSILD-Warning header per source
 *   (table 6.3.17-1): 199 when it did not answer in time, could not be reached, or a loop was
 *   detected; 299 when it answered an error; 111 when its answer was not NGSI-LD. A 404 is not a
 *   failure (the source has no such entity).
 * - Loops: every forwarded request carries a Via header with this broker's identity added; a
 *   request whose Via already names it is answered from local data only (and says so, 199).
 * - `local=true` (6.3.18), or a registration's management.localOnly, keeps a query local.
 * - Merge (4.3.6.2): an entity answered by several sources is one entity with the union of types
 *   and attributes; for one attribute and datasetId the instance with the latest observedAt wins,
 *   else the local one; an auxiliary source only fills in what no other source has.
 * - Paging: each source is asked for its first offset+limit entities (ordered by id, as this broker
 *   orders them), the union is ordered by id and the page cut from it. The count adds the sources'
 *   counts and removes only the duplicates seen in the page: with overlapping sources it can be high.
 * - Bounds (federation options, below): offset+limit beyond `maxEntities` is refused with 400 when a
 *   source would be asked (a query that stays local is not capped); one source has one deadline per
 *   query, all its pages together (`timeoutMs`; a registration's management.timeout may shorten it,
 *   never lengthen it: a longer one is kept as its client sent it and not waited for, so that clients
 *   sending the spec's shapes keep working and rows stored before the bound are bounded too); and at
 *   most `maxBytes` are read from one source per query, the read stopping there. A source past a
 *   bound is a failed source: the answer is the rest, with its NGSILD-Warning, never a 504.
 * - Registrations are read at most once a second per tenant (registration-store.ts); the endpoint
 *   is any http(s) URL the registering client gave, as in the other brokers.
 */
const contextRel = "http://www.w3.org/ns/json-ld#context";
/** A source is asked for this many entities at most per call (Stellio's cap is 100; notes §2). */
const sourcePage = 100;

/** The bounds of distributed reads (BrokerOptions.federation). */
export interface FederationOptions {
  /**
   * How long one query waits for one source, all its pages together; a registration's
   * management.timeout may shorten it, not lengthen it. Keep it under the timeout of the broker's
   * own clients (the API's is 10 s), so that a slow source never times out their whole request.
   * Default 5000 ms.
   */
  timeoutMs: number;
  /** Most entities (offset + limit) a query may ask each source for; beyond is 400. Default 1000. */
  maxEntities: number;
  /** Most bytes read from one source for one query; beyond, the source counts as failed (111). Default 8 MiB. */
  maxBytes: number;
}

export const defaultFederationOptions: FederationOptions = {
  timeoutMs: 5000,
  maxEntities: 1000,
  maxBytes: 8 * 1024 * 1024,
};

export const apiBaseOf = (endpoint: string) =>
  /\/ngsi-ld\/v1\/?$/.test(endpoint)
    ? endpoint.replace(/\/$/, "")
    : `${endpoint.replace(/\/$/, "")}/ngsi-ld/v1`;

const viaOf = (request: FastifyRequest) => {
  const v = request.headers.via;
  return Array.isArray(v) ? v.join(", ") : (v ?? "");
};
const viaNames = (via: string) =>
  via
    .split(",")
    .map((hop) => hop.trim().split(/\s+/)[1])
    .filter(Boolean);

/** A warning's text as a quoted string a header can carry: no quote or backslash, and ASCII only. */
const quoted = (text: string) =>
  `"${text.replace(/["\\]/g, " ").replace(/[^\x20-\x7e]/g, (c) => encodeURIComponent(c))}"`;
const warning = (code: number, agent: string, text: string) => `${code} ${agent} ${quoted(text)}`;

interface SourceAnswer {
  entities: StoredEntity[];
  count?: number;
  warnings: string[];
  auxiliary: boolean;
}

/** The registrations a read goes to, or none: local=true, a loop, or nothing registered that matches. */
async function sourcesFor(
  broker: Broker,
  request: FastifyRequest,
  ngsi: NgsiRequest,
  /** Alternatives: a registration matching any of them is asked. */
  filters: RegistrationFilter[],
  operation: string,
  warnings: string[],
): Promise<StoredRegistration[]> {
  const sources = contextSourcesOf(broker);
  if (!sources || boolParam(request.query as Query, "local")) return [];
  if (viaNames(viaOf(request)).includes(sources.identity)) {
    warnings.push(
      warning(199, sources.identity, "registration loop detected: answered from local data only"),
    );
    return [];
  }
  const all = await sources.registrations.forReads(ngsi.tenant);
  return all.filter(
    (r) =>
      inForce(r) &&
      (r.mode === "inclusive" || r.mode === "auxiliary") &&
      !r.management?.localOnly &&
      offers(r, operation) &&
      /^https?:\/\//i.test(r.endpoint) &&
      filters.some((f) => matchingInfo(r, f, (t) => ngsi.context.expand(t)).length > 0),
  );
}

/**
 * What one query may still take from one source: the time left (one deadline for all its pages)
 * and the bytes left. Made per source and query by `allowance`; `done` clears its timer.
 */
interface Allowance {
  signal: AbortSignal;
  bytesLeft: number;
  maxBytes: number;
  done(): void;
}

function allowance(broker: Broker, r: StoredRegistration): Allowance {
  const { federation } = contextSourcesOf(broker)!;
  const ms = Math.min(r.management?.timeout ?? federation.timeoutMs, federation.timeoutMs);
  // A plain timer, not AbortSignal.timeout: the latter once let a silent peer hang past it on Node 20 (delivery.ts).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("no answer in time", "TimeoutError")), ms);
  return {
    signal: controller.signal,
    bytesLeft: federation.maxBytes,
    maxBytes: federation.maxBytes,
    done: () => clearTimeout(timer),
  };
}

class TooLarge extends Error {}

/** The body as text, read no further than what the allowance has left (a source cannot fill this process's memory). */
async function bounded(response: Response, budget: Allowance): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    budget.bytesLeft -= value.byteLength;
    if (budget.bytesLeft < 0) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** One GET to a source; its answer read as entities in stored form, or a warning. */
async function ask(
  broker: Broker,
  request: FastifyRequest,
  ngsi: NgsiRequest,
  r: StoredRegistration,
  path: string,
  params: Record<string, string | undefined>,
  budget: Allowance,
  /** A POST's body (a Query): sent as it came, its @context in it or the request's as a Link. */
  body?: unknown,
): Promise<{ body?: unknown; count?: number; warnings: string[]; failed?: true }> {
  const url = new URL(`${apiBaseOf(r.endpoint)}${path}`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  const { identity } = contextSourcesOf(broker)!;
  const via = viaOf(request);
  const inlineContext = typeof body === "object" && body !== null && "@context" in body;
  const headers: Record<string, string> = {
    accept: "application/json",
    via: `${via ? `${via}, ` : ""}1.1 ${identity}`,
  };
  if (!inlineContext)
    headers.link = `<${ngsi.context.linkUrl}>; rel="${contextRel}"; type="application/ld+json"`;
  if (body !== undefined)
    headers["content-type"] = inlineContext ? "application/ld+json" : "application/json";
  if (r.tenant) headers["ngsild-tenant"] = r.tenant;
  const agent = url.host;
  let response: Response;
  let text: string;
  try {
    [response, text] = await fetchOnce(
      url,
      {
        method: body === undefined ? "GET" : "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
        headers,
        signal: budget.signal,
        redirect: "manual",
      },
      async (answer) => [answer, await bounded(answer, budget)] as const,
    );
  } catch (error) {
    if (error instanceof TooLarge)
      return {
        failed: true,
        warnings: [
          warning(
            111,
            agent,
            `context source ${r.id} answered more than ${budget.maxBytes} bytes for this query`,
          ),
        ],
      };
    const e = error as Error;
    const why =
      budget.signal.aborted || e.name === "TimeoutError" || e.name === "AbortError"
        ? "no answer in time"
        : `not reachable (${(e as { cause?: Error }).cause?.message ?? e.message})`;
    return { failed: true, warnings: [warning(199, agent, `context source ${r.id} ${why}`)] };
  }
  const passed = response.headers.get("ngsild-warning");
  const warnings = passed ? [passed] : [];
  if (response.status === 404) return { warnings };
  if (!response.ok)
    return {
      warnings: [...warnings, warning(299, agent, `context source ${r.id} answered ${response.status}`)],
    };
  try {
    const count = response.headers.get("ngsild-results-count");
    return { body: JSON.parse(text), count: count === null ? undefined : Number(count), warnings };
  } catch {
    return {
      warnings: [
        ...warnings,
        warning(111, agent, `context source ${r.id} answered something that is not JSON`),
      ],
    };
  }
}

/** A source's entities in stored form, names expanded with the request's context; undefined when not NGSI-LD. */
function storedEntities(body: unknown, ctx: CompiledContext, now: string): StoredEntity[] | undefined {
  try {
    const list = Array.isArray(body) ? body : [body];
    return list.map((e) =>
      newEntity(parseEntity(e, ctx, { mode: "full", requireId: true, requireType: true }), now),
    );
  } catch {
    return undefined;
  }
}

function keep(
  sourceAnswer: { body?: unknown; warnings: string[] },
  r: StoredRegistration,
  ngsi: NgsiRequest,
) {
  const entities =
    sourceAnswer.body === undefined
      ? []
      : storedEntities(sourceAnswer.body, ngsi.context, new Date().toISOString());
  if (entities === undefined)
    sourceAnswer.warnings.push(
      warning(
        111,
        new URL(apiBaseOf(r.endpoint)).host,
        `context source ${r.id} answered something that is not NGSI-LD`,
      ),
    );
  return entities ?? [];
}

const observed = (i: Instance) => (i.observedAt ? Date.parse(i.observedAt as string) : undefined);

/** Merges `extra` into `base` (4.3.6.2); `auxiliary` only fills in attributes or datasets base lacks. */
export function mergeEntities(base: StoredEntity, extra: StoredEntity, auxiliary: boolean): StoredEntity {
  const out: StoredEntity = {
    ...base,
    types: [...new Set([...base.types, ...extra.types])],
    attrs: { ...base.attrs },
  };
  for (const [iri, instances] of Object.entries(extra.attrs)) {
    const current = [...(out.attrs[iri] ?? [])];
    for (const instance of instances) {
      const at = current.findIndex((c) => c.datasetId === instance.datasetId);
      if (at < 0) current.push(instance);
      else if (!auxiliary) {
        const mine = observed(current[at]!);
        const theirs = observed(instance);
        if (theirs !== undefined && (mine === undefined || theirs > mine)) current[at] = instance;
      }
    }
    out.attrs[iri] = current;
  }
  return out;
}

function setWarnings(reply: FastifyReply, warnings: string[]) {
  if (warnings.length) reply.header("NGSILD-Warning", warnings);
}

/**
 * Query Entities with the registered sources (hook of query.ts). `local` runs the local query with
 * a page; without sources it is the whole answer.
 */
export async function queryWithSources(
  broker: Broker,
  request: FastifyRequest,
  reply: FastifyReply,
  ngsi: NgsiRequest,
  query: EntityQuery,
  page: Page,
  local: (page: Page) => Promise<{ entities: StoredEntity[]; total?: number; more: boolean }>,
): Promise<{ entities: StoredEntity[]; total?: number; more: boolean }> {
  const warnings: string[] = [];
  const params = request.query as Query;
  // GET /entities travels with its parameters, POST /entityOperations/query (queryBatch) with its body.
  const post = request.method === "POST";
  const attrs = query.attrs?.map((a) => ngsi.context.expand(a));
  const filters: RegistrationFilter[] = (query.selectors.length ? query.selectors : [undefined]).map((s) => ({
    types: s?.types,
    ids: s?.ids,
    idPattern: s?.idPattern,
    attrs,
  }));
  const sources = await sourcesFor(
    broker,
    request,
    ngsi,
    filters,
    post ? "queryBatch" : "queryEntity",
    warnings,
  );
  if (sources.length === 0) {
    setWarnings(reply, warnings);
    return local(page);
  }
  const wanted = page.offset + page.limit;
  const { federation } = contextSourcesOf(broker)!;
  if (wanted > federation.maxEntities)
    throw badRequest(
      `offset + limit is ${wanted}; a query that registered context sources answer may reach no further than ${federation.maxEntities} entities (ask with local=true for this broker's own entities beyond)`,
    );
  const forwarded: Record<string, string | undefined> = {};
  for (const k of [
    "type",
    "id",
    "idPattern",
    "attrs",
    "q",
    "georel",
    "geometry",
    "coordinates",
    "geoproperty",
    "lang",
  ])
    forwarded[k] = stringParam(params, k);
  const [mine, ...theirs] = await Promise.all([
    local({ limit: wanted, offset: 0, count: page.count }),
    ...sources.map(async (r): Promise<SourceAnswer> => {
      const entities: StoredEntity[] = [];
      const sourceWarnings: string[] = [];
      let count: number | undefined;
      const budget = allowance(broker, r);
      try {
        for (let offset = 0; offset < Math.max(wanted, 1); offset += sourcePage) {
          const limit = Math.max(1, Math.min(sourcePage, wanted - offset));
          const paging = {
            limit: String(limit),
            offset: String(offset),
            ...(page.count && offset === 0 ? { count: "true" } : {}),
          };
          const answer = post
            ? await ask(broker, request, ngsi, r, "/entityOperations/query", paging, budget, request.body)
            : await ask(broker, request, ngsi, r, "/entities", { ...forwarded, ...paging }, budget);
          // A source past its deadline or byte budget is a failed source: none of its pages is kept.
          if (answer.failed)
            return { entities: [], warnings: [...sourceWarnings, ...answer.warnings], auxiliary: false };
          const got = keep(answer, r, ngsi);
          sourceWarnings.push(...answer.warnings);
          if (offset === 0) count = answer.count;
          entities.push(...got);
          if (got.length < limit || answer.body === undefined) break;
        }
      } finally {
        budget.done();
      }
      return { entities, count, warnings: sourceWarnings, auxiliary: r.mode === "auxiliary" };
    }),
  ]);
  const byId = new Map(mine.entities.map((e) => [e.id, e]));
  let duplicates = 0;
  // Inclusive sources first, so that auxiliary ones only fill in.
  for (const source of [...theirs].sort((a, b) => Number(a.auxiliary) - Number(b.auxiliary))) {
    warnings.push(...source.warnings);
    for (const e of source.entities) {
      const known = byId.get(e.id);
      if (known) duplicates++;
      byId.set(e.id, known ? mergeEntities(known, e, source.auxiliary) : e);
    }
  }
  // A source's entity this broker also holds, outside the local page: merged with the local copy.
  const outside = theirs
    .flatMap((s) => s.entities.map((e) => e.id))
    .filter((id) => !mine.entities.some((e) => e.id === id));
  if (outside.length) {
    const held = await broker.store.select(ngsi.tenant, {
      where: [sql`id = ANY(${toPgArray(outside)}::text[])`],
    });
    for (const e of held) byId.set(e.id, mergeEntities(e, byId.get(e.id)!, false));
  }
  setWarnings(reply, warnings);
  const merged = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const total =
    page.count && mine.total !== undefined
      ? mine.total + theirs.reduce((n, s) => n + (s.count ?? s.entities.length), 0) - duplicates
      : undefined;
  return {
    entities: merged.slice(page.offset, wanted),
    total,
    more: merged.length > wanted || mine.more || theirs.some((s) => s.entities.length >= wanted),
  };
}

/** Retrieve Entity with the registered sources (hook of entities.ts): the local entity merged with theirs. */
export async function retrieveWithSources(
  broker: Broker,
  request: FastifyRequest,
  reply: FastifyReply,
  ngsi: NgsiRequest,
  id: string,
  attrs: string[] | undefined,
  local: StoredEntity | undefined,
): Promise<StoredEntity | undefined> {
  const warnings: string[] = [];
  const sources = await sourcesFor(broker, request, ngsi, [{ ids: [id], attrs }], "retrieveEntity", warnings);
  let entity = local;
  const answers = await Promise.all(
    sources.map(async (r) => {
      const budget = allowance(broker, r);
      try {
        const answer = await ask(
          broker,
          request,
          ngsi,
          r,
          `/entities/${encodeURIComponent(id)}`,
          { attrs: stringParam(request.query as Query, "attrs") },
          budget,
        );
        return { r, answer, entities: keep(answer, r, ngsi) };
      } finally {
        budget.done();
      }
    }),
  );
  for (const { r, answer, entities } of answers.sort(
    (a, b) => Number(a.r.mode === "auxiliary") - Number(b.r.mode === "auxiliary"),
  )) {
    warnings.push(...answer.warnings);
    for (const e of entities.filter((x) => x.id === id))
      entity = entity ? mergeEntities(entity, e, r.mode === "auxiliary") : e;
  }
  setWarnings(reply, warnings);
  return entity;
}
