import { useQueries } from "@tanstack/react-query";
import { useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { recordTitle, titleReferences, type KindDefinition } from "@orrery/model";
import { kindRoute, lineage, placementOf, routeTo, type Action } from "../routes.ts";
import { itemQuery } from "./queries.ts";
import { useReferencedTitles } from "./titles.ts";

/** A kind's pages as seen from the current route: the item's id, the parents' ids, links that keep them. */
export function usePlace(kind: KindDefinition) {
  const params = useParams();
  const place = placementOf(kind);
  return {
    params,
    place,
    id: params[place.param],
    route: (action: Action, id?: string) => kindRoute(kind, action, id, params),
  };
}

export interface Crumb {
  label: string;
  to?: string;
}

/**
 * The breadcrumb down to a kind's list: Workspaces > {workspace} > Types > {type} for a property.
 * The parents' names come from their (cached) records.
 */
export function useParentCrumbs(kind: KindDefinition): Crumb[] {
  const { t } = useTranslation();
  const params = useParams();
  const parents = lineage(kind).slice(0, -1);
  const names = useQueries({
    queries: parents.map((parent) => ({
      ...itemQuery(
        parent,
        params[placementOf(parent).param] ?? "",
        parent.scope === "workspace" ? params.workspaceId : undefined,
      ),
      retry: false,
    })),
  });
  const referenced = useReferencedTitles(parents.flatMap((p) => titleReferences(p).map((r) => r.kind)));
  const crumbs: Crumb[] = [];
  parents.forEach((parent, i) => {
    const place = placementOf(parent);
    const id = params[place.param] ?? "";
    if (place.index)
      crumbs.push({
        label: t(`kinds.${parent.kind}.many`),
        to: kindRoute(parent, "index", undefined, params),
      });
    crumbs.push({
      label: names[i]?.data ? recordTitle(parent, names[i]!.data!.data, referenced) : id,
      to: place.view ? routeTo(place.view, params) : kindRoute(parent, "show", id, params),
    });
  });
  if (placementOf(kind).index)
    crumbs.push({ label: t(`kinds.${kind.kind}.many`), to: kindRoute(kind, "index", undefined, params) });
  return crumbs;
}
