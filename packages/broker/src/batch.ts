import type { FastifyInstance, FastifyReply } from "fastify";
import { isUri, parseEntity, type ParsedEntity } from "./attributes.ts";
import type { Broker } from "./broker.ts";
import type { StoredEntity } from "./model.ts";
import { appendAttributes, newEntity, replaceEntity } from "./operations.ts";
import { checkParams, listParam, type Query } from "./params.ts";
import { NgsiLdError, badRequest, type ProblemDetails } from "./problems.ts";
import { bodyContext, ngsiRequest, type NgsiRequest } from "./request.ts";

/**
 * Batch entity operations (ETSI GS CIM 009 v1.8, 5.6.7-5.6.10): each entity succeeds or fails on
 * its own; failures are reported in a BatchOperationResult (5.2.16) with status 207. The valid
 * entities are read and written in one statement each, inside one transaction.
 */
interface BatchError {
  entityId: string;
  error: ProblemDetails;
}

class BatchResult {
  readonly success: string[] = [];
  readonly errors: BatchError[] = [];
  fail(entityId: unknown, error: unknown): void {
    if (!(error instanceof NgsiLdError)) throw error;
    this.errors.push({ entityId: typeof entityId === "string" ? entityId : "", error: error.toProblem() });
  }
}

function entitiesOf(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw badRequest("the body must be a JSON array");
  if (body.length === 0) throw badRequest("the body must not be an empty array");
  return body;
}

/** Parses every entity with its own @context; the ones that fail are recorded, not thrown. */
async function parseAll(
  broker: Broker,
  ngsi: NgsiRequest,
  body: unknown,
  result: BatchResult,
  requireType: boolean,
): Promise<ParsedEntity[]> {
  const parsed: ParsedEntity[] = [];
  for (const item of entitiesOf(body)) {
    const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined;
    try {
      const ctx = await bodyContext(item, ngsi.context, broker.contexts);
      parsed.push(parseEntity(item, ctx, { mode: "full", requireId: true, requireType }));
    } catch (error) {
      result.fail(id, error);
    }
  }
  return parsed;
}

function answer(reply: FastifyReply, result: BatchResult, okStatus: 201 | 204, created: string[] = []) {
  if (result.errors.length)
    return reply.code(207).type("application/json").send({ success: result.success, errors: result.errors });
  if (okStatus === 204) return reply.code(204).send();
  return reply.code(201).type("application/json").send(created);
}

export function registerBatchRoutes(app: FastifyInstance, broker: Broker): void {
  const { store } = broker;

  app.post("/entityOperations/create", async (request, reply) => {
    checkParams(request.query as Query, []);
    const ngsi = await ngsiRequest(request, broker.contexts, { hasBody: true });
    const result = new BatchResult();
    const now = new Date().toISOString();
    const fresh: StoredEntity[] = [];
    const seen = new Set<string>();
    for (const p of await parseAll(broker, ngsi, request.body, result, true)) {
      if (seen.has(p.id!))
        result.fail(p.id, new NgsiLdError("AlreadyExists", `entity ${p.id} is given twice in the batch`));
      else fresh.push(newEntity(p, now));
      seen.add(p.id!);
    }
    const inserted = await store.insert(ngsi.tenant, fresh);
    for (const e of fresh) {
      if (inserted.has(e.id)) result.success.push(e.id);
      else result.fail(e.id, new NgsiLdError("AlreadyExists", `entity ${e.id} already exists`));
    }
    return answer(reply, result, 201, result.success);
  });

  app.post("/entityOperations/upsert", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["options"]);
    const options = listParam(query, "options") ?? [];
    if (options.length > 1 || options.some((o) => o !== "replace" && o !== "update"))
      throw badRequest("options must be replace or update");
    const update = options[0] === "update";
    const ngsi = await ngsiRequest(request, broker.contexts, { hasBody: true });
    const result = new BatchResult();
    const parsed = await parseAll(broker, ngsi, request.body, result, true);
    const now = new Date().toISOString();
    const created = await store.modify(ngsi.tenant, [...new Set(parsed.map((p) => p.id!))], (current) => {
      const changed = new Map<string, StoredEntity>();
      const createdIds: string[] = [];
      // In order, so that a later item with the same id applies on top of an earlier one.
      for (const p of parsed) {
        const existing = changed.get(p.id!) ?? current.get(p.id!);
        if (!existing) {
          changed.set(p.id!, newEntity(p, now));
          createdIds.push(p.id!);
        } else
          changed.set(
            p.id!,
            update ? appendAttributes(existing, p, now, false).entity : replaceEntity(existing, p, now),
          );
        result.success.push(p.id!);
      }
      return { write: [...changed.values()], result: createdIds };
    });
    return answer(reply, result, created.length ? 201 : 204, created);
  });

  app.post("/entityOperations/update", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["options"]);
    const options = listParam(query, "options") ?? [];
    if (options.some((o) => o !== "noOverwrite")) throw badRequest("options must be noOverwrite");
    const ngsi = await ngsiRequest(request, broker.contexts, { hasBody: true });
    const result = new BatchResult();
    const parsed = await parseAll(broker, ngsi, request.body, result, false);
    const now = new Date().toISOString();
    await store.modify(ngsi.tenant, [...new Set(parsed.map((p) => p.id!))], (current) => {
      const changed = new Map<string, StoredEntity>();
      for (const p of parsed) {
        const existing = changed.get(p.id!) ?? current.get(p.id!);
        if (!existing) {
          result.fail(p.id, new NgsiLdError("ResourceNotFound", `entity ${p.id} does not exist`));
          continue;
        }
        changed.set(p.id!, appendAttributes(existing, p, now, options.includes("noOverwrite")).entity);
        result.success.push(p.id!);
      }
      return { write: [...changed.values()], result: undefined };
    });
    return answer(reply, result, 204);
  });

  app.post("/entityOperations/delete", async (request, reply) => {
    checkParams(request.query as Query, []);
    // The body is a list of ids: no term to expand, so no @context is asked of it, even as application/ld+json.
    const ngsi = await ngsiRequest(request, broker.contexts, { hasBody: false });
    const result = new BatchResult();
    const ids: string[] = [];
    for (const id of entitiesOf(request.body)) {
      if (!isUri(id)) result.fail(id, badRequest(`${JSON.stringify(id)} is not an entity id (a URI)`));
      else if (!ids.includes(id)) ids.push(id);
    }
    const removed = await store.remove(ngsi.tenant, ids);
    for (const id of ids) {
      if (removed.has(id)) result.success.push(id);
      else result.fail(id, new NgsiLdError("ResourceNotFound", `entity ${id} does not exist`));
    }
    return answer(reply, result, 204);
  });
}
