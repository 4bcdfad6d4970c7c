import type { FastifyInstance, FastifyRequest } from "fastify";
import { checkName, isUri, parseAttribute, parseEntity } from "./attributes.ts";
import type { Broker } from "./broker.ts";
import { retrieveWithSources } from "./federation.ts";
import type { StoredEntity } from "./model.ts";
import {
  appendAttributes,
  deleteAttribute,
  mergeEntity,
  newEntity,
  partialUpdate,
  replaceEntity,
  updateAttributes,
  type Outcome,
} from "./operations.ts";
import { checkParams, listParam, stringParam, boolParam, type Query } from "./params.ts";
import { NgsiLdError, badRequest, notFound } from "./problems.ts";
import { renderEntity, renderOptions } from "./representation.ts";
import { ngsiRequest, pathSegment, sendJson, type NgsiRequest } from "./request.ts";

/** Entity and attribute routes of ETSI GS CIM 009 v1.8 (5.6.1-5.6.5, 5.6.17, 5.6.18, 5.7.1). */
export function registerEntityRoutes(app: FastifyInstance, broker: Broker): void {
  const { store, contexts } = broker;

  const entityId = (params: unknown): string => {
    const id = (params as { entityId: string }).entityId;
    if (!isUri(id)) throw badRequest(`entity id ${JSON.stringify(id)} is not a URI`);
    return id;
  };

  /** The body of a request on one entity; an id in it, if any, must be that entity's. */
  const entityBody = async (request: FastifyRequest, id: string, mode: "full" | "fragment") => {
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const parsed = parseEntity(request.body, ngsi.context, { mode, requireId: false, requireType: false });
    if (parsed.id !== undefined && parsed.id !== id)
      throw badRequest(`the body's id ${parsed.id} differs from ${id}`);
    return { ngsi, parsed };
  };

  /** Locks the entity, applies an operation, writes the result; 404 when it does not exist. */
  const change = (tenant: string, id: string, op: (e: StoredEntity, now: string) => Outcome) =>
    store.modify(tenant, [id], (current) => {
      const entity = current.get(id);
      if (!entity) throw notFound(`entity ${id} does not exist`);
      const outcome = op(entity, new Date().toISOString());
      return { write: [outcome.entity], result: outcome };
    });

  /** 204 when all was done, else 207 with an UpdateResult (5.2.18) naming what was not. */
  const answerUpdate = (reply: import("fastify").FastifyReply, ngsi: NgsiRequest, outcome: Outcome) => {
    if (outcome.notUpdated.length === 0) return reply.code(204).send();
    const compact = (iri: string) => ngsi.context.compact(iri);
    return sendJson(
      reply.code(207),
      ngsi,
      {
        updated: outcome.updated.map(compact),
        notUpdated: outcome.notUpdated.map((n) => ({
          attributeName: compact(n.attributeName),
          reason: n.reason,
        })),
      },
      false,
    );
  };

  app.post("/entities", async (request, reply) => {
    checkParams(request.query as Query, []);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const ctx = ngsi.context;
    const parsed = parseEntity(request.body, ctx, { mode: "full", requireId: true, requireType: true });
    const entity = newEntity(parsed, new Date().toISOString());
    const inserted = await store.insert(ngsi.tenant, [entity]);
    if (!inserted.has(entity.id))
      throw new NgsiLdError("AlreadyExists", `entity ${entity.id} already exists`);
    return reply
      .code(201)
      .header("location", `${broker.prefix}/entities/${pathSegment(entity.id)}`)
      .send();
  });

  app.get("/entities/:entityId", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["attrs", "options", "format", "lang", "local"]);
    const id = entityId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    await store.requireTenant(ngsi.tenant);
    const attrs = listParam(query, "attrs")?.map((a) => ngsi.context.expand(a));
    const options = renderOptions(
      stringParam(query, "options"),
      stringParam(query, "format"),
      attrs && new Set(attrs),
    );
    // With the matching inclusive registrations' sources (federation.ts), unless local=true.
    const entity = await retrieveWithSources(
      broker,
      request,
      reply,
      ngsi,
      id,
      attrs,
      await store.get(ngsi.tenant, id),
    );
    if (!entity) throw notFound(`entity ${id} does not exist`);
    if (attrs && !attrs.some((a) => a in entity.attrs))
      throw notFound(`entity ${id} has none of the attributes ${attrs.join(", ")}`);
    return sendJson(reply, ngsi, renderEntity(entity, ngsi.context, options));
  });

  app.delete("/entities/:entityId", async (request, reply) => {
    checkParams(request.query as Query, ["type"]);
    const id = entityId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const removed = await store.remove(ngsi.tenant, [id]);
    if (!removed.has(id)) throw notFound(`entity ${id} does not exist`);
    return reply.code(204).send();
  });

  // Merge Entity (5.6.17): application/json or application/merge-patch+json.
  app.patch("/entities/:entityId", async (request, reply) => {
    checkParams(request.query as Query, ["type"]);
    const id = entityId(request.params);
    const { ngsi, parsed } = await entityBody(request, id, "fragment");
    await change(ngsi.tenant, id, (e, now) => mergeEntity(e, parsed, now));
    return reply.code(204).send();
  });

  // Replace Entity (5.6.18).
  app.put("/entities/:entityId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = entityId(request.params);
    const { ngsi, parsed } = await entityBody(request, id, "full");
    await change(ngsi.tenant, id, (e, now) => ({
      entity: replaceEntity(e, parsed, now),
      updated: [],
      notUpdated: [],
    }));
    return reply.code(204).send();
  });

  // Append Entity Attributes (5.6.3).
  app.post("/entities/:entityId/attrs", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["options"]);
    const options = listParam(query, "options") ?? [];
    if (options.some((o) => o !== "noOverwrite")) throw badRequest(`unknown option in ${options.join(",")}`);
    const id = entityId(request.params);
    const { ngsi, parsed } = await entityBody(request, id, "full");
    if (Object.keys(parsed.attrs).length === 0 && !parsed.types)
      throw badRequest("the body has no attribute to append");
    const outcome = await change(ngsi.tenant, id, (e, now) =>
      appendAttributes(e, parsed, now, options.includes("noOverwrite")),
    );
    return answerUpdate(reply, ngsi, outcome);
  });

  // Update Entity Attributes (5.6.2).
  app.patch("/entities/:entityId/attrs", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = entityId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const parsed = parseEntity(request.body, ngsi.context, {
      mode: "full",
      requireId: false,
      requireType: false,
    });
    if (Object.keys(parsed.attrs).length === 0) throw badRequest("the body has no attribute to update");
    const outcome = await change(ngsi.tenant, id, (e, now) => updateAttributes(e, parsed, now));
    return answerUpdate(reply, ngsi, outcome);
  });

  // Partial Attribute Update (5.6.4).
  app.patch("/entities/:entityId/attrs/:attrId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = entityId(request.params);
    const attrName = (request.params as { attrId: string }).attrId;
    checkName(attrName, "attribute");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const ctx = ngsi.context;
    const body = request.body;
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw badRequest("the body must be an attribute fragment (a JSON object)");
    const { "@context": _ignored, ...fragmentBody } = body as Record<string, unknown>;
    if (Object.keys(fragmentBody).length === 0) throw badRequest("the body is an empty attribute fragment");
    const parsed = parseAttribute(attrName, fragmentBody, ctx, "fragment");
    if (parsed === "delete" || parsed.length !== 1)
      throw badRequest("the body must be one attribute fragment");
    const iri = ngsi.context.expand(attrName);
    await change(ngsi.tenant, id, (e, now) => partialUpdate(e, iri, parsed[0]!, now));
    return reply.code(204).send();
  });

  // Delete Entity Attribute (5.6.5).
  app.delete("/entities/:entityId/attrs/:attrId", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["datasetId", "deleteAll"]);
    const id = entityId(request.params);
    const datasetId = stringParam(query, "datasetId");
    if (datasetId !== undefined && !isUri(datasetId)) throw badRequest("datasetId must be a URI");
    const deleteAll = boolParam(query, "deleteAll");
    const attrName = (request.params as { attrId: string }).attrId;
    checkName(attrName, "attribute");
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const iri = ngsi.context.expand(attrName);
    await change(ngsi.tenant, id, (e, now) => ({
      entity: deleteAttribute(e, iri, { datasetId, deleteAll }, now),
      updated: [],
      notUpdated: [],
    }));
    return reply.code(204).send();
  });
}
