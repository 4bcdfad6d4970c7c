import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  contractDetails,
  contracts,
  dataActions,
  dataServiceAccesses,
  dataServices,
  roles,
  services,
  trustedIssuersLists,
  types,
  vcVerifiers,
} from "@orrery/model";
import { address } from "../context-data/broker-access.ts";
import { languageOf, say, type MessageCode, type Params } from "../messages/say.ts";
import { notFound, problem } from "../problems.ts";
import { toItem, type Records } from "../resources/records.ts";
import { PeerUnreachable, callPeer } from "../peers.ts";
import { RegistryFailure, createPolicy, requestDelegation } from "./ishare.ts";
import { registryAndGrant, registryMessage, registryProblem } from "./registry.ts";
import { inFdscMode, synchronizeRoleInPap } from "../fdsc/role-sync.ts";
import { answeredEffects, proofRequest, roleEvidence, type RoleAccess } from "./role-policy.ts";

/**
 * Synchronisation of a role with the workspace's authorization registry (spec section 2, Roles;
 * the original's RoleController): one policy per data service access of the role, on the data
 * service's entity type with its data actions and the effect asked (Permit or Deny), sent as the
 * delegation evidence of the role's roleName. The write alone proves nothing (Keyrock takes
 * policies its matcher cannot use), so the registry is then asked for the delegation evidence of
 * every data action: only when each answers the effect asked is the role synchronised, keeping
 * that evidence. Otherwise it is a 502 problem whose lines say what the registry answered, and the
 * role is left unsynchronised; a refused write changes nothing.
 */
export function registerSynchronizeRoutes(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    "/api/workspace/:workspaceId/roles/:id/synchronize",
    {
      schema: {
        tags: ["roles"],
        summary:
          "Send the role's data service accesses to the authorization registry as a policy, and prove it with a delegation request",
        params: z.object({ workspaceId: z.string(), id: z.string() }),
        body: z.object({ effect: z.enum(["Permit", "Deny"]) }).strict(),
      },
    },
    async (request) => {
      const { workspaceId, id } = request.params;
      const { effect } = request.body;
      const language = languageOf(request.headers["accept-language"]);
      const workspace = await records.requireWorkspace(workspaceId);
      const role = await records.find(roles, id, workspaceId);
      if (!role) throw notFound(id);
      // FDSC mode: the role's accesses become ODRL policies in the service's PAP (fdsc/role-sync.ts).
      if (await inFdscMode(records, workspace))
        return synchronizeRoleInPap(records, workspaceId, role, effect, language);
      const { hasAuthorizationRegistry: registryId, hasAuthorizationRegistryGrant: grantId } = workspace.data;
      if (!registryId || !grantId) throw problem(400, "roles.noRegistry");
      const all = await accessesOfRole(records, workspaceId, id);
      const before = policyInputs(role.data, all);
      const accesses = all
        // A registry refuses a policy without actions (iSHARE asks at least one).
        .filter((access) => access.actions.length > 0);
      if (!accesses.length) throw problem(400, "roles.noAccesses", { role: String(role.data.name) });
      const { registry, grant } = await registryAndGrant(records, String(registryId), String(grantId));
      const subject = String(role.data.roleName);
      const about = {
        subject,
        notBefore: Number(role.data.notBefore),
        notOnOrAfter: Number(role.data.notOnOrAfter),
        provider: String(role.data.dataServiceProviderId),
      };
      const call = { party: grant.identifier, subject };
      const lines: string[] = [];
      const line = (code: MessageCode, params: Params) => lines.push(say(language, code, params));

      line("roleSync.writing", { subject, name: registry.name });
      await createPolicy(registry, grant, roleEvidence(about, accesses, effect, registry)).catch(
        (err: unknown) => registryProblem(err, registry, call),
      );
      line("roleSync.asking", { subject, name: registry.name });
      const proof = proofRequest(about, accesses, registry);
      const evidence = await requestDelegation(registry, grant, proof.request).then(
        (answer) => answer.delegationEvidence,
        (err: unknown) => {
          if (!(err instanceof RegistryFailure)) throw err;
          line("roleSync.askFailed", { reason: registryMessage(err, registry, call) });
          return undefined;
        },
      );
      let proven = evidence !== undefined;
      if (evidence !== undefined)
        for (const [i, { type, action }] of proof.asked.entries()) {
          const effects = answeredEffects(evidence, i);
          const other = effects.find((e) => e !== effect);
          if (!effects.length) line("roleSync.noAnswer", { action, type });
          else if (other) line("roleSync.wrongAnswer", { action, type, answered: other, expected: effect });
          else line("roleSync.answered", { action, type, effect });
          proven &&= effects.length > 0 && !other;
        }
      if (!proven) {
        await records.patchData(roles, id, { synchronized: false });
        throw problem(502, "roles.notProven", { name: registry.name, subject, effect }, { details: lines });
      }
      await unchangedSince(records, workspaceId, id, before);
      await records.patchData(roles, id, {
        synchronized: true,
        changedSinceSynchronization: false,
        synchronizationTime: Math.floor(Date.now() / 1000),
        lastDelegationEvidence: { delegationEvidence: evidence },
      });
      return { ...toItem(roles, (await records.find(roles, id, workspaceId))!), details: lines };
    },
  );

  api.post(
    "/api/workspace/:workspaceId/contracts/:id/synchronize",
    {
      schema: {
        tags: ["contracts"],
        summary:
          "Put the contract's stakeholder in the trusted issuers list of the workspace's SIOP-2 service",
        params: z.object({ workspaceId: z.string(), id: z.string() }),
      },
    },
    async (request) => {
      const { workspaceId, id } = request.params;
      const workspace = await records.requireWorkspace(workspaceId);
      const contract = await records.find(contracts, id, workspaceId);
      if (!contract) throw notFound(id);
      const service = await records.find(services, String(workspace.data.hasService));
      if (service?.data.authorizationMode !== "siop2" || service.data.authorizationRequired !== true)
        throw problem(400, "contracts.notSiop2");
      const [list, verifier] = await Promise.all([
        records.find(trustedIssuersLists, String(service.data.hasTrustedIssuersList)),
        records.find(vcVerifiers, String(service.data.hasVCVerifier)),
      ]);
      if (!list || !verifier) throw problem(409, "workspace.incompleteService");
      const did = String(contract.data.stakeholderDid);
      const [roleList, details, sameStakeholder] = await Promise.all([
        records.list(roles, workspaceId),
        records.list(contractDetails, workspaceId),
        // The list keeps one entry a DID: every contract of the stakeholder in the workspace is one
        // of its credentials, so that synchronising one contract does not erase another's.
        records.list(contracts, workspaceId, [["stakeholderDid", did]]),
      ]);
      const iso = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString();
      const credentialOf = (c: Record<string, unknown>) => {
        const names = details
          .filter((d) => d.hasContract === c.id)
          .map((d) => roleList.find((r) => r.id === d.hasRole)?.name)
          .filter((n): n is string => !!n);
        return {
          validFor: { from: iso(c.validFromTime), to: iso(c.validToTime) },
          credentialsType: String(c.verifiableCredentialType),
          claims: [
            {
              name: "roles",
              allowedValues: [{ names: [...new Set(names)].sort(), target: verifier.data.did }],
            },
          ],
        };
      };
      const issuer = { did, credentials: sameStakeholder.map(credentialOf) };
      const base = address(list.data).replace(/\/$/, "");
      const name = String(list.data.name);
      // Replaces what the list has for the DID: an update, or a creation when it has none.
      const updated = await peerJson(`${base}/issuer/${encodeURIComponent(did)}`, "PUT", issuer, name);
      if (updated.status === 404) {
        const created = await peerJson(`${base}/issuer`, "POST", issuer, name);
        if (created.status >= 300) throw listProblem(name, created);
      } else if (updated.status >= 300) throw listProblem(name, updated);
      return { issuer };
    },
  );
}

