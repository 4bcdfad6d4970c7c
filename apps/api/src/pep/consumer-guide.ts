import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  dataServiceAccesses,
  dataServices,
  identityManagers,
  roles as roleKind,
  types as typeKind,
  workspaces,
} from "@orrery/model";
import type { Config } from "../config.ts";
import { address, workspaceContextUrl } from "../context-data/broker-access.ts";
import { languageOf, say, type Language, type Message } from "../messages/say.ts";
import { problemSchema } from "../problems.ts";
import { toItem, type Records } from "../resources/records.ts";
import type { ConsumerJudge, WorkspaceTrust } from "./consumers.ts";
import { decisionReasons } from "./decisions.ts";
import { DRY_RUN_METHODS, dryRun, dryRunRoles, type DryRunDecision } from "./dry-run.ts";
import { BROKER_PREFIX } from "./enforce.ts";
import type { TenantWorkspaces } from "./tenants.ts";

const decisionSchema = z.object({
  method: z.enum(DRY_RUN_METHODS),
  permit: z.boolean(),
  reason: z.enum(decisionReasons),
  detail: z.string(),
});

const guideSchema = z.object({
  /** What judges the workspace's consumers: nothing, its authorization registry, or its PAP. */
  mode: z.enum(["none", "ishare", "fdsc"]),
  /** Whether the workspace's data is on this process's embedded broker (else another PEP decides). */
  onEmbeddedBroker: z.boolean(),
  /** false with BROKER_AUTH=open: the embedded broker answers anyone, and these decisions are not made. */
  enforced: z.boolean(),
  broker: z.object({
    url: z.string(),
    /** The NGSILD-Tenant to send; null for the default tenant. */
    tenant: z.string().nullable(),
    /** The workspace's @context, for the Link header; null before its data model is generated. */
    context: z.string().nullable(),
  }),
  /** iSHARE: a user's token from the workspace's identity manager (Keyrock), null when the workspace names none. */
  ishareUser: z
    .object({
      identityManager: z.string(),
      tokenUrl: z.string(),
      grantType: z.string(),
      clientId: z.string(),
    })
    .nullable(),
  /** iSHARE: a party's own JWT (x5c chain), addressed to one of these parties. */
  ishareParty: z.object({ registry: z.string(), audience: z.array(z.string()) }).nullable(),
  /** FDSC: a verifier's token for the service (a verifiable presentation exchanged at a verifier). */
  fdsc: z
    .object({
      clientId: z.string(),
      organizationDid: z.string(),
      grantType: z.string(),
      verifiers: z.array(z.object({ name: z.string(), tokenUrl: z.string() })),
    })
    .nullable(),
  roles: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      roleName: z.string(),
      credentialType: z.string(),
      rows: z.array(
        z.object({
          entityType: z.string(),
          granted: z.boolean(),
          decisions: z.array(decisionSchema),
          /** The row in a sentence, in the caller's language: "Shelf: GET permitted; PATCH denied (...)". */
          summary: z.string(),
        }),
      ),
    }),
  ),
});

/** "Shelf: GET permitted; POST, PATCH, DELETE denied (the registry denies it)". */
function summary(language: Language, entityType: string, decisions: DryRunDecision[]): string {
  const parts: string[] = [];
  const permitted = decisions.filter((d) => d.permit).map((d) => d.method);
  if (permitted.length) parts.push(say(language, "pep.dryRun.permitted", { methods: permitted }));
  const reasons = [...new Set(decisions.filter((d) => !d.permit).map((d) => d.reason))];
  for (const reason of reasons) {
    const methods = decisions.filter((d) => !d.permit && d.reason === reason).map((d) => d.method);
    const why: Message = { code: `pep.dryRun.${reason}` as Message["code"] };
    parts.push(say(language, "pep.dryRun.denied", { methods, why }));
  }
  return say(language, "pep.dryRun.row", {
    type: entityType,
    decisions: parts.join(say(language, "pep.dryRun.separator")),
  });
}

