import { useState } from "react";
import { Alert, Button, Card, Spinner, Table } from "react-bootstrap";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useQueryClient } from "@tanstack/react-query";
import { TrashIcon } from "../app/icons.tsx";
import { useConfirmedDelete } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { routeTo } from "../routes.ts";
import { InstanceValue, SubProperties } from "./AttributeValue.tsx";
import {
  instancesOf,
  subPropertiesFor,
  subPropertiesOf,
  type Entity,
  type Instance,
  type PropertyRecord,
} from "./entityModel.ts";
import { entityCalls, entityKeys, paths, useEntityMutation } from "./entityQueries.ts";
import { useEntityPage } from "./entityPage.tsx";
import { entityHref, withQuery } from "./links.ts";
import "texts:context-data";

/** A single value in full: Object/Array and geometries as pretty JSON. */
function FullValue({ instance, property }: { instance: Instance; property: PropertyRecord }) {
  const structured =
    property.ngsiLdType === "GeoProperty" ||
    (instance.value !== null && typeof instance.value === "object" && property.ngsiLdType === "Property");
  if (structured)
    return (
      <pre className="small mb-0 p-2 bg-body-tertiary rounded">{JSON.stringify(instance.value, null, 4)}</pre>
    );
  return <InstanceValue instance={instance} property={property} />;
}

/**
 * The attribute page (entities.properties.show): the value(s), the sub-properties; add sub-property,
 * edit, delete the attribute, and delete one value (by its datasetId) of a multi-valued attribute.
 */
