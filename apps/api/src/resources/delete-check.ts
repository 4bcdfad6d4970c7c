import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isAllowed, type KindDefinition } from "@orrery/model";
import { problem, problemSchema } from "../problems.ts";
import { servedPath } from "../auth/guard.ts";
import type { Records } from "./records.ts";

const CHECK = "/delete-check";

const named = z.object({
  id: z.string(),
  kind: z.string(),
  name: z.string().describe("Its title, as a delete's 409 names it"),
  workspaceId: z.string().optional(),
  refs: z.record(z.string(), z.unknown()).optional().describe("The records it refers to, by field"),
  href: z.string().optional().describe("Its address in this API"),
});

const answer = z.object({
  blockers: z.array(named).describe("The records that keep it from deletion: the 409 a delete would answer"),
  blockersTotal: z
    .number()
    .int()
    .describe(
      "How many records keep it: more than `blockers` lists when a workspace holds more than 50 records",
    ),
  cascades: z.array(named).describe("The records whose links held by this one go with it"),
});

/**
 * GET {record}/delete-check: what a delete of the record would meet, without deleting it, so that a
 * confirmation can name it before the answer is given. Allowed to whoever may read the record (the
 * permission of a GET on the record's own path, decided on the path the router served), and
 * computed by the delete's own code (Records.deleteCheck).
 */
export function registerDeleteCheck(
  app: FastifyInstance,
  kind: KindDefinition,
  records: Records,
  item: string,
  idParams: z.ZodObject<{ id: z.ZodString }> | z.ZodObject<{ workspaceId: z.ZodString; id: z.ZodString }>,
): void {
  const workspaced = kind.scope === "workspace";
  app.withTypeProvider<ZodTypeProvider>().get(
    `${item}${CHECK}`,
    {
      config: { access: "session" },
      preHandler: async (request: FastifyRequest) => {
        const path = servedPath(request)!.slice(0, -CHECK.length);
        if (!isAllowed(request.session!.permissions, "GET", path))
          throw problem(403, "auth.forbidden", { method: "GET", path });
        if (workspaced)
          await records.requireWorkspace((request.params as { workspaceId: string }).workspaceId);
      },
      schema: {
        tags: [kind.kind],
        summary: `What a delete of one of ${kind.kind} would meet, without deleting it: the records that keep it (a delete answers 409 while there are any) and what goes with it`,
        params: idParams,
        response: { 200: answer, 401: problemSchema, 403: problemSchema, 404: problemSchema },
      },
    },
    async (request) => {
      const params = request.params as { id: string; workspaceId?: string };
      return records.deleteCheck(kind, params.id, workspaced ? params.workspaceId : undefined);
    },
  );
}