const trimmed = (url: string) => url.replace(/\/+$/, "");

/** How a consumer gets a token, from what the PEP judges the workspace by. */
async function howTo(records: Records, trust: WorkspaceTrust) {
  let ishareUser = null;
  const idm = trust.ishare?.identityManager;
  if (idm) {
    const row = await records.find(identityManagers, idm.id);
    if (row)
      ishareUser = {
        identityManager: idm.name,
        tokenUrl: `${trimmed(address(row.data))}${String(row.data.oauth2TokenPath ?? "/oauth2/token")}`,
        grantType: "password",
        clientId: idm.application,
      };
  }
  const ishareParty = trust.ishare
    ? { registry: trust.ishare.registry.name, audience: [...trust.ishare.localParties] }
    : null;
  const fdsc = trust.fdsc
    ? {
        clientId: trust.fdsc.clientId,
        organizationDid: trust.fdsc.organizationDid,
        grantType: "vp_token",
        verifiers: trust.fdsc.verifiers.map((v) => ({
          name: v.name,
          tokenUrl: `${v.issuers[0]}/services/${encodeURIComponent(trust.fdsc!.clientId)}/token`,
        })),
      }
    : null;
  return { ishareUser, ishareParty, fdsc };
}

/**
 * GET /api/workspace/{id}/data-access/consumers: how a data-space consumer of the workspace gets a
 * token, and what each of its roles may do on each entity type now (dry-run.ts). Read like the
 * workspace's data access panel (config/permissions.yaml: not viewers, not the showroom). A read:
 * nothing to audit.
 */
export function registerConsumerGuide(
  app: FastifyInstance,
  records: Records,
  config: Config,
  judge: ConsumerJudge,
  tenants: TenantWorkspaces,
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/workspace/:workspaceId/data-access/consumers",
    {
      schema: {
        tags: ["data access"],
        summary:
          "How a data-space consumer of this workspace gets a token, and what each role may do on each entity type, as the embedded broker's PEP would decide now",
        params: z.object({ workspaceId: z.string() }),
        response: { 200: guideSchema, 403: problemSchema, 404: problemSchema },
      },
    },
    async (request) => {
      const row = await records.requireWorkspace(request.params.workspaceId);
      const workspace = toItem(workspaces, row);
      const [trust, roleList, accesses, services, typeList, tenant] = await Promise.all([
        judge.trustOf(workspace),
        records.list(roleKind, row.id),
        records.list(dataServiceAccesses, row.id),
        records.list(dataServices, row.id),
        records.list(typeKind, row.id),
        tenants.tenantOf(row.id),
      ]);
      const typeName = new Map(typeList.map((t) => [t.id, String(t.name)]));
      const serviceType = new Map(services.map((s) => [s.id, typeName.get(String(s.hasEntityType))]));
      const granted = new Map<string, Set<string>>();
      for (const access of accesses) {
        const type = serviceType.get(String(access.hasDataService));
        if (!type) continue;
        const role = String(access.hasRole);
        granted.set(role, (granted.get(role) ?? new Set()).add(type));
      }
      const language = languageOf(request.headers["accept-language"]);
      const judged = await dryRun(judge, trust, dryRunRoles(roleList), granted, [...typeName.values()]);
      return {
        mode: trust.fdsc ? ("fdsc" as const) : trust.ishare ? ("ishare" as const) : ("none" as const),
        onEmbeddedBroker: tenant !== undefined,
        enforced: config.brokerAuth === "enforce",
        broker: {
          url: `${trimmed(config.publicUrl)}${BROKER_PREFIX}`,
          tenant: tenant ? tenant : null,
          context: workspaceContextUrl(config, row) ?? null,
        },
        ...(await howTo(records, trust)),
        roles: judged.map((role) => ({
          ...role,
          rows: role.rows.map((r) => ({ ...r, summary: summary(language, r.entityType, r.decisions) })),
        })),
      };
    },
  );
}