export function AttributePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const can = useCan();
  const { workspaceId, entityId, typeId, model, entity, property, trail } = useEntityPage();
  const remove = useEntityMutation(workspaceId, (name: string) =>
    entityCalls.removeAttribute(workspaceId, entityId, name),
  );
  const back = entityHref(workspaceId, typeId, entityId);
  const valueName = (id: string | null | undefined) => id ?? t("entities.defaultInstance");
  const deletion = useConfirmedDelete(({ onError }) => {
    if (property) remove.mutate(property.name, { onSuccess: () => navigate(back), onError });
  });
  // One value of a multi-valued attribute. The broker drops the attribute with its last value: the
  // entity as refetched after the delete tells whether anything is left to show here.
  // The value to delete: its datasetId, or null for the default value (the one without).
  const [datasetId, setDatasetId] = useState<string | null>();
  const removeValue = useEntityMutation(workspaceId, (value: { name: string; datasetId: string | null }) =>
    entityCalls.removeAttribute(workspaceId, entityId, value.name, value.datasetId),
  );
  const valueDeletion = useConfirmedDelete(({ onError }) => {
    if (!property || datasetId === undefined) return;
    removeValue.mutate(
      { name: property.name, datasetId },
      {
        onSuccess: () => {
          const refreshed = client.getQueryData<Entity>(entityKeys.item(workspaceId, entityId));
          if (refreshed?.[property.name] === undefined) navigate(back);
        },
        onError,
      },
    );
  });
  if (entity.isError) return <ErrorAlert error={entity.error} />;
  if (entity.isPending || model.isPending)
    return <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
  if (!property) return <Alert variant="warning">{t("entities.noSuchProperty")}</Alert>;
  const attribute = entity.data[property.name];
  const instances = instancesOf(attribute);
  // A lone value with a datasetId (what a broker answers once the others are deleted) is still one of many.
  const multiple =
    Array.isArray(attribute) || !!property.multiValued || instances.some((i) => i.datasetId !== undefined);
  const canUpdate = can.can("PUT", paths.entity(workspaceId, entityId));
  const hasSubs = subPropertiesFor(model.properties, property.id).length > 0;
  const single = instances[0];
  return (
    <>
      <Breadcrumbs trail={[...trail, { label: property.name }]} />
      <Link to={back} className="btn btn-outline-secondary btn-sm mb-3">
        ← {t("common.back")}
      </Link>
      {remove.isError && <ErrorAlert error={remove.error} />}
      {removeValue.isError && <ErrorAlert error={removeValue.error} />}
      <Card>
        <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0 text-break">{property.name}</h1>
          {canUpdate && attribute !== undefined && (
            <div className="d-flex flex-wrap gap-2">
              {hasSubs && (
                <Link
                  className="btn btn-outline-primary btn-sm"
                  to={withQuery(routeTo("entities.properties.create", { workspaceId, typeId, entityId }), {
                    parentPropertyId: property.id,
                  })}
                >
                  {t("entities.addSubProperty")}
                </Link>
              )}
              <Link
                className="btn btn-outline-primary btn-sm"
                to={withQuery(
                  routeTo("entities.properties.edit", { workspaceId, entityId, propertyId: property.id }),
                  {
                    typeId,
                  },
                )}
              >
                {t("common.edit")}
              </Link>
              <Button variant="outline-danger" size="sm" onClick={deletion.ask}>
                {t("common.delete")}
              </Button>
            </div>
          )}
        </Card.Header>
        <Card.Body>
          {attribute === undefined ? (
            <Alert variant="info" className="mb-0">
              {t("entities.attributeAbsent")}
            </Alert>
          ) : multiple ? (
            <Table size="sm" responsive className="mb-0" aria-label={t("entities.values")}>
              <thead>
                <tr>
                  <th scope="col">{t("entities.datasetId")}</th>
                  <th scope="col">{t("entities.value")}</th>
                  {canUpdate && (
                    <th scope="col">
                      <span className="visually-hidden">{t("entities.valueActions")}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {instances.map((instance, i) => (
                  <tr key={instance.datasetId ?? i}>
                    <td className="text-break font-monospace small">
                      {instance.datasetId ?? t("entities.defaultInstance")}
                    </td>
                    <td>
                      <FullValue instance={instance} property={property} />
                      {instance.observedAt && (
                        <div className="small text-body-secondary">
                          {t("common.labelled", { label: t("entities.observedAt") })}
                          {instance.observedAt}
                        </div>
                      )}
                      <SubProperties
                        instance={instance}
                        definitions={subPropertiesFor(model.properties, property.id)}
                      />
                    </td>
                    {canUpdate && (
                      <td className="text-end">
                        <Button
                          variant="outline-danger"
                          size="sm"
                          disabled={removeValue.isPending}
                          title={t("entities.deleteValue", { datasetId: valueName(instance.datasetId) })}
                          aria-label={t("entities.deleteValue", { datasetId: valueName(instance.datasetId) })}
                          onClick={() => {
                            setDatasetId(instance.datasetId ?? null);
                            valueDeletion.ask();
                          }}
                        >
                          <TrashIcon />
                        </Button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : (
            single && (
              <>
                <FullValue instance={single} property={property} />
                {single.observedAt && (
                  <p className="small text-body-secondary mt-2 mb-0">
                    {t("common.labelled", { label: t("entities.observedAt") })}
                    {single.observedAt}
                  </p>
                )}
                <h2 className="h6 mt-3">{t("entities.subProperties")}</h2>
                {subPropertiesOf(single).length === 0 ? (
                  <p className="small text-body-secondary mb-0">{t("entities.noSubProperty")}</p>
                ) : (
                  <Table size="sm" className="mb-0" aria-label={t("entities.subProperties")}>
                    <thead>
                      <tr>
                        <th scope="col">{t("entities.name")}</th>
                        <th scope="col">{t("entities.value")}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {subPropertiesOf(single).map(([name, sub]) => (
                        <tr key={name}>
                          <td>{name}</td>
                          <td>
                            <InstanceValue
                              instance={sub}
                              property={model.properties.find(
                                (p) => p.hasProperty === property.id && p.name === name,
                              )}
                            />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                )}
              </>
            )
          )}
        </Card.Body>
      </Card>
      {deletion.dialogs({
        confirm: t("entities.confirmDeleteAttribute", { name: property.name }),
        failed: t("entities.updateFailed"),
      })}
      {valueDeletion.dialogs({
        confirm: t("entities.confirmDeleteValue", { name: property.name, datasetId: valueName(datasetId) }),
        failed: t("entities.updateFailed"),
      })}
    </>
  );
}

export default AttributePage;
