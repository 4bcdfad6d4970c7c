import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { fieldError, invalid } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { createPolicy, requestDelegation } from "../trust/ishare.ts";
import { registryAndGrant, registryProblem } from "../trust/registry.ts";

const query = z.object({ authorizationRegistryId: z.string(), authorizationRegistryGrantId: z.string() });

/**
 * The iSHARE proxies behind the console's authorization registry tool (spec platform section 2):
 * the delegation evidence of a delegation request, decoded from the registry's delegation_token
 * with `verified` saying whether its signature holds for its x5c; a policy (a delegation evidence)
 * created, answered as the registry gave it. Refusals are 502 problems carrying the registry's
 * status and body.
 */
export function registerAuthorizationRegistryProxies(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["proxies"];
  const object = z.record(z.string(), z.unknown());

  api.post(
    "/api/proxies/authorization-registry/request-delegation",
    {
      schema: {
        tags,
        summary: "iSHARE delegation request through a registered authorization registry",
        querystring: query,
        // previous_steps is named here to be refused with a reason: it goes inside delegationRequest.
        body: z.object({ delegationRequest: object, previous_steps: z.unknown().optional() }).strict(),
      },
    },
    async (request) => {
      // iSHARE (and Keyrock's schema) take previous_steps inside the delegation request only: the
      // registry would refuse it with a bare schema error, after a token request for nothing.
      if (request.body.previous_steps !== undefined)
        throw invalid([fieldError("previous_steps", "registry.previousStepsOutside")]);
      // A grant without its registry yet (the spec's shape) is bound to this one, in the trail as its caller's.
      const { registry, grant } = await registryAndGrant(
        records.as(request.session),
        request.query.authorizationRegistryId,
        request.query.authorizationRegistryGrantId,
        { bind: true },
      );
      const subject = (request.body.delegationRequest.target as { accessSubject?: unknown } | undefined)
        ?.accessSubject;
      return requestDelegation(registry, grant, request.body).catch((err: unknown) =>
        registryProblem(err, registry, { party: grant.identifier, subject: String(subject ?? "") }),
      );
    },
  );

  api.post(
    "/api/proxies/authorization-registry/create-policy",
    {
      schema: {
        tags,
        summary: "iSHARE policy creation (a delegation evidence) at a registered authorization registry",
        querystring: query,
        body: z.object({ delegationEvidence: object }).strict(),
      },
    },
    async (request) => {
      // A grant without its registry yet (the spec's shape) is bound to this one, in the trail as its caller's.
      const { registry, grant } = await registryAndGrant(
        records.as(request.session),
        request.query.authorizationRegistryId,
        request.query.authorizationRegistryGrantId,
        { bind: true },
      );
      const answer = await createPolicy(registry, grant, request.body).catch((err: unknown) =>
        registryProblem(err, registry, { party: grant.identifier }),
      );
      return { status: answer.status, body: answer.body ?? null };
    },
  );
}
