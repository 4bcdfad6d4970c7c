import type { FastifyReply, FastifyRequest } from "fastify";
import type { CompiledContext, ContextResolver } from "./contexts.ts";
import { NgsiLdError, badRequest } from "./problems.ts";

/**
 * What every NGSI-LD request carries besides its body (ETSI GS CIM 009 v1.8, 6.3): the tenant,
 * the @context (Link header, or "@context" in an application/ld+json body, never both), and the
 * representation the client accepts.
 */
export interface NgsiRequest {
  tenant: string;
  context: CompiledContext;
  /** Whether the response body should be application/ld+json with "@context". */
  ldJson: boolean;
}

const contextRel = "http://www.w3.org/ns/json-ld#context";

/** The @context URL of a Link header, if it has one. */
export function linkedContext(link: string | string[] | undefined): string | undefined {
  if (link === undefined) return undefined;
  const found: string[] = [];
  for (const part of [link]
    .flat()
    .join(",")
    .split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) throw badRequest(`invalid Link header ${JSON.stringify(part.trim())}`);
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2]!)?.[1];
    if (rel === contextRel) found.push(match[1]!);
  }
  if (found.length > 1) throw badRequest("more than one JSON-LD context Link header");
  return found[0];
}

export function tenantOf(request: FastifyRequest): string {
  const raw = request.headers["ngsild-tenant"];
  const tenant = Array.isArray(raw) ? raw[0] : raw;
  if (tenant === undefined) return "";
  if (tenant.length > 100 || !/^[A-Za-z0-9_.:\-/]+$/.test(tenant))
    throw badRequest(`invalid NGSILD-Tenant ${JSON.stringify(tenant)}`);
  return tenant;
}

const mediaType = (request: FastifyRequest) =>
  (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();

/** Whether the client prefers application/ld+json over application/json (6.3.6). */
function wantsLdJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  const ranges = accept.split(",").map((r) => {
    const [type, ...params] = r.trim().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    return { type: type!.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
  });
  const score = (t: string) => Math.max(0, ...ranges.filter((r) => r.type === t && r.q > 0).map((r) => r.q));
  const json = Math.max(score("application/json"), score("application/*"), score("*/*"));
  const ld = Math.max(score("application/ld+json"), score("application/*"), score("*/*"));
  if (json === 0 && ld === 0)
    throw new NgsiLdError(
      "NotAcceptable",
      `cannot produce any of ${accept}; this broker answers application/json or application/ld+json`,
    );
  return score("application/ld+json") > 0 && score("application/ld+json") >= score("application/json");
}

/**
 * Reads tenant, @context and negotiation. `bodyContexts` lists the bodies whose "@context" applies
 * (one entity, or the entities of a batch); reads pass none.
 */
export async function ngsiRequest(
  request: FastifyRequest,
  contexts: ContextResolver,
  options: { hasBody: boolean },
): Promise<NgsiRequest> {
  const tenant = tenantOf(request);
  const ldJson = wantsLdJson(request);
  const link = linkedContext(request.headers.link);
  let context: unknown = link;
  if (options.hasBody) {
    const type = mediaType(request);
    const body = request.body;
    const items = Array.isArray(body) ? body : [body];
    const withContext = items.filter((b) => typeof b === "object" && b !== null && "@context" in b);
    if (type === "application/ld+json") {
      if (link !== undefined)
        throw badRequest("a Link header @context is not allowed with Content-Type application/ld+json");
      if (withContext.length !== items.length)
        throw badRequest("an application/ld+json body must carry @context");
      // One body: its @context is the request's. A batch: each entity's own applies (see bodyContext).
      context = Array.isArray(body) ? undefined : (body as { "@context": unknown })["@context"];
    } else if (withContext.length > 0) {
      throw badRequest(
        "@context in the body needs Content-Type application/ld+json (with application/json, send a Link header)",
      );
    }
  }
  return { tenant, context: await contexts.compile(context), ldJson };
}

/** The @context of one body item, when the request was application/ld+json. */
export async function bodyContext(
  item: unknown,
  fallback: CompiledContext,
  contexts: ContextResolver,
): Promise<CompiledContext> {
  if (typeof item === "object" && item !== null && "@context" in item)
    return contexts.compile((item as { "@context": unknown })["@context"]);
  return fallback;
}

/** An id (a URI) as one segment of a Location path: percent-encoded, its colons kept readable. */
export const pathSegment = (id: string) => encodeURIComponent(id).replaceAll("%3A", ":");

/** Sends a JSON body as application/json with a context Link header, or as application/ld+json with "@context". */
export function sendJson(
  reply: FastifyReply,
  ngsi: NgsiRequest,
  body: unknown,
  withContext = true,
): FastifyReply {
  if (ngsi.ldJson) {
    reply.type("application/ld+json");
    if (!withContext) return reply.send(body);
    const context = ngsi.context.value ?? ngsi.context.linkUrl;
    const add = (o: unknown) =>
      typeof o === "object" && o !== null && !Array.isArray(o) ? { ...o, "@context": context } : o;
    return reply.send(Array.isArray(body) ? body.map(add) : add(body));
  }
  reply.type("application/json");
  if (withContext) {
    // Pagination links may already be set: a response can carry several Link headers.
    const existing = reply.getHeader("link");
    const links = existing === undefined ? [] : [existing].flat().map(String);
    reply.header("link", [
      ...links,
      `<${ngsi.context.linkUrl}>; rel="${contextRel}"; type="application/ld+json"`,
    ]);
  }
  return reply.send(body);
}
