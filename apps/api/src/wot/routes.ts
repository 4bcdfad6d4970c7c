import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  properties,
  types,
  woTActionInputProperties,
  woTActions,
  woTEvents,
  woTProperties,
  woTThingDescriptions,
} from "@orrery/model";
import { NgsiLdError, type Entity } from "@orrery/ngsi-ld";
import type { Sessions } from "../auth/sessions.ts";
import { asSegment } from "../auth/guard.ts";
import type { Cipher } from "../cipher.ts";
import type { Config } from "../config.ts";
import { viaBroker } from "../context-data/broker-access.ts";
import { workspaceData } from "../context-data/workspace-data.ts";
import type { Live } from "../live/routes.ts";
import { fieldError, invalid, notFound, problem, type FieldError } from "../problems.ts";
import { toItem, type Item, type Records } from "../resources/records.ts";
import { capacityOf, capacityText, inputError, withinCapacity, writtenBy } from "./capacity.ts";
import { issueStreamToken, STREAM_TOKEN, streamSession } from "./stream-tokens.ts";
import { thingDescription } from "./thing-description.ts";

/** The value a consumer reads of an attribute: a property's value, a relationship's object. */
function valueOf(attribute: unknown): unknown {
  const first = [attribute].flat()[0] as Record<string, unknown> | undefined;
  if (!first || typeof first !== "object") return undefined;
  return first.type === "Relationship" ? first.object : first.value;
}

/** The entity a form names; none (or an empty one) answers a 400 saying how to name it (see entityFor). */
const entityQuery = z.object({
  entityId: z
    .string()
    .max(2_000)
    .optional()
    .describe("The entity's id (urn:ngsi-ld:{Type}:...): needed, a 400 without it says how to name it"),
});
/** An observation's query: the entity, and the stream token of EventSource clients. */
const observationQuery = entityQuery.extend({ [STREAM_TOKEN]: z.string().max(4_000).optional() });

/**
 * The Web of Things routes: the public thing description (W3C WoT TD 1.1, no login, as the
 * original served it), and what its forms call: a property's current value on an entity of the
 * type, all of them at once, an action that checks its input and writes it to the entity through
 * the workspace's broker, and the observation of a property and the subscription of an event, fed
 * by the live channel (long poll or Server-Sent Events). The entity is named by the `entityId`
 * query parameter (the TD's URI variable).
 */
