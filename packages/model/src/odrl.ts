/**
 * ODRL policies as the FIWARE ODRL-PAP understands them (notes/fdsc.md §2): the console's guided
 * builder writes them, a role's synchronisation in FDSC mode writes them, and the console reads any
 * policy back as a statement. Only what the PAP maps: `odrl:Policy` with permissions (no
 * prohibitions or duties), one action each; assignee and target refined by constraints.
 */

export const ODRL_NAMESPACE = "http://www.w3.org/ns/odrl/2/";

/** The actions the PAP maps to HTTP methods (mapping.json), in the order a builder offers them. */
export const odrlActions = [
  "odrl:read",
  "odrl:modify",
  "odrl:delete",
  "ngsild:create",
  "dome-op:write",
  "odrl:use",
] as const;

/** The data action (an HTTP method, as Orrery's data actions are named) each ODRL action covers. */
export const odrlActionOfMethod: Readonly<Record<string, string>> = {
  GET: "odrl:read",
  PATCH: "odrl:modify",
  DELETE: "odrl:delete",
  POST: "ngsild:create",
  PUT: "dome-op:write",
};

/** Left operands a builder's constraint may use (the assignee's and target's are set by their own choices). */
export const odrlLeftOperands = [
  "odrl:dateTime",
  "odrl:dayOfWeek",
  "odrl:hourOfDay",
  "http:path",
  "http:bodyValue",
  "vc:currentParty",
  "vc:role",
  "vc:type",
  "ngsi-ld:entityType",
] as const;

export const odrlOperators = [
  "odrl:eq",
  "odrl:neq",
  "odrl:gt",
  "odrl:gteq",
  "odrl:lt",
  "odrl:lteq",
  "odrl:hasPart",
  "odrl:isAnyOf",
  "odrl:isNoneOf",
  "http:isInPath",
] as const;

export interface OdrlConstraint {
  leftOperand: string;
  operator: string;
  rightOperand: string;
}

export type OdrlAssignee =
  | { kind: "any" }
  /** Holders of a credential of this type carrying this role (for the provider the PAP is configured with). */
  | { kind: "role"; role: string; credentialType: string }
  /** The credential's issuer, by DID. */
  | { kind: "party"; did: string };

export type OdrlTarget =
  | { kind: "entityType"; entityType: string }
  /** One entity: the PAP compares a plain target with the last segment of the request's path. */
  | { kind: "entity"; entityId: string };

/** What the guided builder edits. */
export interface PolicyDraft {
  uid: string;
  assignee: OdrlAssignee;
  actions: string[];
  target: OdrlTarget;
  constraints: OdrlConstraint[];
}

type Json = Record<string, unknown>;

const constraint = (leftOperand: string, operator: string, rightOperand: unknown): Json => ({
  "@type": "odrl:Constraint",
  "odrl:leftOperand": { "@id": leftOperand },
  "odrl:operator": { "@id": operator },
  "odrl:rightOperand": rightOperand,
});
const text = (value: string) => ({ "@value": value, "@type": "xsd:string" });

/** The ODRL JSON-LD of a draft: one permission per action (the PAP maps one action per permission). */
export function odrlOf(draft: PolicyDraft): Json {
  const assignee =
    draft.assignee.kind === "any"
      ? "vc:any"
      : draft.assignee.kind === "party"
        ? draft.assignee.did
        : {
            "@type": "odrl:PartyCollection",
            "odrl:source": "urn:user",
            "odrl:refinement": {
              "@type": "odrl:LogicalConstraint",
              "odrl:and": [
                constraint("vc:role", "odrl:hasPart", text(draft.assignee.role)),
                constraint("vc:type", "odrl:hasPart", text(draft.assignee.credentialType)),
              ],
            },
          };
  const target =
    draft.target.kind === "entity"
      ? draft.target.entityId
      : {
          "@type": "odrl:AssetCollection",
          "odrl:source": "urn:asset",
          "odrl:refinement": [constraint("ngsi-ld:entityType", "odrl:eq", draft.target.entityType)],
        };
  const constraints = draft.constraints.map((c) => constraint(c.leftOperand, c.operator, c.rightOperand));
  return {
    "@context": { odrl: ODRL_NAMESPACE },
    "@type": "odrl:Policy",
    "odrl:uid": draft.uid,
    "odrl:permission": draft.actions.map((action) => ({
      "@type": "odrl:Permission",
      "odrl:assignee": assignee,
      "odrl:target": target,
      "odrl:action": { "@id": action },
      ...(constraints.length ? { "odrl:constraint": constraints } : {}),
    })),
  };
}

const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const idOf = (v: unknown): string | undefined =>
  typeof v === "string"
    ? v
    : v && typeof v === "object" && typeof (v as Json)["@id"] === "string"
      ? ((v as Json)["@id"] as string)
      : undefined;
const valueOf = (v: unknown): string =>
  v && typeof v === "object"
    ? String((v as Json)["@value"] ?? idOf(v) ?? JSON.stringify(v))
    : String(v ?? "");

