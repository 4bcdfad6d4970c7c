import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
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

function sentence(t: TFunction, s: Statement): string {
  const who =
    s.assignee.kind === "role"
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
  const what =
    s.target.kind === "entityType"
      ? t("fdsc.statement.entityType", { type: s.target.entityType })
      : s.target.kind === "entity"
        ? t("fdsc.statement.entity", { id: s.target.entityId })
        : s.target.kind === "anything"
          ? t("fdsc.statement.anything")
          : t("fdsc.statement.whatever", {
              constraints: s.target.constraints.map((c) => constraintText(t, c)).join(", "),
            });
  const when = s.constraints.length
    ? t("fdsc.statement.when", { constraints: s.constraints.map((c) => constraintText(t, c)).join(", ") })
    : "";
  const said = t("fdsc.statement.may", { who, action: word(t, actionKeys, s.action), what, when });
  return said.charAt(0).toUpperCase() + said.slice(1);
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
