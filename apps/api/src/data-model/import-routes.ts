import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { properties, types } from "@orrery/model";
import { writeSchema } from "@orrery/model/schema";
import type { Config } from "../config.ts";
import { fieldError, invalid, notFound, Problem, type FieldError } from "../problems.ts";
import { fieldMessageOfIssue } from "../messages/issues.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Records } from "../resources/records.ts";
import { fetchModel, parseModel } from "./smart-data-models.ts";

const candidate = z.object({
  name: z.string(),
  description: z.string().optional(),
  url: z.string().optional(),
  ngsiLdType: z.string(),
  propertyNgsiLdValueType: z.string().optional(),
  geoPropertyNgsiLdType: z.string().optional(),
});

/**
 * Where an imported relationship points: Smart Data Models name a relationship after its target
 * (refDevice → Device, hasBuilding → Building). A type of the model by that name is the target;
 * otherwise the relationship leaves the model toward that name (relationshipType names the
 * property's own type, as for auto-discovered ones, and the chart draws it leaving, not looping).
 */
export function relationshipTo(name: string, ownTypeId: string, typeIdsByName: ReadonlyMap<unknown, string>) {
  const stem = /^(?:ref|has)([A-Z].*)$/.exec(name)?.[1] ?? name;
  const target = stem.charAt(0).toUpperCase() + stem.slice(1);
  const known = typeIdsByName.get(target);
  return known
    ? { relationshipType: known }
    : { relationshipType: ownTypeId, relationshipTarget: target.slice(0, 200) };
}

/**
 * Import from Smart Data Models: the API fetches and reads the model (browsers cannot fetch
 * arbitrary hosts reliably), then imports the chosen properties all or nothing, in one transaction,
 * with a report per property (the original stopped half-way at the first failure).
 */
export function registerImportRoutes(
  app: FastifyInstance,
  records: Records,
  hooks: KindHooks,
  config: Config,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/proxies/smart-data-models",
    {
      schema: {
        tags: ["data-model"],
        summary: "Fetch and read a Smart Data Models model.yaml",
        querystring: z.object({ url: z.string() }),
        response: {
          200: z.object({
            typeName: z.string(),
            description: z.string().optional(),
            properties: z.array(candidate),
          }),
        },
      },
    },
    async (request) =>
      parseModel(await fetchModel(request.query.url, { allowPrivate: config.proxyAllowPrivateNetworks })),
  );

  api.post(
    "/api/workspace/:workspaceId/properties/import",
    {
      schema: {
        tags: ["properties"],
        summary: "Import properties into a type, all or nothing",
        params: z.object({ workspaceId: z.string() }),
        body: z.object({ typeId: z.string(), properties: z.array(candidate).min(1).max(500) }),
        response: { 201: z.object({ created: z.array(z.object({ id: z.string(), name: z.string() })) }) },
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      await records.requireWorkspace(workspaceId);
      const { typeId } = request.body;
      if (!(await records.find(types, typeId, workspaceId))) throw notFound(typeId, "type");
      const existing = new Set(
        (await records.list(properties, workspaceId)).filter((p) => p.hasType === typeId).map((p) => p.name),
      );
      const typeIdsByName = new Map((await records.list(types, workspaceId)).map((t) => [t.name, t.id]));
      const schema = writeSchema(properties, "create");
      const errors: FieldError[] = [];
      const inputs: Array<Record<string, unknown>> = [];
      for (const [i, item] of request.body.properties.entries()) {
        // The spec's defaults for imported properties; the target outside the model is read-only
        // (not part of what a client may write), so it is put back after validation.
        const target =
          item.ngsiLdType === "Relationship" ? relationshipTo(item.name, typeId, typeIdsByName) : {};
        const payload = {
          standard: true,
          mandatory: false,
          temporal: false,
          multiValued: false,
          ...item,
          hasType: typeId,
          ...target,
        };
        if (existing.has(item.name)) {
          errors.push(fieldError(`properties.${i}.name`, "conflict.propertyName", { value: item.name }));
          continue;
        }
        const parsed = schema.safeParse(payload);
        if (!parsed.success) {
          errors.push(
            ...parsed.error.issues.map((issue) => ({
              path: `properties.${i}.${issue.path.join(".")}`,
              ...fieldMessageOfIssue(issue.code, issue as unknown as Record<string, unknown>, issue.message),
            })),
          );
          continue;
        }
        try {
          const data = { ...(parsed.data as Record<string, unknown>), ...target };
          inputs.push(hooks.prepare ? await hooks.prepare(data, { workspaceId }) : data);
        } catch (err) {
          if (!(err instanceof Problem)) throw err;
          for (const e of (err.extra.errors as FieldError[] | undefined) ?? [])
            errors.push({ ...e, path: `properties.${i}.${e.path}` });
        }
      }
      if (errors.length) throw invalid(errors);
      const created = await records.as(request.session).createMany(properties, inputs, workspaceId);
      await hooks.changed?.({ workspaceId });
      return reply.code(201).send({ created: created.map((c) => ({ id: c.id, name: String(c.name) })) });
    },
  );
}