/** Plain constraints of a refinement or constraint tree, logical ones opened (`odrl:and` and the like). */
function constraintsOf(value: unknown): OdrlConstraint[] {
  return list(value).flatMap((c) => {
    const json = c as Json;
    const logical = ["odrl:and", "odrl:andSequence", "odrl:or", "odrl:xone"].find(
      (k) => json?.[k] !== undefined,
    );
    if (logical) return constraintsOf(json[logical]);
    return [
      {
        leftOperand: idOf(json?.["odrl:leftOperand"]) ?? "?",
        operator: idOf(json?.["odrl:operator"]) ?? "?",
        rightOperand: valueOf(json?.["odrl:rightOperand"]),
      },
    ];
  });
}

/** One permission of a policy as a readable statement: who may do what on what, when. */
export interface Statement {
  assignee: OdrlAssignee | { kind: "constraints"; constraints: OdrlConstraint[] } | { kind: "anyone" };
  action: string;
  target: OdrlTarget | { kind: "constraints"; constraints: OdrlConstraint[] } | { kind: "anything" };
  constraints: OdrlConstraint[];
}

/** The statements of a policy (ODRL as the PAP stores it, an object or its JSON string), one per permission. */
export function statementsOf(odrl: unknown): Statement[] {
  let policy: Json;
  try {
    policy = (typeof odrl === "string" ? JSON.parse(odrl) : odrl) as Json;
  } catch {
    return [];
  }
  if (!policy || typeof policy !== "object") return [];
  return list(policy["odrl:permission"]).map((p) => {
    const permission = p as Json;
    const rawAssignee = permission["odrl:assignee"] ?? policy["odrl:assignee"];
    const rawTarget = permission["odrl:target"] ?? policy["odrl:target"];
    const assigneeConstraints = constraintsOf((rawAssignee as Json | undefined)?.["odrl:refinement"]);
    const role = assigneeConstraints.find((c) => c.leftOperand === "vc:role");
    const type = assigneeConstraints.find((c) => c.leftOperand === "vc:type");
    const assignee: Statement["assignee"] =
      rawAssignee === undefined
        ? { kind: "anyone" }
        : typeof idOf(rawAssignee) === "string" && !(rawAssignee as Json)["@type"]
          ? idOf(rawAssignee) === "vc:any"
            ? { kind: "any" }
            : { kind: "party", did: idOf(rawAssignee)! }
          : role && type && assigneeConstraints.length === 2
            ? { kind: "role", role: role.rightOperand, credentialType: type.rightOperand }
            : { kind: "constraints", constraints: assigneeConstraints };
    const targetConstraints = constraintsOf((rawTarget as Json | undefined)?.["odrl:refinement"]);
    const entityType = targetConstraints.find(
      (c) => c.leftOperand === "ngsi-ld:entityType" && c.operator === "odrl:eq",
    );
    const target: Statement["target"] =
      rawTarget === undefined
        ? { kind: "anything" }
        : typeof idOf(rawTarget) === "string" && !(rawTarget as Json)["@type"]
          ? { kind: "entity", entityId: idOf(rawTarget)! }
          : entityType && targetConstraints.length === 1
            ? { kind: "entityType", entityType: entityType.rightOperand }
            : { kind: "constraints", constraints: targetConstraints };
    return {
      assignee,
      action: idOf(permission["odrl:action"]) ?? "?",
      target,
      constraints: constraintsOf(permission["odrl:constraint"]),
    };
  });
}

/**
 * The draft a policy reads as, when the builder can edit it: every permission with the same
 * assignee, target and constraints, one action each. Otherwise undefined (JSON editing only).
 */
export function draftOf(odrl: unknown): PolicyDraft | undefined {
  let policy: Json;
  try {
    policy = (typeof odrl === "string" ? JSON.parse(odrl) : odrl) as Json;
  } catch {
    return undefined;
  }
  const uid = idOf(policy?.["odrl:uid"]) ?? idOf(policy?.["@id"]);
  const statements = statementsOf(policy);
  const [first] = statements;
  if (!uid || !first) return undefined;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (
    first.assignee.kind === "constraints" ||
    first.assignee.kind === "anyone" ||
    first.target.kind === "constraints" ||
    first.target.kind === "anything" ||
    !statements.every(
      (s) =>
        same(s.assignee, first.assignee) &&
        same(s.target, first.target) &&
        same(s.constraints, first.constraints),
    )
  )
    return undefined;
  const draft = {
    uid,
    assignee: first.assignee,
    actions: statements.map((s) => s.action),
    target: first.target,
    constraints: first.constraints,
  };
  // Only what the builder would write again as it was (nothing of the policy lost by editing it).
  return same(comparable(odrlOf(draft)), comparable(policy)) ? draft : undefined;
}

/**
 * A policy without what JSON-LD compaction changes (the context, full IRIs, one-item arrays made
 * plain values), to compare two writings of it.
 */
function comparable(policy: Json): unknown {
  const { "@context": _context, ...rest } = policy;
  const plain = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.length === 1
        ? plain(v[0])
        : v.map(plain)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
        : v;
  return plain(JSON.parse(JSON.stringify(rest).replaceAll(ODRL_NAMESPACE, "odrl:")));
}
