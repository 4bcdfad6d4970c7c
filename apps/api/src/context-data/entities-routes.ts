import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Entity, EntityQuery, NgsiLdClient } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { problem } from "../problems.ts";
import type { Item, Records } from "../resources/records.ts";
import { listOrEmpty, viaBroker } from "./broker-access.ts";
import { byNameThenId, pageByName, SORTED_UP_TO } from "./entity-order.ts";
import { completeAttributes, newEntity, updateAttributes } from "./entity-input.ts";
import type { OwnBroker } from "./own-broker.ts";
import { workspaceData } from "./workspace-data.ts";

const workspaceParams = z.object({ workspaceId: z.string() });
const entityParams = workspaceParams.extend({ entityId: z.string().min(1) });
const attributeParams = entityParams.extend({ attrName: z.string().min(1) });
const entity = z.looseObject({ id: z.string(), type: z.union([z.string(), z.array(z.string())]) });
const anyBody = z.unknown();

const listQuery = z.object({
  type: z.string().optional(),
  typeId: z
    .string()
    .optional()
    .describe("a type of the workspace's data model, by id, instead of its name in `type`"),
  q: z.string().optional(),
  idPattern: z.string().optional(),
  attrs: z.string().optional().describe("comma-separated attribute names"),
  limit: z.coerce.number().int().min(1).max(1000).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  count: z.enum(["true", "false"]).optional(),
  search: z.string().optional().describe("case-insensitive part of the id or of the name"),
  georel: z
    .string()
    .max(200)
    .optional()
    .describe("a geo-query, with geometry and coordinates: within, intersects, near;maxDistance==…"),
  geometry: z.string().max(50).optional(),
  coordinates: z.string().max(100_000).optional().describe("GeoJSON coordinates as JSON text"),
  geoproperty: z.string().max(200).optional(),
  order: z
    .enum(["name"])
    .optional()
    .describe(
      `name: every entity (with or without a name) by name, then id, across pages, answering only id, type and name; past ${SORTED_UP_TO} entities the broker's order (X-Order says which)`,
    ),
});

/**
 * A regular expression matching a text anywhere, ignoring case, written with character classes
 * ([bB]) because brokers differ on `(?i)` (POSIX in PostgreSQL, Java in Scorpio, none in JS).
 */
const containing = (text: string) =>
  `.*${[...text]
    .map((c) =>
      c.toLowerCase() !== c.toUpperCase()
        ? `[${c.toLowerCase()}${c.toUpperCase()}]`
        : /[.*+?^${}()|[\]\\"]/.test(c)
          ? `\\${c}`
          : c,
    )
    .join("")}.*`;

/**
 * A geo-query of the list's parameters (the map of an area): all three of georel, geometry and
 * coordinates, or none; the broker judges the geometry itself (400 BadRequestData, passed on).
 */
function geoQueryOf(p: { georel?: string; geometry?: string; coordinates?: string; geoproperty?: string }) {
  const given = [p.georel, p.geometry, p.coordinates].filter((v) => v !== undefined).length;
  if (given === 0) return undefined;
  let coordinates: unknown;
  try {
    coordinates = given === 3 ? JSON.parse(p.coordinates!) : undefined;
  } catch {
    coordinates = undefined;
  }
  if (!Array.isArray(coordinates)) throw problem(400, "entity.geoQuery");
  return {
    georel: p.georel!,
    geometry: p.geometry!,
    coordinates,
    ...(p.geoproperty ? { geoproperty: p.geoproperty } : {}),
  };
}

/**
 * The workspace's entities, proxied to its broker through the one NGSI-LD client: tenant,
 * @context, custom headers and tokens applied; ids, datasetIds and observedAt completed from the
 * data model; the broker's failures answered as problems (broker-access.ts).
 */
