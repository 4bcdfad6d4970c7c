import { useTranslation, type TFunction } from "../i18n/index.ts";
import { statementsOf, type OdrlConstraint, type Statement } from "@orrery/model/odrl";

/** The words of the ODRL actions and operators the PAP maps (others read as their ODRL name). */
export const actionKeys: Record<string, string> = {
  "odrl:read": "fdsc.action.read",
  "odrl:modify": "fdsc.action.modify",
  "odrl:delete": "fdsc.action.delete",
  "ngsild:create": "fdsc.action.create",
  "dome-op:write": "fdsc.action.write",
  "odrl:use": "fdsc.action.use",
};
export const operatorKeys: Record<string, string> = {
  "odrl:eq": "fdsc.operator.eq",
  "odrl:neq": "fdsc.operator.neq",
  "odrl:gt": "fdsc.operator.gt",
  "odrl:gteq": "fdsc.operator.gteq",
  "odrl:lt": "fdsc.operator.lt",
  "odrl:lteq": "fdsc.operator.lteq",
  "odrl:hasPart": "fdsc.operator.hasPart",
  "odrl:isAnyOf": "fdsc.operator.isAnyOf",
  "odrl:isNoneOf": "fdsc.operator.isNoneOf",
  "http:isInPath": "fdsc.operator.isInPath",
};

const word = (t: TFunction, keys: Record<string, string>, value: string) =>
  keys[value] ? `${t(keys[value])} (${value})` : value;

export const constraintText = (t: TFunction, c: OdrlConstraint) =>
  `${c.leftOperand} ${word(t, operatorKeys, c.operator)} “${c.rightOperand}”`;

function whoOf(t: TFunction, s: Statement): string {
  return s.assignee.kind === "role"
    ? t("fdsc.statement.role", { role: s.assignee.role, credentialType: s.assignee.credentialType })
    : s.assignee.kind === "any"
      ? t("fdsc.statement.anyHolder")
      : s.assignee.kind === "party"
        ? t("fdsc.statement.party", { did: s.assignee.did })
        : s.assignee.kind === "anyone"
          ? t("fdsc.statement.anyone")
          : t("fdsc.statement.whoever", {
              constraints: s.assignee.constraints.map((c) => constraintText(t, c)).join(", "),
            });
}

function whatOf(t: TFunction, s: Statement): string {
  return s.target.kind === "entityType"
    ? t("fdsc.statement.entityType", { type: s.target.entityType })
    : s.target.kind === "entity"
      ? t("fdsc.statement.entity", { id: s.target.entityId })
      : s.target.kind === "anything"
        ? t("fdsc.statement.anything")
        : t("fdsc.statement.whatever", {
            constraints: s.target.constraints.map((c) => constraintText(t, c)).join(", "),
          });
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function sentence(t: TFunction, s: Statement): string {
  const when = s.constraints.length
    ? t("fdsc.statement.when", { constraints: s.constraints.map((c) => constraintText(t, c)).join(", ") })
    : "";
  return capitalized(
    t("fdsc.statement.may", {
      who: whoOf(t, s),
      action: word(t, actionKeys, s.action),
      what: whatOf(t, s),
      when,
    }),
  );
}

/**
 * A policy's title where the PAP's id (urn:orrery:policy:…) would say nothing: the role it was
 * written for (or who it lets in), its action and its target, from its first permission, and how
 * many others it has; its uid, else its id, when Orrery cannot read it.
 */
export function policyTitle(t: TFunction, policy: { id: string; uid?: string; odrl?: unknown }): string {
  const statements = statementsOf(policy.odrl);
  const first = statements[0];
  if (!first) return policy.uid || policy.id;
  // The permissions that differ from the first only by their action read as one.
  const alike = (s: Statement) =>
    JSON.stringify([s.assignee, s.target, s.constraints]) ===
    JSON.stringify([first.assignee, first.target, first.constraints]);
  const same = statements.filter(alike);
  const actions = [...new Set(same.map((s) => s.action))].map((a) => (actionKeys[a] ? t(actionKeys[a]!) : a));
  const title = t("fdsc.policies.titleOf", {
    who: first.assignee.kind === "role" ? first.assignee.role : capitalized(whoOf(t, first)),
    action: actions.join(", "),
    what: whatOf(t, first),
  });
  const others = statements.length - same.length;
  return others ? t("fdsc.policies.titleMore", { title, count: others }) : title;
}

/** A policy read as sentences, one per permission: who may do what on what, and when. */
export function PolicyStatement({ odrl }: { odrl: unknown }) {
  const { t } = useTranslation();
  const statements = statementsOf(odrl);
  if (!statements.length) return <p className="text-body-secondary mb-0">{t("fdsc.statement.none")}</p>;
  return (
    <ul className="mb-0" data-testid="policy-statement">
      {statements.map((s, i) => (
        <li key={i}>{sentence(t, s)}</li>
      ))}
    </ul>
  );
}
