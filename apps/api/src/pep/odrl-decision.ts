import { statementsOf, type OdrlConstraint, type Statement } from "@orrery/model/odrl";
import type { RequiredPolicy } from "./required-policies.ts";

/**
 * Whether ODRL policies, as the FIWARE ODRL-PAP maps them to Rego (notes/fdsc.md §2), permit a
 * credential's holder one required policy of a request. The PAP's Rego allows what some permission
 * allows (no prohibitions): its action covers the request's method, its assignee holds for the
 * credential, its target for the entity type, and each of its constraints. A permission with an
 * operand or operator this evaluator does not know permits nothing (it never widens access).
 */

/** The HTTP methods each ODRL action covers (the PAP's mapping.json). */
const methodsOf: Record<string, string[]> = {
  "odrl:read": ["GET"],
  "odrl:modify": ["PATCH"],
  "odrl:delete": ["DELETE"],
  "odrl:use": ["GET", "POST", "PUT", "PATCH", "DELETE"],
  "dome-op:read": ["GET"],
  "dome-op:modify": ["PATCH"],
  "dome-op:write": ["PUT"],
  "dome-op:create": ["POST"],
  "tmf:create": ["POST"],
  "ngsild:create": ["POST"],
};

/** What a credential says, as the PAP's `vc:` operands read it. */
export interface CredentialFacts {
  /** Role names for the PAP's organisation (`credentialSubject.roles[target == DID].names`). */
  roles: string[];
  /** The credentials' types. */
  types: string[];
  /** The credentials' issuers (`vc:currentParty` compares with them). */
  issuers: string[];
}

const ODRL = "http://www.w3.org/ns/odrl/2/";
const short = (term: string) => (term.startsWith(ODRL) ? `odrl:${term.slice(ODRL.length)}` : term);

/** A right operand as a list: a JSON array written as text, else the one value. */
const operandValues = (right: string): string[] => {
  if (right.startsWith("[")) {
    try {
      const parsed = JSON.parse(right) as unknown[];
      return parsed.map((v) =>
        v && typeof v === "object" ? String((v as Record<string, unknown>)["@value"] ?? "") : String(v),
      );
    } catch {
      // a text that looks like an array: one value
    }
  }
  return [right];
};

/** Whether a constraint holds for the values its left operand reads; undefined when not understood. */
function compare(operator: string, values: string[], right: string): boolean | undefined {
  const wanted = operandValues(right);
  switch (short(operator)) {
    case "odrl:eq":
      return values.length === 1 && values[0] === right;
    case "odrl:neq":
      return !(values.length === 1 && values[0] === right);
    case "odrl:hasPart":
      return wanted.every((w) => values.includes(w));
    case "odrl:isAnyOf":
    case "odrl:anyOf":
    case "odrl:isPartOf":
      return values.some((v) => wanted.includes(v));
    case "odrl:isAllOf":
      return wanted.every((w) => values.includes(w));
    case "odrl:isNoneOf":
      return !values.some((v) => wanted.includes(v));
    default:
      return undefined;
  }
}

function compareTime(operator: string, now: Date, right: string): boolean | undefined {
  const at = Date.parse(right);
  if (Number.isNaN(at)) return undefined;
  const t = now.getTime();
  const ops: Record<string, boolean> = {
    "odrl:lt": t < at,
    "odrl:lteq": t <= at,
    "odrl:gt": t > at,
    "odrl:gteq": t >= at,
    "odrl:eq": t === at,
  };
  return ops[short(operator)];
}

function holds(c: OdrlConstraint, facts: CredentialFacts, type: string, now: Date): boolean {
  const left = short(c.leftOperand);
  const read: Record<string, string[]> = {
    "vc:role": facts.roles,
    "vc:type": facts.types,
    "vc:currentParty": facts.issuers,
    "ngsi-ld:entityType": [type],
  };
  const result =
    left === "odrl:dateTime"
      ? compareTime(c.operator, now, c.rightOperand)
      : read[left]
        ? compare(c.operator, read[left], c.rightOperand)
        : undefined;
  return result === true;
}

function permits(
  s: Statement,
  facts: CredentialFacts,
  policy: RequiredPolicy,
  lastSegment: string,
  now: Date,
): boolean {
  const method = policy.action.split(":")[0]!;
  if (!(methodsOf[short(s.action)] ?? []).includes(method)) return false;
  const assignee = s.assignee;
  const assigned =
    assignee.kind === "any" || assignee.kind === "anyone"
      ? true
      : assignee.kind === "role"
        ? facts.roles.includes(assignee.role) && facts.types.includes(assignee.credentialType)
        : assignee.kind === "party"
          ? facts.issuers.includes(assignee.did)
          : assignee.constraints.every((c) => holds(c, facts, policy.type, now));
  if (!assigned) return false;
  const target = s.target;
  const targeted =
    target.kind === "anything"
      ? true
      : target.kind === "entityType"
        ? target.entityType === policy.type
        : target.kind === "entity"
          ? // The PAP compares a plain target with the last segment of the request's path.
            target.entityId === lastSegment
          : target.constraints.every((c) => holds(c, facts, policy.type, now));
  return targeted && s.constraints.every((c) => holds(c, facts, policy.type, now));
}

/** The policy (its uid) whose permission allows a required policy, or undefined. */
export function permittingPolicy(
  policies: Array<{ uid: string; odrl: unknown }>,
  facts: CredentialFacts,
  required: RequiredPolicy,
  lastSegment: string,
  now = new Date(),
): string | undefined {
  return policies.find((p) => statementsOf(p.odrl).some((s) => permits(s, facts, required, lastSegment, now)))
    ?.uid;
}