export function registerEntityRoutes(
  app: FastifyInstance,
  records: Records,
  config: Config,
  /** This process's broker: a list in name order is kept while its tenant's entities stay the same. */
  own: OwnBroker = {},
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["entities"];

  /** Reads the entity, applies a change with its type's data model, and answers the entity as stored. */
  async function changeEntity(
    request: FastifyRequest<{ Params: { workspaceId: string; entityId: string } }>,
    change: (client: NgsiLdClient, current: Entity, model: Map<string, Item>) => Promise<void>,
  ): Promise<Entity> {
    const { workspaceId, entityId } = request.params;
    const data = await workspaceData(records, config, workspaceId, request);
    return viaBroker(async () => {
      const client = await data.broker();
      const current = await client.getEntity(entityId);
      await change(client, current, await data.model([current.type].flat()[0]!));
      return client.getEntity(entityId);
    });
  }

  api.get(
    "/api/workspace/:workspaceId/entities",
    {
      schema: {
        tags,
        summary: "One page of the workspace's entities (X-Total-Count with count=true, or in name order)",
        params: workspaceParams,
        querystring: listQuery,
        response: { 200: z.array(entity) },
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const { search, attrs, count, typeId, order, georel, geometry, coordinates, geoproperty, ...rest } =
        request.query;
      const geoQ = geoQueryOf({ georel, geometry, coordinates, geoproperty });
      const data = await workspaceData(records, config, workspaceId, request, own);
      const query: EntityQuery = {
        ...rest,
        ...(geoQ ? { geoQ } : {}),
        ...(typeId ? { type: String((await data.typeById(typeId)).name) } : {}),
        ...(attrs && !order ? { attrs: attrs.split(",").filter(Boolean) } : {}),
      };
      const client = await viaBroker(() => data.broker());
      return viaBroker(async () => {
        if (search) {
          // NGSI-LD cannot say "id or name" in one query: two pages, merged (each within q's).
          const none = { entities: [] };
          const named = `name~="${containing(search)}"`;
          const nameQuery = query.q ? `(${query.q});${named}` : named;
          const [byId, byName] = await Promise.all([
            listOrEmpty(() => client.queryEntities({ ...query, idPattern: containing(search) }), none),
            listOrEmpty(() => client.queryEntities({ ...query, q: nameQuery }), none),
          ]);
          const seen = new Set<string>();
          const found = [...byId.entities, ...byName.entities].filter(
            (e) => !seen.has(e.id) && seen.add(e.id),
          );
          if (order) reply.header("x-order", "name");
          return (order ? found.sort(byNameThenId) : found).slice(0, query.limit);
        }
        if (order) {
          const writes = await data.brokerWrites();
          const page = await listOrEmpty(
            () =>
              pageByName(
                client,
                query,
                { limit: query.limit ?? 20, offset: query.offset ?? 0 },
                SORTED_UP_TO,
                writes,
              ),
            { entities: [], count: 0, order: "name" as const },
          );
          if (page.count !== undefined) reply.header("x-total-count", String(page.count));
          reply.header("x-order", page.order);
          return page.entities;
        }
        const page = await listOrEmpty(() => client.queryEntities({ ...query, count: count === "true" }), {
          entities: [],
          count: count === "true" ? 0 : undefined,
        });
        if (page.count !== undefined) reply.header("x-total-count", String(page.count));
        return page.entities;
      });
    },
  );

  api.get(
    "/api/workspace/:workspaceId/entities/:entityId",
    { schema: { tags, summary: "One entity", params: entityParams, response: { 200: entity } } },
    async (request) => {
      const data = await workspaceData(records, config, request.params.workspaceId, request);
      return viaBroker(async () => (await data.broker()).getEntity(request.params.entityId));
    },
  );

  api.post(
    "/api/workspace/:workspaceId/entities",
    {
      schema: {
        tags,
        summary: "Create an entity (id generated from the type when empty)",
        params: workspaceParams,
        body: anyBody,
        response: { 201: entity },
      },
    },
    async (request, reply) => {
      const data = await workspaceData(records, config, request.params.workspaceId, request);
      const created = await newEntity(request.body, data.model);
      const stored = await viaBroker(async () => {
        const client = await data.broker();
        await client.createEntity(created);
        return client.getEntity(created.id);
      });
      return reply.code(201).send(stored);
    },
  );

  api.put(
    "/api/workspace/:workspaceId/entities/:entityId",
    {
      schema: {
        tags,
        summary: "Replace all attributes of an entity",
        params: entityParams,
        body: anyBody,
        response: { 200: entity },
      },
    },
    async (request) =>
      changeEntity(request, (client, current, model) =>
        client.replaceEntity({
          id: current.id,
          type: current.type,
          ...updateAttributes(request.body, model),
        }),
      ),
  );

  api.delete(
    "/api/workspace/:workspaceId/entities/:entityId",
    { schema: { tags, summary: "Delete an entity", params: entityParams } },
    async (request, reply) => {
      const data = await workspaceData(records, config, request.params.workspaceId, request);
      await viaBroker(async () => (await data.broker()).deleteEntity(request.params.entityId));
      return reply.code(204).send();
    },
  );

  api.post(
    "/api/workspace/:workspaceId/entities/:entityId/attrs",
    {
      schema: {
        tags,
        summary: "Add attributes (or values of a multi-valued attribute)",
        params: entityParams,
        body: anyBody,
        response: { 200: entity },
      },
    },
    async (request) =>
      changeEntity(request, async (client, current, model) => {
        const added = updateAttributes(request.body, model);
        const clash = Object.keys(added).filter(
          (name) => current[name] !== undefined && !Array.isArray(added[name]),
        );
        if (clash.length) throw problem(409, "entity.attributesExist", { names: clash });
        await client.appendAttributes(current.id, added);
      }),
  );

  api.put(
    "/api/workspace/:workspaceId/entities/:entityId/attrs/:attrName",
    {
      schema: {
        tags,
        summary: "Replace one attribute (all its values when multi-valued)",
        params: attributeParams,
        body: anyBody,
        response: { 200: entity },
      },
    },
    async (request) =>
      changeEntity(request, async (client, current, model) => {
        const { attrName } = request.params;
        if (current[attrName] === undefined)
          throw problem(404, "notFound.attribute", { entity: current.id, attribute: attrName });
        const { [attrName]: value } = completeAttributes({ [attrName]: request.body }, model);
        await client.replaceEntity({ ...current, [attrName]: value });
      }),
  );

  api.delete(
    "/api/workspace/:workspaceId/entities/:entityId/attrs/:attrName",
    {
      schema: {
        tags,
        summary:
          "Delete an attribute (every value), one value of it by datasetId, or its default value (deleteAll=false)",
        params: attributeParams,
        querystring: z.object({
          datasetId: z.string().optional(),
          deleteAll: z
            .enum(["true", "false"])
            .default("true")
            .describe("without datasetId: false deletes only the value that has no datasetId"),
        }),
      },
    },
    async (request, reply) => {
      const { entityId, attrName } = request.params;
      const data = await workspaceData(records, config, request.params.workspaceId, request);
      await viaBroker(async () =>
        (await data.broker()).deleteAttribute(entityId, attrName, {
          ...(request.query.datasetId
            ? { datasetId: request.query.datasetId }
            : { deleteAll: request.query.deleteAll === "true" }),
        }),
      );
      return reply.code(204).send();
    },
  );
}
