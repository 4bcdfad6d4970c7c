import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { dataActions, dataServiceAccesses, dataServices, roles, types } from "@orrery/model";
import { registryAndGrant, registryProblem } from "../proxies/authorization-registry.ts";
import { notFound, problem } from "../problems.ts";
import { toItem, type Records } from "../resources/records.ts";
import { createPolicy } from "./ishare.ts";

/** iSHARE's license of the policies Orrery writes (the original's, and i4Trust's). */
const LICENSE = "ISHARE.0001";

/**
 * Synchronisation of a role with the workspace's authorization registry (spec section 2, Roles;
 * the original's RoleController): one policy per data service access of the role, on the data
 * service's entity type with its data actions and the effect asked (Permit or Deny), sent as the
 * delegation evidence of the role name. On success the role keeps when and what was sent; on a
 * refusal nothing is stored and the registry's reason comes back as a 502 problem.
 */
export function registerSynchronizeRoutes(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    "/api/workspace/:workspaceId/roles/:id/synchronize",
    {
      schema: {
        tags: ["roles"],
        summary: "Send the role's data service accesses to the authorization registry as a policy",
        params: z.object({ workspaceId: z.string(), id: z.string() }),
        body: z.object({ effect: z.enum(["Permit", "Deny"]) }).strict(),
      },
    },
    async (request) => {
      const { workspaceId, id } = request.params;
      const workspace = await records.requireWorkspace(workspaceId);
      const role = await records.find(roles, id, workspaceId);
      if (!role) throw notFound(id);
      const { hasAuthorizationRegistry: registryId, hasAuthorizationRegistryGrant: grantId } = workspace.data;
      if (!registryId || !grantId) throw problem(400, "roles.noRegistry");
      const [accesses, services, typeList, actions] = await Promise.all([
        records.list(dataServiceAccesses, workspaceId),
        records.list(dataServices, workspaceId),
        records.list(types, workspaceId),
        records.list(dataActions),
      ]);
      const policies = accesses
        .filter((a) => a.hasRole === id)
        .map((access) => services.find((s) => s.id === access.hasDataService))
        .filter((service) => !!service)
        .map((service) => ({
          target: {
            resource: {
              type: String(typeList.find((t) => t.id === service.hasEntityType)?.name ?? ""),
              identifiers: ["*"],
              attributes: ["*"],
            },
            actions: ((service.hasDataActions as string[] | undefined) ?? [])
              .map((a) => actions.find((d) => d.id === a)?.name)
              .filter((name): name is string => !!name),
            environment: { serviceProviders: [String(role.data.dataServiceProviderId)] },
          },
          rules: [{ effect: request.body.effect }],
        }));
      if (!policies.length) throw problem(400, "roles.noAccesses", { role: String(role.data.name) });
      const { registry, grant } = await registryAndGrant(records, String(registryId), String(grantId));
      const evidence = {
        delegationEvidence: {
          notBefore: role.data.notBefore,
          notOnOrAfter: role.data.notOnOrAfter,
          policyIssuer: registry.identifier,
          target: { accessSubject: String(role.data.name) },
          policySets: [{ maxDelegationDepth: 0, target: { environment: { licenses: [LICENSE] } }, policies }],
        },
      };
      await createPolicy(registry, grant, evidence).catch((err: unknown) => registryProblem(err, registry));
      await records.patchData(roles, id, {
        synchronized: true,
        synchronizationTime: Math.floor(Date.now() / 1000),
        lastDelegationEvidence: evidence,
      });
      return toItem(roles, (await records.find(roles, id, workspaceId))!);
    },
  );
}
