import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isUri } from "./attributes.ts";
import type { Broker } from "./broker.ts";
import { checkParams, pageParams, stringParam, type Query } from "./params.ts";
import { NgsiLdError, badRequest, notFound } from "./problems.ts";
import { ngsiRequest, pathSegment, sendJson } from "./request.ts";
import {
  mergeFragment,
  parseSubscription,
  renderDefinition,
  renderSubscription,
  type StoredSubscription,
} from "./subscription-model.ts";

/** Where entity subscriptions and context source subscriptions differ, for postSubscription. */
export interface SubscriptionKind {
  /** Their collection under the broker's prefix. */
  path: "subscriptions" | "csourceSubscriptions";
  parse: (
    body: unknown,
    ctx: Parameters<typeof parseSubscription>[1],
  ) => ReturnType<typeof parseSubscription>;
  store: { insert(tenant: string, subscription: StoredSubscription, now: string): Promise<boolean> };
  /** After it is stored (the notifier reads the entity subscriptions again). */
  created?: () => void;
}

/**
 * POST of a subscription of either kind: parsed against the request's @context, given an id when
 * it has none, stored (409 AlreadyExists when the id is taken), answered 201 with its Location.
 */
export async function postSubscription(
  broker: Broker,
  kind: SubscriptionKind,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  checkParams(request.query as Query, []);
  const ngsi = await ngsiRequest(request, broker.contexts, { hasBody: true });
  const parsed = kind.parse(request.body, ngsi.context);
  const subscription: StoredSubscription = {
    ...parsed,
    id: parsed.id ?? `urn:ngsi-ld:Subscription:${randomUUID()}`,
    context: ngsi.context.value,
  };
  await broker.store.ensureTenant(ngsi.tenant);
  if (!(await kind.store.insert(ngsi.tenant, subscription, new Date().toISOString())))
    throw new NgsiLdError("AlreadyExists", `subscription ${subscription.id} already exists`);
  kind.created?.();
  return reply
    .code(201)
    .header("location", `${broker.prefix}/${kind.path}/${pathSegment(subscription.id)}`)
    .send();
}

/**
 * A stored subscription of either kind with a PATCH fragment merged in: its definition compacted
 * with the request's @context, merged, and read back with it. Only a new expiresAt must lie in the
 * future: an expired subscription can still be edited.
 */
export function patchedSubscription(
  stored: StoredSubscription,
  fragment: Record<string, unknown>,
  ctx: Parameters<typeof parseSubscription>[1],
  parse: SubscriptionKind["parse"],
): StoredSubscription {
  const merged = mergeFragment(renderDefinition(stored, ctx), fragment);
  const keptExpiry = "expiresAt" in fragment ? undefined : merged.expiresAt;
  delete merged.expiresAt;
  if ("expiresAt" in fragment && fragment.expiresAt !== null) merged.expiresAt = fragment.expiresAt;
  const next: StoredSubscription = { ...parse(merged, ctx), id: stored.id, context: stored.context };
  if (keptExpiry !== undefined) next.expiresAt = keptExpiry as string;
  return next;
}

/** Subscription routes (ETSI GS CIM 009 v1.8, 5.8.1-5.8.5; HTTP binding 6.10, 6.11). */
export function registerSubscriptionRoutes(app: FastifyInstance, broker: Broker): void {
  const { subscriptions, contexts } = broker;

  const subscriptionId = (params: unknown): string => {
    const id = (params as { subscriptionId: string }).subscriptionId;
    if (!isUri(id)) throw badRequest(`subscription id ${JSON.stringify(id)} is not a URI`);
    return id;
  };
  const sysAttrsOf = (query: Query) => {
    const options = stringParam(query, "options")?.split(",") ?? [];
    for (const o of options) if (o !== "sysAttrs") throw badRequest(`unknown option ${o}`);
    return options.includes("sysAttrs");
  };

  app.post("/subscriptions", (request, reply) =>
    postSubscription(
      broker,
      {
        path: "subscriptions",
        parse: parseSubscription,
        store: subscriptions,
        created: () => broker.onSubscriptionChange(),
      },
      request,
      reply,
    ),
  );

  app.get("/subscriptions", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["limit", "offset", "count", "options", "local"]);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const { limit, offset, count } = pageParams(query, broker);
    const sysAttrs = sysAttrsOf(query);
    await broker.store.requireTenant(ngsi.tenant);
    if (count) reply.header("NGSILD-Results-Count", String(await subscriptions.count(ngsi.tenant)));
    const rows = limit === 0 ? [] : await subscriptions.list(ngsi.tenant, limit, offset);
    return sendJson(
      reply,
      ngsi,
      rows.map((r) => renderSubscription(r.subscription, r.delivery, ngsi.context, sysAttrs ? r : undefined)),
    );
  });

  app.get("/subscriptions/:subscriptionId", async (request, reply) => {
    const query = request.query as Query;
    checkParams(query, ["options"]);
    const id = subscriptionId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    const sysAttrs = sysAttrsOf(query);
    const row = await subscriptions.get(ngsi.tenant, id);
    if (!row) throw notFound(`subscription ${id} does not exist`);
    return sendJson(
      reply,
      ngsi,
      renderSubscription(row.subscription, row.delivery, ngsi.context, sysAttrs ? row : undefined),
    );
  });

  app.patch("/subscriptions/:subscriptionId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = subscriptionId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: true });
    const row = await subscriptions.get(ngsi.tenant, id);
    if (!row) throw notFound(`subscription ${id} does not exist`);
    const fragment = request.body as Record<string, unknown>;
    const next = patchedSubscription(row.subscription, fragment, ngsi.context, parseSubscription);
    if (!("q" in fragment) && row.subscription.q !== undefined) {
      next.q = row.subscription.q; // q keeps the names it was written with
      next.qPaths = row.subscription.qPaths;
    }
    if (!(await subscriptions.update(ngsi.tenant, next, new Date().toISOString())))
      throw notFound(`subscription ${id} does not exist`);
    broker.onSubscriptionChange();
    return reply.code(204).send();
  });

  app.delete("/subscriptions/:subscriptionId", async (request, reply) => {
    checkParams(request.query as Query, []);
    const id = subscriptionId(request.params);
    const ngsi = await ngsiRequest(request, contexts, { hasBody: false });
    if (!(await subscriptions.remove(ngsi.tenant, id))) throw notFound(`subscription ${id} does not exist`);
    broker.onSubscriptionChange();
    return reply.code(204).send();
  });
}
