import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { kindsByName } from "@orrery/model";
import { kindRoute, placementOf } from "../routes.ts";

/** A record that keeps another from deletion, as the API's 409 names it. */
export interface Blocker {
  id: string;
  kind: string;
  name: string;
  workspaceId?: string;
  /** The records it refers to, by field: its page may sit under one (a property under its type). */
  refs?: Record<string, string>;
}

/** The records a deletion waits for, each a link to its page: delete or change them first. */
export function Blockers({ blockers }: { blockers: readonly Blocker[] }) {
  const { t } = useTranslation();
  return (
    <ul className="mb-2" aria-label={t("errors.blockers")}>
      {blockers.map((b) => {
        const kind = kindsByName.get(b.kind);
        const label = t("errors.blocker", {
          kind: kind ? t(`kinds.${b.kind}.one`) : b.kind,
          name: b.name || b.id,
        });
        if (!kind) return <li key={b.id}>{label}</li>;
        const params: Record<string, string | undefined> = { workspaceId: b.workspaceId };
        for (const [field, param] of Object.entries(placementOf(kind).fromRoute ?? {}))
          params[param] = b.refs?.[field];
        return (
          <li key={b.id}>
            <Link to={kindRoute(kind, "show", b.id, params)}>{label}</Link>
          </li>
        );
      })}
    </ul>
  );
}
