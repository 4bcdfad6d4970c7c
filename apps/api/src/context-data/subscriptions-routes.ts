import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../config.ts";
import { withoutLiveEndpoint } from "../live/channels.ts";
import { usesOwnBroker } from "../live/own-broker.ts";
import { isAdministrator } from "../pep/enforce.ts";
import { privateEndpoint } from "../pep/endpoints.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { listOrEmpty, viaBroker } from "./broker-access.ts";
import { workspaceData } from "./workspace-data.ts";

const workspaceParams = z.object({ workspaceId: z.string() });
const subscriptionParams = workspaceParams.extend({ subscriptionId: z.string().min(1) });
const uri = z.string().regex(/^[a-z][a-z0-9+.-]*:\S+$/i, "must be a URI");
const text = z.string().trim().min(1);

const entitySelector = z
  .object({ id: uri.optional(), idPattern: text.optional(), type: text.optional() })
  .refine((e) => e.id || e.idPattern || e.type, "needs an id, an idPattern or a type");

/** Drops empty strings, arrays and objects, as the spec asks ("empty fields omitted"). */
export function withoutEmpty<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutEmpty) as T;
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const cleaned = withoutEmpty(v);
    const empty =
      cleaned === "" ||
      cleaned === undefined ||
      (Array.isArray(cleaned) && cleaned.length === 0) ||
      (cleaned &&
        typeof cleaned === "object" &&
        !Array.isArray(cleaned) &&
        Object.keys(cleaned).length === 0);
    if (!empty) out[k] = cleaned;
  }
  return out as T;
}

/** The spec's subscription fields; the broker keeps the status members up to date. */
const subscriptionFields = z.object({
  id: uri.optional(),
  type: z.literal("Subscription").default("Subscription"),
  subscriptionName: text.optional(),
  description: text.optional(),
  entities: z.array(entitySelector).optional(),
  watchedAttributes: z.array(text).optional(),
  timeInterval: z.number().int().min(1).optional(),
  q: text.optional(),
  geoQ: z
    .object({
      geometry: z.enum(["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]),
      coordinates: z.union([z.array(z.unknown()), z.string()]),
      georel: text,
      geoproperty: text.optional(),
    })
    .optional(),
  isActive: z.boolean().default(true),
  notification: z.object({
    attributes: z.array(text).optional(),
    format: z.enum(["normalized", "keyValues", "concise"]).optional(),
    endpoint: z.object({
      uri: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
      accept: z.enum(["application/json", "application/ld+json", "application/geo+json"]).optional(),
      receiverInfo: z.array(z.object({ key: text, value: z.string() })).optional(),
      notifierInfo: z.array(z.object({ key: text, value: z.string() })).optional(),
    }),
  }),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  throttling: z.number().int().min(1).optional(),
  lang: text.optional(),
});
// "Empty fields omitted" (spec): an empty text, list or object is dropped before validation.
const subscriptionInput = z.preprocess(withoutEmpty, subscriptionFields);
const updateInput = z.preprocess(withoutEmpty, subscriptionFields.omit({ id: true, type: true }).partial());

const subscription = z.record(z.string(), z.unknown());

/**
 * Whether the caller sees where a live channel's notifications go (its address and proof): those
 * who may register context brokers. Anyone else could post forged notifications with them.
 */
const seesLiveEndpoints = (request: FastifyRequest) => !!request.session && isAdministrator(request.session);
const shownTo = (request: FastifyRequest) => (s: Record<string, unknown>) =>
  seesLiveEndpoints(request) ? s : withoutLiveEndpoint(s);

const typesOf = (s: Record<string, unknown>) =>
  ((s.entities as Array<{ type?: string }> | undefined) ?? []).map((e) => e.type);

/**
 * The workspace's subscriptions on its broker. A list is per entity type, as in the original
 * (the broker has no "subscriptions of a type" query, so all are read and filtered).
 */
export function registerSubscriptionRoutes(app: FastifyInstance, records: Records, config: Config): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["subscriptions"];
  const broker = async (workspaceId: string, request: Parameters<typeof workspaceData>[3]) =>
    (await workspaceData(records, config, workspaceId, request)).broker();
  /**
   * A subscription on this process's embedded broker makes this server send its notifications: to a
   * private address only when an administrator writes it (as the broker's own enforcement point says).
   */
  const requireReachableEndpoint = async (request: FastifyRequest, workspaceId: string, uri: unknown) => {
    if (typeof uri !== "string" || (request.session && isAdministrator(request.session))) return;
    const found = await privateEndpoint([uri]);
    if (found && (await usesOwnBroker(records, workspaceId)))
      throw problem(403, "pep.privateEndpoint", { endpoint: found });
  };

  api.get(
    "/api/workspace/:workspaceId/subscriptions",
    {
      schema: {
        tags,
        summary: "The subscriptions about an entity type",
        params: workspaceParams,
        querystring: z.object({ type: z.string().optional() }),
        response: { 200: z.array(subscription) },
      },
    },
    async (request) => {
      const client = await broker(request.params.workspaceId, request);
      const { type } = request.query;
      const all = await viaBroker(() => listOrEmpty(() => client.subscriptions(), []));
      return (type ? all.filter((s) => typesOf(s).includes(type)) : all).map(shownTo(request));
    },
  );

  api.get(
    "/api/workspace/:workspaceId/subscriptions/:subscriptionId",
    {
      schema: { tags, summary: "One subscription with its notification status", params: subscriptionParams },
    },
    async (request) => {
      const client = await broker(request.params.workspaceId, request);
      return shownTo(request)(await viaBroker(() => client.getSubscription(request.params.subscriptionId)));
    },
  );

  api.post(
    "/api/workspace/:workspaceId/subscriptions",
    {
      schema: {
        tags,
        summary: "Create a subscription (id generated when absent)",
        params: workspaceParams,
        body: subscriptionInput,
      },
    },
    async (request, reply) => {
      await requireReachableEndpoint(
        request,
        request.params.workspaceId,
        request.body.notification.endpoint.uri,
      );
      const client = await broker(request.params.workspaceId, request);
      const input = request.body;
      const id = input.id ?? `urn:ngsi-ld:Subscription:${randomUUID()}`;
      const created = await viaBroker(async () => {
        await client.createSubscription({ ...input, id });
        return client.getSubscription(id);
      });
      return reply.code(201).send(shownTo(request)(created));
    },
  );

  api.put(
    "/api/workspace/:workspaceId/subscriptions/:subscriptionId",
    {
      schema: { tags, summary: "Update a subscription", params: subscriptionParams, body: updateInput },
    },
    async (request) => {
      await requireReachableEndpoint(
        request,
        request.params.workspaceId,
        request.body.notification?.endpoint?.uri,
      );
      const client = await broker(request.params.workspaceId, request);
      const { subscriptionId } = request.params;
      return shownTo(request)(
        await viaBroker(async () => {
          await client.updateSubscription(subscriptionId, request.body);
          return client.getSubscription(subscriptionId);
        }),
      );
    },
  );

  api.delete(
    "/api/workspace/:workspaceId/subscriptions/:subscriptionId",
    { schema: { tags, summary: "Delete a subscription", params: subscriptionParams } },
    async (request, reply) => {
      const client = await broker(request.params.workspaceId, request);
      await viaBroker(() => client.deleteSubscription(request.params.subscriptionId));
      return reply.code(204).send();
    },
  );
}