export function registerWotRoutes(
  app: FastifyInstance,
  records: Records,
  config: Config,
  live: Live,
  { sessions, cipher }: { sessions: Sessions; cipher: Cipher },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["wot"];
  const fromStreamToken = streamSession(cipher, sessions);
  const changes = (workspaceId: string, kind: string, id: string) =>
    `/api/workspace/${asSegment(workspaceId)}/${kind}/${asSegment(id)}/changes`;

  /**
   * The stream token of the caller of a TD (its Authorization header, if any): for the
   * observations of the thing's WoT properties and events the caller may open.
   */
  async function streamTokenFor(request: FastifyRequest, workspaceId: string, tdId: string) {
    const [scheme, token, extra] = (request.headers.authorization ?? "").split(" ");
    if (!token || extra !== undefined || scheme?.toLowerCase() !== "bearer") return undefined;
    const session = await sessions.find(token);
    if (!session) return undefined;
    const [wotProps, events] = await Promise.all([
      records.list(woTProperties, workspaceId),
      records.list(woTEvents, workspaceId),
    ]);
    const own = (item: Item) => item.hasWoTThingDescription === tdId;
    return issueStreamToken(cipher, session, workspaceId, [
      ...wotProps.filter(own).map((p) => changes(workspaceId, "wot-properties", p.id)),
      ...events.filter(own).map((e) => changes(workspaceId, "wot-events", e.id)),
    ]);
  }

  api.get(
    "/wot-thing-descriptions/:id",
    {
      config: { access: "public" },
      schema: { hide: true, params: z.object({ id: z.string() }), querystring: entityQuery.partial() },
    },
    async (request, reply) => {
      const row = await records.findById(woTThingDescriptions, request.params.id);
      if (!row?.workspaceId) throw notFound(request.params.id);
      const streamToken = await streamTokenFor(request, row.workspaceId, row.id);
      const td = await thingDescription(
        records,
        toItem(woTThingDescriptions, row),
        row.workspaceId,
        config.publicUrl,
        { entityId: request.query.entityId, streamToken },
      );
      // A TD with a stream token is its caller's: never kept by a cache.
      if (streamToken) reply.header("cache-control", "no-store").header("vary", "authorization");
      return reply.type("application/td+json").header("access-control-allow-origin", "*").send(td);
    },
  );

  /**
   * The entity of the thing description's type the request names; 400 when it names none (a form
   * of the TD for every entity, its URI variable not given), 404 when the broker has none.
   */
  async function entityFor(
    workspaceId: string,
    tdId: unknown,
    entityId: string | undefined,
    request: Parameters<typeof workspaceData>[3],
  ) {
    const td = await records.find(woTThingDescriptions, String(tdId), workspaceId);
    const type = td && (await records.find(types, String(td.data.hasType), workspaceId));
    const typeName = String(type?.data.name ?? "");
    if (!entityId) throw problem(400, "wot.entityMissing", { type: typeName, td: String(tdId) });
    const data = await workspaceData(records, config, workspaceId, request);
    const client = await viaBroker(() => data.broker());
    const entity = await viaBroker(async () => {
      try {
        return await client.getEntity(entityId);
      } catch (err) {
        if (err instanceof NgsiLdError && err.status === 404) return undefined;
        throw err;
      }
    });
    if (!entity || ![entity.type].flat().includes(typeName))
      throw problem(404, "wot.entityNotFound", { id: entityId, type: typeName });
    return { entity: entity as Entity, client, typeName, entityId };
  }

  const itemParams = z.object({ workspaceId: z.string(), id: z.string() });

  api.get(
    "/api/workspace/:workspaceId/wot-properties/:id/value",
    { schema: { tags, params: itemParams, querystring: entityQuery } },
    async (request) => {
      const { workspaceId, id } = request.params;
      const wotProperty = await records.find(woTProperties, id, workspaceId);
      if (!wotProperty) throw notFound(id);
      const property = await records.find(properties, String(wotProperty.data.hasProperty), workspaceId);
      const { entity, entityId } = await entityFor(
        workspaceId,
        wotProperty.data.hasWoTThingDescription,
        request.query.entityId,
        request,
      );
      const value = valueOf(entity[String(property?.data.name)]);
      if (value === undefined)
        throw problem(404, "wot.noValue", { id: entityId, name: String(property?.data.name) });
      return value;
    },
  );

  api.post(
    "/api/workspace/:workspaceId/wot-actions/:id/execute",
    {
      schema: {
        tags,
        params: itemParams,
        querystring: entityQuery,
        body: z.record(z.string(), z.unknown()).optional(),
      },
    },
    async (request, reply) => {
      const { workspaceId, id } = request.params;
      const action = await records.find(woTActions, id, workspaceId);
      if (!action) throw notFound(id);
      const td = action.data.hasWoTThingDescription;
      const body = request.body ?? {};
      const [inputs, wotProps, props] = await Promise.all([
        records.list(woTActionInputProperties, workspaceId),
        records.list(woTProperties, workspaceId),
        records.list(properties, workspaceId),
      ]);
      const own = inputs.filter((i) => i.hasWoTAction === id);
      const known = new Set(own.map((i) => String(i.name)));
      const unknown = Object.keys(body).filter((k) => !known.has(k));
      const errors: FieldError[] = unknown.length
        ? [fieldError("", "field.unknownFields", { keys: unknown.join(", ") })]
        : [];
      const attributes: Record<string, unknown> = {};
      for (const input of own) {
        const name = String(input.name);
        const value = body[name];
        if (value === undefined) {
          if (input.required === true) errors.push(fieldError(name, "field.required"));
          continue;
        }
        const wrong = inputError(input, value);
        if (wrong) {
          errors.push(wrong);
          continue;
        }
        // The WoT property of the thing description this input writes: by its property's name, else its own.
        const wotProperty = writtenBy(name, td, wotProps, (id) => props.find((p) => p.id === id)?.name);
        const capacity = wotProperty && capacityOf(wotProperty.capacityType, wotProperty.capacityValue);
        if (capacity && !("refused" in capacity) && !withinCapacity(capacity, value)) {
          errors.push(
            fieldError(name, "wot.outsideCapacity", {
              capacity: capacityText(capacity),
              type: capacity.type,
            }),
          );
          continue;
        }
        const attribute = props.find((p) => p.id === wotProperty?.hasProperty)?.name ?? name;
        attributes[String(attribute)] = { type: "Property", value };
      }
      if (errors.length) throw invalid(errors);
      const { client, entityId } = await entityFor(workspaceId, td, request.query.entityId, request);
      if (Object.keys(attributes).length)
        await viaBroker(() => client.appendAttributes(entityId, attributes));
      return reply.code(204).send();
    },
  );

  api.get(
    "/api/workspace/:workspaceId/wot-thing-descriptions/:id/property-values",
    {
      schema: {
        tags,
        summary: "The value of every WoT property of the thing description on an entity (readallproperties)",
        params: itemParams,
        querystring: entityQuery,
      },
    },
    async (request) => {
      const { workspaceId, id } = request.params;
      if (!(await records.find(woTThingDescriptions, id, workspaceId))) throw notFound(id);
      const [{ entity }, wotProps, props] = await Promise.all([
        entityFor(workspaceId, id, request.query.entityId, request),
        records.list(woTProperties, workspaceId),
        records.list(properties, workspaceId),
      ]);
      const values: Record<string, unknown> = {};
      for (const p of wotProps.filter((p) => p.hasWoTThingDescription === id)) {
        const value = valueOf(entity[String(props.find((q) => q.id === p.hasProperty)?.name)]);
        // A property the entity has no value for is left out, as a read of it alone answers 404.
        if (value !== undefined) values[String(p.name)] = value;
      }
      return values;
    },
  );

  /** Serves the new values of one attribute of an entity of the thing description's type (those `keep` accepts). */
  async function observe(
    request: FastifyRequest<{
      Params: z.infer<typeof itemParams>;
      Querystring: z.infer<typeof observationQuery>;
    }>,
    reply: FastifyReply,
    tdId: unknown,
    attribute: string,
    keep: (value: unknown) => boolean = () => true,
  ) {
    const { workspaceId, id } = request.params;
    const {
      entity: current,
      client,
      typeName,
      entityId,
    } = await entityFor(workspaceId, tdId, request.query.entityId, request);
    return live.serve(request, reply, {
      watch: { workspaceId, type: typeName, entityId, attributes: [attribute] },
      client,
      about: id,
      valueOf: (entity) => (entity.id === entityId ? valueOf(entity[attribute]) : undefined),
      // New values only: from the value the entity has now.
      since: { value: valueOf(current[attribute]) },
      keep,
    });
  }

  const liveDescription =
    "A long poll (the WoT HTTP binding's longpoll; HEAD is its handshake and already listens) answering the next value, " +
    "or with Accept: text/event-stream Server-Sent Events whose data is each value. Server-Sent Events also open " +
    `with a stream token in the query (${STREAM_TOKEN}) instead of the Authorization header, as the TD fetched with a bearer token gives it.`;

  api.get(
    "/api/workspace/:workspaceId/wot-properties/:id/changes",
    {
      config: { queryCredential: fromStreamToken },
      schema: {
        tags,
        summary: "The next values of a WoT property on an entity (observeproperty)",
        description: liveDescription,
        params: itemParams,
        querystring: observationQuery,
      },
    },
    async (request, reply) => {
      const { workspaceId, id } = request.params;
      const wotProperty = await records.find(woTProperties, id, workspaceId);
      if (!wotProperty) throw notFound(id);
      const property = await records.find(properties, String(wotProperty.data.hasProperty), workspaceId);
      return observe(request, reply, wotProperty.data.hasWoTThingDescription, String(property?.data.name));
    },
  );

  api.get(
    "/api/workspace/:workspaceId/wot-events/:id/changes",
    {
      config: { queryCredential: fromStreamToken },
      schema: {
        tags,
        summary:
          "The occurrences of a WoT event on an entity: its WoT property's new values within the event's capacity (subscribeevent)",
        description: liveDescription,
        params: itemParams,
        querystring: observationQuery,
      },
    },
    async (request, reply) => {
      const { workspaceId, id } = request.params;
      const event = await records.find(woTEvents, id, workspaceId);
      if (!event) throw notFound(id);
      const wotProperty = await records.find(woTProperties, String(event.data.hasWoTProperty), workspaceId);
      const property =
        wotProperty && (await records.find(properties, String(wotProperty.data.hasProperty), workspaceId));
      if (!property) throw notFound(String(event.data.hasWoTProperty));
      const capacity = capacityOf(event.data.capacityType, event.data.capacityValue);
      return observe(
        request,
        reply,
        event.data.hasWoTThingDescription,
        String(property.data.name),
        (value) => "refused" in capacity || withinCapacity(capacity, value),
      );
    },
  );
}
