import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Broker } from "./broker.ts";
import { boolParam, checkParams, type Query } from "./params.ts";
import { notFound } from "./problems.ts";
import { ngsiRequest, sendJson } from "./request.ts";

/** Names sorted as the client reads them (compacted), not by IRI. */
const sorted = (names: string[]) => [...names].sort();
const byName = <T>(items: T[], name: (t: T) => string) =>
  [...items].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));

/** Entity type and attribute discovery (ETSI GS CIM 009 v1.8, 5.7.5-5.7.10), names compacted with the request's @context. */
export function registerDiscoveryRoutes(app: FastifyInstance, broker: Broker): void {
  const { store, contexts } = broker;
  const begin = async (request: FastifyRequest, allowed: string[]) => {
    checkParams(request.query as Query, allowed);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    await store.requireTenant(ngsi.tenant);
    return ngsi;
  };

  app.get("/types", async (request, reply) => {
    const ngsi = await begin(request, ["details", "local"]);
    const c = (iri: string) => ngsi.context.compact(iri);
    const types = await store.typeSummary(ngsi.tenant);
    if (boolParam(request.query as Query, "details"))
      return sendJson(
        reply,
        ngsi,
        byName(types, (t) => c(t.type)).map((t) => ({
          id: t.type,
          type: "EntityType",
          typeName: c(t.type),
          attributeNames: sorted(t.attributes.map(c)),
        })),
      );
    return sendJson(reply, ngsi, {
      id: `urn:ngsi-ld:EntityTypeList:${randomUUID()}`,
      type: "EntityTypeList",
      typeList: sorted(types.map((t) => c(t.type))),
    });
  });

  app.get("/types/:type", async (request, reply) => {
    const ngsi = await begin(request, ["local"]);
    const c = (iri: string) => ngsi.context.compact(iri);
    const iri = ngsi.context.expand((request.params as { type: string }).type);
    const [info] = await store.typeSummary(ngsi.tenant, iri);
    if (!info) throw notFound(`no entity has type ${iri}`);
    const attributes = await store.attributeSummary(ngsi.tenant, { type: iri });
    return sendJson(reply, ngsi, {
      id: iri,
      type: "EntityTypeInfo",
      typeName: c(iri),
      entityCount: info.count,
      attributeDetails: byName(attributes, (a) => c(a.attribute)).map((a) => ({
        id: a.attribute,
        type: "Attribute",
        attributeName: c(a.attribute),
        attributeTypes: a.kinds,
      })),
    });
  });

  app.get("/attributes", async (request, reply) => {
    const ngsi = await begin(request, ["details", "local"]);
    const c = (iri: string) => ngsi.context.compact(iri);
    const attributes = await store.attributeSummary(ngsi.tenant);
    if (boolParam(request.query as Query, "details"))
      return sendJson(
        reply,
        ngsi,
        byName(attributes, (a) => c(a.attribute)).map((a) => ({
          id: a.attribute,
          type: "Attribute",
          attributeName: c(a.attribute),
          typeNames: sorted(a.types.map(c)),
        })),
      );
    return sendJson(reply, ngsi, {
      id: `urn:ngsi-ld:AttributeList:${randomUUID()}`,
      type: "AttributeList",
      attributeList: sorted(attributes.map((a) => c(a.attribute))),
    });
  });

  app.get("/attributes/:attrId", async (request, reply) => {
    const ngsi = await begin(request, ["local"]);
    const c = (iri: string) => ngsi.context.compact(iri);
    const iri = ngsi.context.expand((request.params as { attrId: string }).attrId);
    const [a] = await store.attributeSummary(ngsi.tenant, { attribute: iri });
    if (!a) throw notFound(`no entity has attribute ${iri}`);
    return sendJson(reply, ngsi, {
      id: iri,
      type: "Attribute",
      attributeName: c(iri),
      attributeCount: a.count,
      attributeTypes: a.kinds,
      typeNames: sorted(a.types.map(c)),
    });
  });
}
