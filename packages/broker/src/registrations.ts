import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Geometry } from "geojson";
import { isDateTime, isUri } from "./attributes.ts";
import type { Broker, BrokerOptions } from "./broker.ts";
import { defaultFederationOptions } from "./federation.ts";
import { geoMatches, parseGeoQuery } from "./geo.ts";
import { checkParams, listParam, pageParams, stringParam, type Page, type Query } from "./params.ts";
import { NgsiLdError, badRequest, notFound, problemType } from "./problems.ts";
import { evaluate, parseQuery, pathsOf, resolvePath, type Resolved } from "./query-language.ts";
import { checkPattern } from "./query.ts";
import {
  inForce,
  matchingInfo,
  mergeRegistration,
  parseRegistration,
  renderRegistration,
  type StoredRegistration,
  type TimeInterval,
} from "./registration-model.ts";
import { attachContextSources, CsourceSubscriptionStore, RegistrationStore } from "./registration-store.ts";
import { notifyRegistrationChange } from "./registration-subscriptions.ts";
import { patchedSubscription, postSubscription } from "./subscriptions.ts";
import { ngsiRequest, pathSegment, sendJson } from "./request.ts";
import { parseSubscription, renderSubscription, type StoredSubscription } from "./subscription-model.ts";
import { parseTypeQuery } from "./type-query.ts";

/** rel="prev"/"next" Link headers with the same query and a moved offset (as for entities). */
function pageLinks(request: FastifyRequest, page: Page, more: boolean): string[] {
  const url = new URL(request.url, "http://broker.invalid");
  const at = (offset: number) => {
    url.searchParams.set("offset", String(offset));
    url.searchParams.set("limit", String(page.limit));
    return `<${url.pathname}${url.search}>; rel="%s"; type="application/ld+json"`;
  };
  const links: string[] = [];
  if (page.offset > 0 && page.limit > 0)
    links.push(at(Math.max(0, page.offset - page.limit)).replace("%s", "prev"));
  if (more && page.limit > 0) links.push(at(page.offset + page.limit).replace("%s", "next"));
  return links;
}

function sendPage<T>(request: FastifyRequest, reply: FastifyReply, page: Page, all: T[]): T[] {
  if (page.count) reply.header("NGSILD-Results-Count", String(all.length));
  const links = pageLinks(request, page, page.offset + page.limit < all.length);
  if (links.length) reply.header("link", links);
  return all.slice(page.offset, page.offset + page.limit);
}

const sysAttrsOf = (query: Query) => {
  const options = stringParam(query, "options")?.split(",") ?? [];
  for (const o of options) if (o !== "sysAttrs") throw badRequest(`unknown option ${o}`);
  return options.includes("sysAttrs");
};

/** The temporal part of a registration query (5.10.2.4): overlap with the observation or management interval. */
function temporalFilter(query: Query): ((r: StoredRegistration) => boolean) | undefined {
  const timerel = stringParam(query, "timerel");
  const timeAt = stringParam(query, "timeAt");
  const endTimeAt = stringParam(query, "endTimeAt");
  const property = stringParam(query, "timeproperty") ?? "observedAt";
  if (timerel === undefined && timeAt === undefined && endTimeAt === undefined) return undefined;
  if (!["before", "after", "between"].includes(timerel ?? ""))
    throw badRequest("timerel must be before, after or between");
  if (!isDateTime(timeAt)) throw badRequest("timeAt must be a date-time");
  if (timerel === "between" && !isDateTime(endTimeAt)) throw badRequest("timerel between needs endTimeAt");
  if (!["observedAt", "createdAt", "modifiedAt"].includes(property))
    throw badRequest("timeproperty must be observedAt, createdAt or modifiedAt");
  const start = Date.parse(timeAt);
  const end = endTimeAt === undefined ? undefined : Date.parse(endTimeAt);
  return (r) => {
    const interval: TimeInterval | undefined =
      property === "observedAt" ? r.observationInterval : r.managementInterval;
    if (!interval) return false;
    const from = Date.parse(interval.startAt);
    const to = interval.endAt ? Date.parse(interval.endAt) : Infinity;
    if (timerel === "before") return from < start;
    if (timerel === "after") return to > start;
    return from < end! && to > start;
  };
}

/**
 * Context source registrations (ETSI GS CIM 009 v1.8, 5.9 and 5.10; HTTP binding 6.8, 6.9) and
 * registration subscriptions (5.11; 6.10-6.11 under /csourceSubscriptions).
 */
