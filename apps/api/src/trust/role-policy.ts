import type { Registry } from "./ishare.ts";

/** iSHARE's license of the policies Orrery writes (the original's, and i4Trust's). */
const LICENSE = "ISHARE.0001";

export type Effect = "Permit" | "Deny";

/** A data service a role accesses, as its policy names it: the entity type and the data actions. */
export interface RoleAccess {
  type: string;
  actions: string[];
}

/** A role as the registry knows it: its access subject (roleName), validity and data service provider. */
export interface RoleSubject {
  subject: string;
  notBefore: number;
  notOnOrAfter: number;
  provider: string;
}

/**
 * Keyrock 8.4's matcher fails on a policy with `environment.serviceProviders` (500 when the
 * delegation request has the same environment, Deny when it has none): only other registries get it.
 */
const environmentFor = (registry: Registry, provider: string) =>
  registry.implementationName === "keyrock" ? {} : { environment: { serviceProviders: [provider] } };

const resource = (type: string) => ({ type, identifiers: ["*"], attributes: ["*"] });

/**
 * The delegation evidence a role's synchronisation writes: one policy per data service, on its
 * entity type with its data actions. A denial is written as iSHARE writes one, a Permit rule then
 * a Deny rule on the same target: Keyrock's matcher needs every Deny rule to have a target.
 */
export function roleEvidence(role: RoleSubject, accesses: RoleAccess[], effect: Effect, registry: Registry) {
  const environment = environmentFor(registry, role.provider);
  const policies = accesses.map(({ type, actions }) => ({
    target: { resource: resource(type), actions, ...environment },
    rules:
      effect === "Permit"
        ? [{ effect }]
        : [{ effect: "Permit" }, { effect, target: { resource: resource(type), actions } }],
  }));
  return {
    delegationEvidence: {
      notBefore: role.notBefore,
      notOnOrAfter: role.notOnOrAfter,
      policyIssuer: registry.identifier,
      target: { accessSubject: role.subject },
      policySets: [{ maxDelegationDepth: 0, target: { environment: { licenses: [LICENSE] } }, policies }],
    },
  };
}

/**
 * The delegation request that proves a synchronisation: one policy per data action of each data
 * service, on the same target as written, so that the registry answers each with Permit or Deny.
 */
export function proofRequest(role: RoleSubject, accesses: RoleAccess[], registry: Registry) {
  const environment = environmentFor(registry, role.provider);
  const asked = accesses.flatMap(({ type, actions }) => actions.map((action) => ({ type, action })));
  const policies = asked.map(({ type, action }) => ({
    target: { resource: resource(type), actions: [action], ...environment },
    rules: [{ effect: "Permit" }],
  }));
  return {
    asked,
    request: {
      delegationRequest: {
        policyIssuer: registry.identifier,
        target: { accessSubject: role.subject },
        policySets: [{ policies }],
      },
    },
  };
}

/**
 * The effects a delegation evidence gives the i-th policy of the request, one per policy set of
 * the answer: an iSHARE registry answers the request's policies in their order, each with one rule.
 */
export function answeredEffects(evidence: unknown, i: number): string[] {
  const sets = (evidence as { policySets?: unknown } | undefined)?.policySets;
  if (!Array.isArray(sets)) return [];
  return sets
    .map((set) => (set as { policies?: Array<{ rules?: Array<{ effect?: unknown }> }> })?.policies?.[i])
    .map((policy) => policy?.rules?.[0]?.effect)
    .filter((effect): effect is string => typeof effect === "string");
}
