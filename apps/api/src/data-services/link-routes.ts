import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { dataServices } from "@orrery/model";
import { fieldError, invalid, problem } from "../problems.ts";
import { toItem, type Item, type Records } from "../resources/records.ts";

/**
 * The spec's data-service-actions and data-service-properties, for clients that link a data service
 * call by call (the original console): views of the service's own `hasDataActions` and
 * `hasProperties`, so that a link is written in the same row as the service and a failure leaves
 * nothing half made. A link's id names its service and target (`urn:ngsi-ld:DataServiceAction:…`).
 */
const links = [
  {
    path: "data-service-actions",
    urnType: "DataServiceAction",
    field: "hasDataActions",
    key: "hasDataAction",
  },
  {
    path: "data-service-properties",
    urnType: "DataServiceProperty",
    field: "hasProperties",
    key: "hasProperty",
  },
] as const;

type Link = (typeof links)[number];

const idOf = (link: Link, serviceId: string, targetId: string) =>
  `urn:ngsi-ld:${link.urnType}:${Buffer.from(`${serviceId} ${targetId}`).toString("base64url")}`;

/** The service and target a link id names, if it is one of this kind of link. */
function parse(link: Link, id: string): { serviceId: string; targetId: string } | undefined {
  const prefix = `urn:ngsi-ld:${link.urnType}:`;
  if (!id.startsWith(prefix)) return undefined;
  const [serviceId, targetId, ...rest] = Buffer.from(id.slice(prefix.length), "base64url")
    .toString()
    .split(" ");
  return serviceId && targetId && !rest.length ? { serviceId, targetId } : undefined;
}

const linksOf = (link: Link, service: Item, workspaceId: string) =>
  ((service[link.field] as string[] | undefined) ?? []).map((targetId) => ({
    id: idOf(link, service.id, targetId),
    hasDataService: service.id,
    [link.key]: targetId,
    hasWorkspace: workspaceId,
  }));

/** The record fields of a data service as an update takes them (what it has, without id and workspace). */
function dataOf(service: Item): Record<string, unknown> {
  const { id: _id, hasWorkspace: _ws, ...data } = service;
  return data;
}

export function registerDataServiceLinkRoutes(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const link of links) {
    const collection = `/api/workspace/:workspaceId/${link.path}`;
    const tags = ["data-services"];
    const linkSchema = z.object({
      id: z.string(),
      hasDataService: z.string(),
      [link.key]: z.string(),
      hasWorkspace: z.string(),
    });
    const workspaceParams = z.object({ workspaceId: z.string() });
    const itemParams = z.object({ workspaceId: z.string(), id: z.string() });

    const serviceOf = async (workspaceId: string, serviceId: string) => {
      const found = await records.find(dataServices, serviceId, workspaceId);
      return found ? toItem(dataServices, found) : undefined;
    };
    const linkAt = async (workspaceId: string, id: string) => {
      const at = parse(link, id);
      const service = at && (await serviceOf(workspaceId, at.serviceId));
      if (!at || !service || !((service[link.field] as string[] | undefined) ?? []).includes(at.targetId))
        throw problem(404, "link.notFound", { id });
      return { service, targetId: at.targetId };
    };

    api.get(
      collection,
      {
        schema: {
          tags,
          summary: `List the ${link.path} of the workspace's data services`,
          params: workspaceParams,
          response: { 200: z.array(linkSchema) },
        },
      },
      async (request) => {
        const { workspaceId } = request.params;
        await records.requireWorkspace(workspaceId);
        return (await records.list(dataServices, workspaceId)).flatMap((s) => linksOf(link, s, workspaceId));
      },
    );

    api.get(
      `${collection}/:id`,
      {
        schema: {
          tags,
          summary: `Show one of ${link.path}`,
          params: itemParams,
          response: { 200: linkSchema },
        },
      },
      async (request) => {
        const { workspaceId, id } = request.params;
        await records.requireWorkspace(workspaceId);
        const { service, targetId } = await linkAt(workspaceId, id);
        return linksOf(link, service, workspaceId).find((l) => l[link.key] === targetId)!;
      },
    );

    api.post(
      collection,
      {
        schema: {
          tags,
          summary: `Link a data service to one more ${link.key === "hasProperty" ? "property" : "data action"}`,
          params: workspaceParams,
          body: z.strictObject({
            hasDataService: z.string().min(1),
            [link.key]: z.string().min(1),
            hasWorkspace: z.string().optional(),
          }),
          response: { 201: linkSchema },
        },
      },
      async (request, reply) => {
        const { workspaceId } = request.params;
        await records.requireWorkspace(workspaceId);
        const body = request.body as Record<string, string>;
        if (body.hasWorkspace !== undefined && body.hasWorkspace !== workspaceId)
          throw invalid([fieldError("hasWorkspace", "field.otherWorkspace", { workspace: workspaceId })]);
        const service = await serviceOf(workspaceId, body.hasDataService!);
        if (!service)
          throw invalid([
            fieldError("hasDataService", "field.unknownReferenceHere", { kind: "data-services" }),
          ]);
        const targetId = body[link.key]!;
        const current = (service[link.field] as string[] | undefined) ?? [];
        if (current.includes(targetId))
          throw problem(409, "link.exists", { id: idOf(link, service.id, targetId) });
        // The service's own update checks the target: of this workspace, of the service's type.
        try {
          await records
            .as(request.session)
            .update(
              dataServices,
              service.id,
              { ...dataOf(service), [link.field]: [...current, targetId] },
              { workspaceId },
            );
        } catch (err) {
          throw renamed(err, `${link.field}.${current.length}`, link.key);
        }
        const created = linksOf(link, { ...service, [link.field]: [targetId] }, workspaceId)[0]!;
        return reply
          .code(201)
          .header("location", `${request.url.split("?")[0]}/${created.id}`)
          .send(created);
      },
    );

    api.delete(
      `${collection}/:id`,
      { schema: { tags, summary: `Unlink (one of ${link.path})`, params: itemParams } },
      async (request, reply) => {
        const { workspaceId, id } = request.params;
        await records.requireWorkspace(workspaceId);
        const at = parse(link, id);
        if (!at) throw problem(404, "link.notFound", { id });
        // Already gone is done: the original console deletes a data service, which takes its
        // links along, and then deletes each link it had listed.
        const service = await serviceOf(workspaceId, at.serviceId);
        const current = (service?.[link.field] as string[] | undefined) ?? [];
        if (!service || !current.includes(at.targetId)) return reply.code(204).send();
        const rest = current.filter((t) => t !== at.targetId);
        // An empty list, not an absent one: an update that leaves the links out keeps them.
        await records
          .as(request.session)
          .update(dataServices, service.id, { ...dataOf(service), [link.field]: rest }, { workspaceId });
        return reply.code(204).send();
      },
    );
  }
}

/** A field error of the service's update, said of the link's own field (hasDataActions.2 → hasDataAction). */
function renamed(err: unknown, from: string, to: string): unknown {
  const errors = (err as { extra?: { errors?: Array<{ path: string }> } }).extra?.errors;
  if (errors) for (const e of errors) if (e.path === from) e.path = to;
  return err;
}