export function registerRegistrationRoutes(
  app: FastifyInstance,
  broker: Broker,
  options: BrokerOptions,
): void {
  const { contexts } = broker;
  const registrations = new RegistrationStore(options.db);
  const csourceSubscriptions = new CsourceSubscriptionStore(options.db);
  attachContextSources(broker, {
    registrations,
    csourceSubscriptions,
    identity: `orrery-${randomUUID()}`,
    federation: { ...defaultFederationOptions, ...options.federation },
    notificationTimeoutMs: options.notifications?.timeoutMs ?? 5000,
  });
  const idOf = (params: unknown, name: string, what: string): string => {
    const id = (params as Record<string, string>)[name]!;
    if (!isUri(id)) throw badRequest(`${what} id ${JSON.stringify(id)} is not a URI`);
    return id;
  };
  const changed = (
    request: FastifyRequest,
    tenant: string,
    before?: StoredRegistration,
    after?: StoredRegistration,
  ) =>
    // After the answer: a slow subscriber never delays the registration's writer.
    void notifyRegistrationChange(broker, tenant, before, after, request.log).catch((error: unknown) =>
      request.log.warn({ err: error }, "registration notifications failed"),
    );
  // No operation on the collection itself but GET and POST (6.8.3): 405, as the test suite expects.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header("allow", "GET, POST")
      .type("application/json")
      .send({
        type: problemType("InvalidRequest"),
        title: "Method not allowed",
        status: 405,
        detail: "this resource answers GET and POST only; name a registration or subscription by its id",
      });
  for (const path of ["/csourceRegistrations", "/csourceSubscriptions"])
    app.route({ method: ["PATCH", "PUT", "DELETE"], url: path, handler: notAllowed });

  // ------------------------------------------------------------------ registrations

  app.post("/csourceRegistrations", async (request, reply) => {
    checkParams(request.query as Query, []);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const parsed = parseRegistration(request.body, ngsi.context);
    const registration: StoredRegistration = {
      ...parsed,
      id: parsed.id ?? `urn:ngsi-ld:ContextSourceRegistration:${randomUUID()}`,
    };
    await broker.store.ensureTenant(ngsi.tenant);
    if (!(await registrations.insert(ngsi.tenant, registration, new Date().toISOString())))
      throw new NgsiLdError("AlreadyExists", `registration ${registration.id} already exists`);
    changed(request, ngsi.tenant, undefined, registration);
    return reply
      .code(201)
      .header("location", `${broker.prefix}/csourceRegistrations/${pathSegment(registration.id)}`)
      .send();
  });

  app.get("/csourceRegistrations", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, [
      "id",
      "idPattern",
      "type",
      "attrs",
      "q",
      "csf",
      "georel",
      "geometry",
      "coordinates",
      "geoproperty",
      "timeproperty",
      "timerel",
      "timeAt",
      "endTimeAt",
      "limit",
      "offset",
      "count",
      "options",
      "local",
      "lang",
    ]);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const page = pageParams(query, broker);
    const sysAttrs = sysAttrsOf(query);
    const ids = listParam(query, "id");
    for (const id of ids ?? []) if (!isUri(id)) throw badRequest(`id ${JSON.stringify(id)} is not a URI`);
    const idPattern = stringParam(query, "idPattern");
    const type = stringParam(query, "type");
    const attrs = listParam(query, "attrs")?.map((a) => ngsi.context.expand(a));
    const q = stringParam(query, "q");
    const qNode = q === undefined ? undefined : parseQuery(q);
    const geo = parseGeoQuery({
      georel: stringParam(query, "georel"),
      geometry: stringParam(query, "geometry"),
      coordinates: stringParam(query, "coordinates"),
      geoproperty: stringParam(query, "geoproperty"),
    });
    const temporal = temporalFilter(query);
    if (stringParam(query, "csf") !== undefined) throw badRequest("csf is not supported by this broker yet");
    // 5.10.2: a query names entities, attributes or conditions. local=true lists them all (as for entities).
    if (
      !ids &&
      !idPattern &&
      !type &&
      !attrs &&
      !qNode &&
      !geo &&
      !temporal &&
      stringParam(query, "local") !== "true"
    )
      throw badRequest(
        "a registration query needs at least one of id, idPattern, type, attrs, q, a geo-query or a temporal query (or local=true)",
      );
    const filter = {
      types: type === undefined ? undefined : parseTypeQuery(type),
      ids,
      idPattern: idPattern === undefined ? undefined : checkPattern(idPattern),
      attrs,
    };
    const resolved: Resolved | undefined =
      qNode && new Map(pathsOf(qNode).map((p) => [p, resolvePath(p, (t) => ngsi.context.expand(t))]));
    await broker.store.requireTenant(ngsi.tenant);
    const matching = (await registrations.all(ngsi.tenant)).filter(({ body: r }) => {
      if (!inForce(r)) return false;
      if (
        (filter.types || filter.ids || filter.idPattern || filter.attrs) &&
        !matchingInfo(r, filter, (t) => ngsi.context.expand(t)).length
      )
        return false;
      if (qNode) {
        // q is matched against the CSource properties (4.3.6.1), read as Property values.
        const attributes = Object.fromEntries(
          Object.entries(r.properties ?? {}).map(([iri, value]) => [iri, [{ type: "Property", value }]]),
        );
        if (!evaluate(qNode, attributes, resolved!)) return false;
      }
      if (geo) {
        const where = (
          geo.geoproperty === "location" ? r.location : r[geo.geoproperty as "observationSpace"]
        ) as Geometry | undefined;
        if (!where || !geoMatches(where, geo)) return false;
      }
      return !temporal || temporal(r);
    });
    return sendJson(
      reply,
      ngsi,
      sendPage(request, reply, page, matching).map((row) =>
        renderRegistration(row.body, ngsi.context, sysAttrs ? row : undefined),
      ),
    );
  });

  app.get("/csourceRegistrations/:registrationId", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["options", "attrs"]);
    const id = idOf(request.params, "registrationId", "registration");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const row = await registrations.get(ngsi.tenant, id);
    if (!row) throw notFound(`registration ${id} does not exist`);
    return sendJson(
      reply,
      ngsi,
      renderRegistration(row.body, ngsi.context, sysAttrsOf(query) ? row : undefined),
    );
  });

  app.patch("/csourceRegistrations/:registrationId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = idOf(request.params, "registrationId", "registration");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const row = await registrations.get(ngsi.tenant, id);
    if (!row) throw notFound(`registration ${id} does not exist`);
    const merged = mergeRegistration(renderRegistration(row.body, ngsi.context), request.body);
    const parsed = parseRegistration(merged, ngsi.context, { keepExpiry: row.body.expiresAt });
    const next: StoredRegistration = { ...parsed, id };
    const before = await registrations.update(ngsi.tenant, next, new Date().toISOString());
    if (!before) throw notFound(`registration ${id} does not exist`);
    changed(request, ngsi.tenant, before, next);
    return reply.code(204).send();
  });

  app.delete("/csourceRegistrations/:registrationId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = idOf(request.params, "registrationId", "registration");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const removed = await registrations.remove(ngsi.tenant, id);
    if (!removed) throw notFound(`registration ${id} does not exist`);
    changed(request, ngsi.tenant, removed, undefined);
    return reply.code(204).send();
  });

  // ------------------------------------------------------------------ registration subscriptions

  /** parseSubscription's rules, less what has no meaning for registrations. */
  const parseCsourceSubscription = (body: unknown, ctx: Parameters<typeof parseSubscription>[1]) => {
    const parsed = parseSubscription(body, ctx);
    if (parsed.timeInterval !== undefined)
      throw new NgsiLdError(
        "OperationNotSupported",
        "periodic registration subscriptions (timeInterval) are not supported by this broker",
      );
    if (parsed.q !== undefined || parsed.csf !== undefined)
      throw new NgsiLdError(
        "OperationNotSupported",
        "q and csf in registration subscriptions are not supported by this broker",
      );
    return parsed;
  };
  const render = (
    row: {
      body: StoredSubscription;
      delivery: Parameters<typeof renderSubscription>[1];
      createdAt: string;
      modifiedAt: string;
    },
    ctx: Parameters<typeof renderSubscription>[2],
    sysAttrs: boolean,
  ) => renderSubscription(row.body, row.delivery, ctx, sysAttrs ? row : undefined);

  app.post("/csourceSubscriptions", (request, reply) =>
    postSubscription(
      broker,
      { path: "csourceSubscriptions", parse: parseCsourceSubscription, store: csourceSubscriptions },
      request,
      reply,
    ),
  );

  app.get("/csourceSubscriptions", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["limit", "offset", "count", "options"]);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const page = pageParams(query, broker);
    const sysAttrs = sysAttrsOf(query);
    await broker.store.requireTenant(ngsi.tenant);
    const all = await csourceSubscriptions.allWithDelivery(ngsi.tenant);
    return sendJson(
      reply,
      ngsi,
      sendPage(request, reply, page, all).map((row) => render(row, ngsi.context, sysAttrs)),
    );
  });

  app.get("/csourceSubscriptions/:subscriptionId", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["options"]);
    const id = idOf(request.params, "subscriptionId", "subscription");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const row = await csourceSubscriptions.getWithDelivery(ngsi.tenant, id);
    if (!row) throw notFound(`subscription ${id} does not exist`);
    return sendJson(reply, ngsi, render(row, ngsi.context, sysAttrsOf(query)));
  });

  app.patch("/csourceSubscriptions/:subscriptionId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = idOf(request.params, "subscriptionId", "subscription");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const row = await csourceSubscriptions.get(ngsi.tenant, id);
    if (!row) throw notFound(`subscription ${id} does not exist`);
    const fragment = request.body as Record<string, unknown>;
    const next = patchedSubscription(row.body, fragment, ngsi.context, parseCsourceSubscription);
    if (!(await csourceSubscriptions.update(ngsi.tenant, next, new Date().toISOString())))
      throw notFound(`subscription ${id} does not exist`);
    return reply.code(204).send();
  });

  app.delete("/csourceSubscriptions/:subscriptionId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = idOf(request.params, "subscriptionId", "subscription");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    if (!(await csourceSubscriptions.remove(ngsi.tenant, id)))
      throw notFound(`subscription ${id} does not exist`);
    return reply.code(204).send();
  });
}
