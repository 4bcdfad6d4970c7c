import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authorizationRegistries, authorizationRegistryGrants } from "@orrery/model";
import { notFound, problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import {
  RegistryFailure,
  createPolicy,
  requestDelegation,
  type Registry,
  type RegistryGrant,
} from "../trust/ishare.ts";

const query = z.object({ authorizationRegistryId: z.string(), authorizationRegistryGrantId: z.string() });

/** A registry and a grant as the iSHARE client takes them, from their records (the key decrypted). */
export async function registryAndGrant(
  records: Records,
  registryId: string,
  grantId: string,
): Promise<{ registry: Registry; grant: RegistryGrant }> {
  const registry = await records.find(authorizationRegistries, registryId);
  if (!registry) throw notFound(registryId);
  const grant = await records.find(authorizationRegistryGrants, grantId);
  if (!grant) throw notFound(grantId);
  return {
    registry: registry.data as unknown as Registry,
    grant: {
      identifier: String(grant.data.identifier),
      certificates: grant.data.certificates as string[],
      privateKey: (await records.secret(authorizationRegistryGrants, grant.id, "privateKey")) ?? "",
    },
  };
}

/** A registry's refusal or silence as a 502 problem carrying its status and body. */
export function registryProblem(err: unknown, registry: Registry): never {
  if (!(err instanceof RegistryFailure)) throw err;
  if (err.status === undefined)
    throw problem(502, "registry.unreachable", {
      name: registry.name,
      step: err.step,
      cause: String(err.body),
    });
  throw problem(
    502,
    "registry.refused",
    { name: registry.name, step: err.step, status: err.status, reason: reasonOf(err.body) },
    { registryStatus: err.status, registryBody: err.body ?? null },
  );
}

/** What a peer's error body says, in one line: its description, error or detail, else the body itself. */
export function reasonOf(body: unknown): string {
  if (typeof body === "string") return body.slice(0, 300);
  const b = (body ?? {}) as Record<string, unknown>;
  const said = [b.error_description, b.error, b.detail, b.title, b.summary].find(
    (v) => typeof v === "string",
  );
  return String(said ?? JSON.stringify(body ?? null)).slice(0, 300);
}

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
        body: z
          .object({ delegationRequest: object, previous_steps: z.array(z.string()).optional() })
          .strict(),
      },
    },
    async (request) => {
      const { registry, grant } = await registryAndGrant(
        records,
        request.query.authorizationRegistryId,
        request.query.authorizationRegistryGrantId,
      );
      return requestDelegation(registry, grant, request.body).catch((err: unknown) =>
        registryProblem(err, registry),
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
      const { registry, grant } = await registryAndGrant(
        records,
        request.query.authorizationRegistryId,
        request.query.authorizationRegistryGrantId,
      );
      const answer = await createPolicy(registry, grant, request.body).catch((err: unknown) =>
        registryProblem(err, registry),
      );
      return { status: answer.status, body: answer.body ?? null };
    },
  );
}
