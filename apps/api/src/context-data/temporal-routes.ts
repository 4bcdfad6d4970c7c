import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { properties } from "@orrery/model";
import type { Config } from "../config.ts";
import { notFound } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { temporalBroker, viaBroker, workspaceContextUrl } from "./broker-access.ts";

const params = z.object({
  workspaceId: z.string(),
  entityId: z.string().min(1),
  propertyId: z.string().min(1),
  temporalServiceId: z.string().min(1),
});
const seconds = z.coerce.number().int().min(0);

/** Unix seconds as the NGSI-LD date-time the original sent: YYYY-MM-DDTHH:MM:SSZ. */
const isoSeconds = (s: number) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
const unix = (iso: string | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);

/**
 * The history of one attribute of one entity, from the broker's temporal API or from Mintaka,
 * per the temporal service's type. Answers the original's shape: {id, name, fromTime, toTime, data}.
 */
export function registerTemporalRoutes(app: FastifyInstance, records: Records, config: Config): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/workspace/:workspaceId/temporal-entities/:entityId/properties/:propertyId/temporal-services/:temporalServiceId",
    {
      schema: {
        tags: ["temporal"],
        summary: "The values an entity's attribute took between two times",
        params,
        querystring: z.object({ fromTime: seconds.optional(), toTime: seconds.optional() }),
        response: {
          200: z.object({
            id: z.string(),
            name: z.string(),
            fromTime: z.number().nullable(),
            toTime: z.number().nullable(),
            data: z.array(z.record(z.string(), z.unknown())),
          }),
        },
      },
    },
    async (request) => {
      const { workspaceId, entityId, propertyId, temporalServiceId } = request.params;
      const { fromTime, toTime } = request.query;
      const workspace = await records.requireWorkspace(workspaceId);
      const property = await records.find(properties, propertyId, workspaceId);
      if (!property) throw notFound(propertyId, "property");
      const name = String(property.data.name);
      const context = workspaceContextUrl(config, workspace);
      const timerel =
        fromTime !== undefined && toTime !== undefined
          ? { timerel: "between" as const, timeAt: isoSeconds(fromTime), endTimeAt: isoSeconds(toTime) }
          : fromTime !== undefined
            ? { timerel: "after" as const, timeAt: isoSeconds(fromTime) }
            : toTime !== undefined
              ? { timerel: "before" as const, timeAt: isoSeconds(toTime) }
              : {};
      const { entity, contentRange } = await viaBroker(async () => {
        const client = await temporalBroker(records, workspace, temporalServiceId, context);
        return client.temporalEntity(entityId, { attrs: [name], ...timerel });
      });
      const values = entity[name];
      const data = (values === undefined ? [] : [values].flat()) as Array<Record<string, unknown>>;
      return {
        id: entityId,
        name,
        fromTime: contentRange ? unix(contentRange.from) : (fromTime ?? null),
        toTime: contentRange ? unix(contentRange.to) : (toTime ?? null),
        data,
      };
    },
  );
}
