import { Alert, Button, Card, Spinner, Table } from "react-bootstrap";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { TrashIcon } from "../app/icons.tsx";
import { useConfirmedDelete } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { routeTo } from "../routes.ts";
import { AttributeValue } from "./AttributeValue.tsx";
import {
  attributesOf,
  displayName,
  subPropertiesFor,
  topLevelProperties,
  type PropertyRecord,
  type TypeRecord,
} from "./entityModel.ts";
import { entityCalls, paths, useDataModel, useEntity, useEntityMutation } from "./entityQueries.ts";
import { ClockIcon, LinkIcon, PlusIcon } from "./icons.tsx";
import { entityHref, withQuery } from "./links.ts";
import { Relationships } from "./Relationships.tsx";
import { notify } from "../app/Toasts.tsx";
import { LiveBadge, useLiveEntities } from "./live.tsx";

/**
 * The entity card (workspace view, query entityId): the data-model properties present on the entity
 * with their values, the attributes the data model does not declare, and the relationships both ways.
 */
export function EntityCard({
  workspaceId,
  type,
  entityId,
}: {
  workspaceId: string;
  type: TypeRecord;
  entityId: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const model = useDataModel();
  const entity = useEntity(workspaceId, entityId);
  // Its values change as devices and other clients write them.
  const live = useLiveEntities({ workspaceId, type: type.name, entityId });
  const remove = useEntityMutation(workspaceId, () => entityCalls.remove(workspaceId, entityId), entityId);
  const deletion = useConfirmedDelete(({ onError }) =>
    remove.mutate(undefined, {
      onSuccess: () => {
        notify(t("operations.deleted", { one: t("entities.one"), name: entityId }));
        navigate(entityHref(workspaceId, type.id));
      },
      onError,
    }),
  );
  const itemPath = paths.entity(workspaceId, entityId);
  const canUpdate = can.can("PUT", itemPath);
  const ws = { workspaceId };
  // The clock only when the API would answer the history of its first temporal service (spec section 6).
  const canShowHistory = (property: PropertyRecord) =>
    can.can(
      "GET",
      `/workspace/${workspaceId}/temporal-entities/${encodeURIComponent(entityId)}/properties/${encodeURIComponent(
        property.id,
      )}/temporal-services/${encodeURIComponent(property.temporalServices?.[0] ?? "")}`,
    );

  if (entity.isPending || model.isPending)
    return <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
  if (entity.isError)
    return (
      <>
        <Link to={entityHref(workspaceId, type.id)} className="btn btn-outline-secondary btn-sm mb-2">
          ← {t("entities.backToList")}
        </Link>
        <ErrorAlert error={entity.error} />
      </>
    );
  const data = entity.data;
  const declared = topLevelProperties(model.properties, type.id);
  const present = declared.filter((p) => data[p.name] !== undefined);
  const declaredNames = new Set(declared.map((p) => p.name));
  const others = attributesOf(data).filter(([name]) => !declaredNames.has(name));
  const title = `${displayName(data)} (${type.name})`;

  return (
    <>
      <Link to={entityHref(workspaceId, type.id)} className="btn btn-outline-secondary btn-sm mb-2">
        ← {t("entities.backToList")}
      </Link>
      {remove.isError && <ErrorAlert error={remove.error} />}
      <Card>
        <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <div className="d-flex align-items-center gap-2">
            <h2 className="h5 mb-0 text-break">{title}</h2>
            <LiveBadge state={live} />
          </div>
          <div className="d-flex gap-2">
            {canUpdate && (
              <Link
                to={routeTo("entities.properties.create", { ...ws, typeId: type.id, entityId })}
                className="btn btn-outline-primary btn-sm"
                title={t("entities.addAttribute")}
                aria-label={t("entities.addAttribute")}
              >
                <PlusIcon />
              </Link>
            )}
            {can.can("POST", paths.entities(workspaceId)) && (
              <Link
                to={withQuery(routeTo("entities.create", ws), {
                  ascendingEntityId: entityId,
                  ascendingTypeId: type.id,
                })}
                className="btn btn-outline-primary btn-sm"
                title={t("entities.createChild")}
                aria-label={t("entities.createChild")}
              >
                <LinkIcon />
              </Link>
            )}
            {can.can("DELETE", itemPath) && (
              <Button
                variant="outline-danger"
                size="sm"
                onClick={deletion.ask}
                title={t("entities.delete")}
                aria-label={t("entities.delete")}
              >
                <TrashIcon />
              </Button>
            )}
          </div>
        </Card.Header>
        <Card.Body>
          {present.length === 0 ? (
            <Alert variant="info" className="mb-0">
              {t("entities.noProperties")}
            </Alert>
          ) : (
            <Table size="sm" responsive className="mb-0 align-middle" aria-label={t("entities.properties")}>
              <thead>
                <tr>
                  <th scope="col">{t("entities.name")}</th>
                  <th scope="col">{t("entities.value")}</th>
                  <th scope="col" className="text-center">
                    {t("entities.temporal")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {present.map((property) => (
                  <tr key={property.id}>
                    <td className="text-break">
                      <Link
                        to={withQuery(
                          routeTo("entities.properties.show", { ...ws, entityId, propertyId: property.id }),
                          { typeId: type.id },
                        )}
                      >
                        {property.name}
                      </Link>
                    </td>
                    <td>
                      <AttributeValue
                        attribute={data[property.name] as never}
                        property={property}
                        subProperties={subPropertiesFor(model.properties, property.id)}
                      />
                    </td>
                    <td className="text-center">
                      {property.temporal && canShowHistory(property) && (
                        <Link
                          to={routeTo("temporalEntities.properties.show", {
                            ...ws,
                            typeId: type.id,
                            entityId,
                            propertyId: property.id,
                          })}
                          title={t("entities.history", { name: property.name })}
                          aria-label={t("entities.history", { name: property.name })}
                        >
                          <ClockIcon />
                        </Link>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card.Body>
      </Card>
      {others.length > 0 && (
        <Card className="mt-3">
          <Card.Header>
            <h3 className="h6 mb-0">{t("entities.otherAttributes")}</h3>
          </Card.Header>
          <Card.Body>
            <p className="small text-body-secondary">{t("entities.otherAttributesHelp")}</p>
            <Table size="sm" responsive className="mb-0 small" aria-label={t("entities.otherAttributes")}>
              <thead>
                <tr>
                  <th scope="col">{t("entities.name")}</th>
                  <th scope="col">{t("entities.value")}</th>
                </tr>
              </thead>
              <tbody>
                {others.map(([name, attribute]) => (
                  <tr key={name}>
                    <td className="text-break">{name}</td>
                    <td>
                      <AttributeValue attribute={attribute} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card.Body>
        </Card>
      )}
      <Relationships
        workspaceId={workspaceId}
        entity={data}
        typeId={type.id}
        types={model.types}
        properties={model.properties}
      />
      {deletion.dialogs({
        confirm: t("entities.confirmDelete", { name: displayName(data) }),
        failed: t("entities.deletionFailed"),
      })}
    </>
  );
}
