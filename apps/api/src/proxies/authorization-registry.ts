import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { problem } from "../problems.ts";

const query = z.object({ authorizationRegistryId: z.string(), authorizationRegistryGrantId: z.string() });

/**
 * The iSHARE proxies behind the console's authorization registry tool. They are permission-checked
 * like every route; the iSHARE client itself (client assertion, token, delegation, policy) comes with
 * the trust issue, and until then they answer 501 so the console shows a clear error.
 */
export function registerAuthorizationRegistryProxies(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const operation of ["request-delegation", "create-policy"] as const) {
    api.post(
      `/api/proxies/authorization-registry/${operation}`,
      {
        schema: {
          tags: ["proxies"],
          summary: `iSHARE ${operation} through a registered authorization registry`,
          querystring: query,
          body: z.unknown(),
        },
      },
      async () => {
        throw problem(501, "registry.notYet", { operation: operation.replace("-", " ") });
      },
    );
  }
}
