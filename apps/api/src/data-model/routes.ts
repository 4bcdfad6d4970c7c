import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { properties, types, workspaces } from "@orrery/model";
import type { Config } from "../config.ts";
import { notFound } from "../problems.ts";
import { languageOf } from "../messages/say.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import { autoDiscover } from "./auto-discover.ts";
import { viaBroker, workspaceBroker, workspaceContextUrl } from "../context-data/broker-access.ts";
import type { Records } from "../resources/records.ts";
import { dataModelVersions } from "../storage/schema.ts";
import { buildContexts } from "./contexts.ts";

const workspaceParams = z.object({ workspaceId: z.string() });

/**
 * Data-model generation: bumps the workspace's dataModelVersion and publishes its JSON-LD contexts
 * at stable addresses (every version stays served, so entities written with an old context still
 * expand). Also the chart position of a type, which is not part of the type's own form.
 */
export function registerDataModelRoutes(
  app: FastifyInstance,
  records: Records,
  config: Config,
  hooks: { types: KindHooks; properties: KindHooks },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = records.database;
  const contextUrl = (name: string, version: number, typeName?: string) =>
    `${config.dataModelsUrl}/${name}/${version}/${typeName ? `${typeName}/` : ""}context.jsonld`;

  api.post(
    "/api/workspace/:workspaceId/data-model/generate",
    {
      schema: {
        tags: ["data-model"],
        summary: "Publish a new version of the workspace's JSON-LD context",
        params: workspaceParams,
        response: { 200: z.object({ dataModelVersion: z.number(), contextUrl: z.string() }) },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      const workspace = await records.requireWorkspace(workspaceId);
      const name = String(workspace.data.dataModelName);
      const { whole, perType } = buildContexts(
        await records.list(types, workspaceId),
        await records.list(properties, workspaceId),
      );
      const version = await db.transaction(async (tx) => {
        // Re-read under lock: two generations at once get two versions, not one twice.
        const current = await records.lockWorkspace(tx, workspaceId);
        const next = Number(current.data.dataModelVersion ?? 0) + 1;
        await tx.insert(dataModelVersions).values([
          { dataModelName: name, version: next, typeName: "", workspaceId, document: whole },
          ...perType.map((t) => ({
            dataModelName: name,
            version: next,
            typeName: t.typeName,
            workspaceId,
            document: t.document,
          })),
        ]);
        await records.patchData(
          workspaces,
          workspaceId,
          { dataModelVersion: next, dataModelUpToDate: true },
          tx,
        );
        return next;
      });
      return { dataModelVersion: version, contextUrl: contextUrl(name, version) };
    },
  );

  api.post(
    "/api/workspace/:workspaceId/data-model/auto-discover",
    {
      schema: {
        tags: ["data-model"],
        summary: "Add the types and attributes the workspace's broker holds and the model lacks",
        params: workspaceParams,
        response: {
          200: z.object({
            types: z.array(z.string()),
            properties: z.array(z.object({ type: z.string(), name: z.string() })),
            skipped: z.array(z.object({ type: z.string(), name: z.string(), reason: z.string() })),
          }),
        },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      const workspace = await records.requireWorkspace(workspaceId);
      const context = workspaceContextUrl(config, workspace);
      return viaBroker(async () =>
        autoDiscover(
          records.as(request.session),
          hooks,
          workspaceId,
          await workspaceBroker(records, workspace, context),
          languageOf(request.headers["accept-language"]),
        ),
      );
    },
  );

  api.put(
    "/api/workspace/:workspaceId/types/:id/position-in-chart",
    {
      schema: {
        tags: ["types"],
        summary: "Where the type's node stands in the data-model chart",
        params: workspaceParams.extend({ id: z.string() }),
        body: z.tuple([z.number().finite(), z.number().finite()]),
        response: { 200: z.object({ positionInChart: z.tuple([z.number(), z.number()]) }) },
      },
    },
    async (request) => {
      const { workspaceId, id } = request.params;
      await records.requireWorkspace(workspaceId);
      if (!(await records.find(types, id, workspaceId))) throw notFound(id, "type");
      await records.patchData(types, id, { positionInChart: request.body });
      return { positionInChart: request.body };
    },
  );

  // Public, like any JSON-LD context: brokers and clients fetch it without a token.
  const serve = async (name: string, version: string, typeName: string) => {
    const [row] = await db
      .select({ document: dataModelVersions.document })
      .from(dataModelVersions)
      .where(
        and(
          eq(dataModelVersions.dataModelName, name),
          eq(dataModelVersions.version, Number(version) || -1),
          eq(dataModelVersions.typeName, typeName),
        ),
      );
    if (!row) throw notFound(`${name}/${version}${typeName ? `/${typeName}` : ""}`, "context");
    return row.document;
  };
  const headers = {
    "content-type": "application/ld+json",
    "cache-control": "public, max-age=31536000, immutable",
    "access-control-allow-origin": "*",
  };
  app.get(
    "/data-models/:name/:version/context.jsonld",
    { schema: { hide: true } },
    async (request, reply) => {
      const { name, version } = request.params as { name: string; version: string };
      return reply.headers(headers).send(JSON.stringify(await serve(name, version, "")));
    },
  );
  app.get(
    "/data-models/:name/:version/:typeName/context.jsonld",
    { schema: { hide: true } },
    async (request, reply) => {
      const { name, version, typeName } = request.params as {
        name: string;
        version: string;
        typeName: string;
      };
      return reply.headers(headers).send(JSON.stringify(await serve(name, version, typeName)));
    },
  );
}
