import type { Item } from "../resources/records.ts";
import type { ConsumerJudge, RequiredPolicy, WorkspaceTrust } from "./consumers.ts";
import type { DecisionReason } from "./decisions.ts";

/**
 * The dry run of a workspace's consumers (issue 35, "the workspace page says ... what its roles
 * allow"): for each role and entity type, what the PEP would decide now for a consumer holding that
 * role and nothing else, by the same registry answers (iSHARE: the role's roleName as access
 * subject) or the same evaluation of the PAP's ODRL policies (FDSC: a credential with the role's
 * name and credential type), never a rule set of its own. Asked as a query of the type would ask
 * (every entity, every attribute), and kept the PEP's cache time as its answers are.
 */

export const DRY_RUN_METHODS = ["GET", "POST", "PATCH", "DELETE"] as const;
export type DryRunMethod = (typeof DRY_RUN_METHODS)[number];

export interface DryRunDecision {
  method: DryRunMethod;
  permit: boolean;
  reason: DecisionReason;
  /** An English sentence for the operator: the registry's or the PAP's answer. */
  detail: string;
}

export interface DryRunRole {
  id: string;
  name: string;
  roleName: string;
  credentialType: string;
}

export interface DryRunRow {
  entityType: string;
  /** Whether a data service of the role's accesses names this type (else only the data model does). */
  granted: boolean;
  decisions: DryRunDecision[];
}

/** A policy per method for every entity and attribute of a type, as a consumer's query asks. */
const policiesFor = (type: string): RequiredPolicy[] =>
  DRY_RUN_METHODS.map((action) => ({ type, identifiers: ["*"], attributes: ["*"], action }));

const decision = (
  method: DryRunMethod,
  permit: boolean,
  why: DecisionReason,
  detail: string,
): DryRunDecision => ({ method, permit, reason: why, detail });

const all = (why: DecisionReason, detail: string): DryRunDecision[] =>
  DRY_RUN_METHODS.map((method) => decision(method, false, why, detail));

/** The decisions for one role on one entity type. */
export async function dryRunRow(
  judge: ConsumerJudge,
  trust: WorkspaceTrust,
  role: DryRunRole,
  type: string,
): Promise<DryRunDecision[]> {
  const policies = policiesFor(type);
  if (trust.fdsc) {
    const setting = trust.fdsc;
    const facts = {
      roles: role.roleName ? [role.roleName] : [],
      types: role.credentialType ? [role.credentialType] : [],
      issuers: [],
    };
    // The last segment of a query's path (/entities), which a policy on one entity id never matches.
    const answer = await judge.papPermitting(setting, facts, policies, "entities");
    if ("unreachable" in answer) return all("registryUnreachable", answer.unreachable);
    return DRY_RUN_METHODS.map((method, i) => {
      const uid = answer.uids[i];
      return uid
        ? decision(method, true, "permit", `The ODRL policy ${uid} of ${setting.papName} permits it.`)
        : decision(
            method,
            false,
            "policyDeny",
            `No ODRL policy of ${setting.papName} permits ${method} ${type} to a ${role.credentialType || "credential"} with the role ${role.roleName} for ${setting.organizationDid}.`,
          );
    });
  }
  if (trust.ishare) {
    const setting = trust.ishare;
    const name = setting.registry.name;
    if (!role.roleName) return all("noRole", "The role has no roleName to ask the registry about.");
    const answer = await judge.registryEffects(setting, role.roleName, policies);
    if ("unreachable" in answer) return all("registryUnreachable", answer.unreachable);
    return DRY_RUN_METHODS.map((method, i) =>
      answer.effects[i] === "Permit"
        ? decision(
            method,
            true,
            "permit",
            `The authorization registry ${name} permits ${method} ${type} for ${role.roleName}.`,
          )
        : decision(
            method,
            false,
            "registryDeny",
            `The authorization registry ${name} does not permit ${method} ${type} for ${role.roleName}.`,
          ),
    );
  }
  return all(
    "unknownToken",
    "The workspace has no authorization registry and is not in FDSC mode: no data-space consumer's token is accepted.",
  );
}

/** Every role's rows: the types its data services name first, then the data model's other types. */
export async function dryRun(
  judge: ConsumerJudge,
  trust: WorkspaceTrust,
  roles: DryRunRole[],
  grantedTypes: Map<string, Set<string>>,
  modelTypes: string[],
): Promise<Array<DryRunRole & { rows: DryRunRow[] }>> {
  return Promise.all(
    roles.map(async (role) => {
      const granted = [...(grantedTypes.get(role.id) ?? [])].sort();
      const types = [...granted, ...modelTypes.filter((t) => !granted.includes(t)).sort()];
      const rows = await Promise.all(
        types.map(async (entityType) => ({
          entityType,
          granted: granted.includes(entityType),
          decisions: await dryRunRow(judge, trust, role, entityType),
        })),
      );
      return { ...role, rows };
    }),
  );
}

/** The roles of a workspace as the dry run reads them. */
export const dryRunRoles = (roles: Item[]): DryRunRole[] =>
  roles.map((r) => ({
    id: r.id,
    name: String(r.name ?? r.roleName ?? r.id),
    roleName: typeof r.roleName === "string" ? r.roleName : "",
    credentialType: typeof r.verifiableCredentialType === "string" ? r.verifiableCredentialType : "",
  }));
