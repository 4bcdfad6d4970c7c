import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { kindsByName } from "@orrery/model";
import { kindRoute, lineage, placementOf } from "../routes.ts";

/** A record that keeps another from deletion, as the API's 409 names it. */
export interface Blocker {
  id: string;
  kind: string;
  name: string;
  workspaceId?: string;
  /**
   * The records it refers to, by field: its page may sit under one (a property under its type). A
   * delete check adds those its parents refer to (a routing operation's thing description).
   */
  refs?: Record<string, string>;
}

/**
 * The records a deletion waits for, each a link to its page: delete or change them first (or,
 * `label`led otherwise, the records whose links go with it). `total`, when the API counted more
 * than it named (a workspace's first 50 records), says how many more there are.
 */
export function Blockers({
  blockers,
  label,
  total,
}: {
  blockers: readonly Blocker[];
  label?: string;
  total?: number;
}) {
  const { t } = useTranslation();
  const more = typeof total === "number" ? total - blockers.length : 0;
  return (
    <ul className="mb-2" aria-label={label ?? t("errors.blockers")}>
      {blockers.map((b) => {
        const kind = kindsByName.get(b.kind);
        const label = t("errors.blocker", {
          kind: kind ? t(`kinds.${b.kind}.one`) : b.kind,
          name: b.name || b.id,
        });
        if (!kind) return <li key={b.id}>{label}</li>;
        const params: Record<string, string | undefined> = { workspaceId: b.workspaceId };
        // Its page sits under its parents, each named by one of its references (or theirs).
        for (const place of lineage(kind).map(placementOf))
          for (const [field, param] of Object.entries(place.fromRoute ?? {}))
            params[param] ??= b.refs?.[field];
        return (
          <li key={b.id}>
            <Link to={kindRoute(kind, "show", b.id, params)}>{label}</Link>
          </li>
        );
      })}
      {more > 0 && <li data-testid="blockers-more">{t("errors.blockersMore", { count: more })}</li>}
    </ul>
  );
}