/** A role's data service accesses: each data service's entity type name and data action names. */
export async function accessesOfRole(
  records: Records,
  workspaceId: string,
  id: string,
): Promise<Array<RoleAccess & { accessId: string }>> {
  const [accessList, serviceList, typeList, actionList] = await Promise.all([
    records.list(dataServiceAccesses, workspaceId),
    records.list(dataServices, workspaceId),
    records.list(types, workspaceId),
    records.list(dataActions),
  ]);
  return accessList
    .filter((a) => a.hasRole === id)
    .flatMap((access) => {
      const service = serviceList.find((s) => s.id === access.hasDataService);
      if (!service) return [];
      return [
        {
          accessId: access.id,
          type: String(typeList.find((t) => t.id === service.hasEntityType)?.name ?? ""),
          actions: [
            ...new Set(
              ((service.hasDataActions as string[] | undefined) ?? [])
                .map((a) => actionList.find((d) => d.id === a)?.name)
                .filter((name): name is string => !!name),
            ),
          ],
        },
      ];
    });
}

/**
 * What a role's policy is made of (its access subject, dates, provider, credential type and
 * accesses), to tell whether it changed while a synchronisation was talking to the peer.
 */
export function policyInputs(
  role: Record<string, unknown>,
  accesses: Array<RoleAccess & { accessId: string }>,
) {
  const { roleName, notBefore, notOnOrAfter, dataServiceProviderId, verifiableCredentialType } = role;
  return JSON.stringify([
    roleName,
    notBefore,
    notOnOrAfter,
    dataServiceProviderId,
    verifiableCredentialType,
    accesses.map((a) => [a.accessId, a.type, [...a.actions].sort()]).sort(),
  ]);
}

/**
 * Refuses to call a role synchronised when its policy changed during the synchronisation (an
 * access added meanwhile would otherwise be called synchronised, its edit's reset overwritten).
 */
export async function unchangedSince(records: Records, workspaceId: string, id: string, before: string) {
  const [role, accesses] = await Promise.all([
    records.find(roles, id, workspaceId),
    accessesOfRole(records, workspaceId, id),
  ]);
  if (policyInputs(role?.data ?? {}, accesses) !== before) {
    await records.patchData(roles, id, { synchronized: false });
    throw problem(409, "roles.changedDuringSynchronization");
  }
}

/** A JSON call to a trusted issuers list; its status and body, or a 502 problem when it cannot be reached. */
const peerJson = (url: string, method: string, body: unknown, name: string) =>
  callPeer(
    url,
    {
      method,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    },
    "trusted-issuers-lists",
  ).catch((err: unknown) => {
    throw err instanceof PeerUnreachable ? problem(502, "til.unreachable", { name, cause: err.cause }) : err;
  });

const listProblem = (name: string, answer: { status: number; body: unknown }) =>
  problem(
    502,
    "til.refused",
    { name, status: answer.status },
    { tilStatus: answer.status, tilBody: answer.body },
  );
