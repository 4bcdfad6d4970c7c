import { useParams, useSearchParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { workspaces } from "@orrery/model";
import { useItem } from "../resources/queries.ts";
import { routeTo } from "../routes.ts";
import { displayName } from "./entityModel.ts";
import { useDataModel, useEntity } from "./entityQueries.ts";
import { entityHref } from "./links.ts";

/**
 * What the pages below an entity share: route params (typeId from the route or the query), the
 * data model, the entity, and the breadcrumb trail Workspaces > workspace > type > entity.
 */
export function useEntityPage() {
  const { t } = useTranslation();
  const params = useParams();
  const [query] = useSearchParams();
  const workspaceId = params.workspaceId ?? "";
  const entityId = params.entityId ?? "";
  const typeId = params.typeId ?? query.get("typeId") ?? "";
  const model = useDataModel();
  const entity = useEntity(workspaceId, entityId || undefined);
  const workspace = useItem(workspaces, workspaceId);
  const type = model.types.find((x) => x.id === typeId);
  const property = model.properties.find((p) => p.id === params.propertyId);
  const trail = [
    { label: t("kinds.workspaces.many"), to: routeTo("workspaces.index") },
    { label: String(workspace.data?.data.name ?? workspaceId), to: entityHref(workspaceId, undefined) },
    ...(type ? [{ label: type.name, to: entityHref(workspaceId, type.id) }] : []),
    ...(entityId
      ? [
          {
            label: entity.data ? displayName(entity.data) : entityId,
            to: entityHref(workspaceId, typeId, entityId),
          },
        ]
      : []),
  ];
  return { workspaceId, entityId, typeId, model, entity, type, property, trail, query };
}
