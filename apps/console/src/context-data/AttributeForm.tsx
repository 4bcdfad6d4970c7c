import { useState } from "react";
import { Alert, Card, Form, Spinner } from "react-bootstrap";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { routeTo } from "../routes.ts";
import { draftOf, instanceOf, validateDraft, type ValueDraft } from "./attributeDraft.ts";
import {
  instancesOf,
  subPropertiesFor,
  topLevelProperties,
  type Attribute,
  type Entity,
  type Instance,
  type PropertyRecord,
} from "./entityModel.ts";
import { entityCalls, useEntityMutation } from "./entityQueries.ts";
import { useEntityPage } from "./entityPage.tsx";
import { entityHref, withQuery } from "./links.ts";
import { ValueInput } from "./ValueInput.tsx";
import { FormButtons } from "../resources/FormButtons.tsx";
import "texts:context-data";

/** A value being written: which attribute, and how it goes to the API. */
interface Plan {
  /** The attribute (top-level) whose page follows the save. */
  attribute: PropertyRecord;
  save: (instance: Instance) => Promise<Entity | undefined>;
}

const NEW = "\u0000new";

/**
 * The attribute form: add an attribute (entities.properties.create), add a sub-property to one
 * (query parentPropertyId), or edit one (entities.properties.edit; for a multi-valued attribute,
 * the value of the chosen datasetId, or a new one).
 */
export function AttributeForm({ mode }: { mode: "create" | "edit" }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const page = useEntityPage();
  const { workspaceId, entityId, typeId, model, entity, trail, query } = page;
  const parent = model.properties.find((p) => p.id === query.get("parentPropertyId"));
  const [chosen, setChosen] = useState<string>("");
  const [instanceKey, setInstanceKey] = useState<string>("");
  const [draft, setDraft] = useState<{ key: string; value: ValueDraft } | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const failure = useFailureDialog();
  const save = useEntityMutation(workspaceId, ({ plan, instance }: { plan: Plan; instance: Instance }) =>
    plan.save(instance),
  );

  if (entity.isError) return <ErrorAlert error={entity.error} />;
  if (entity.isPending || model.isPending)
    return <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
  const data = entity.data;

  // Which property the value is for, what it is written into, and the instance it starts from.
  let choices: PropertyRecord[] = [];
  let property: PropertyRecord | undefined;
  let previous: Instance | undefined;
  let instances: Instance[] = [];
  let plan: Plan | undefined;
  if (mode === "edit") {
    property = page.property;
    if (property) {
      const attribute = property;
      instances = instancesOf(data[property.name]);
      const multiple = Array.isArray(data[property.name]) || !!property.multiValued;
      const key = instanceKey || (instances[0]?.datasetId ?? (instances.length ? "" : NEW));
      const index = key === NEW ? -1 : instances.findIndex((i) => (i.datasetId ?? "") === key);
      previous = index >= 0 ? instances[index] : undefined;
      plan = {
        attribute,
        save: (instance) => {
          if (!multiple) return entityCalls.replaceAttribute(workspaceId, entityId, attribute.name, instance);
          if (index < 0) return entityCalls.addAttribute(workspaceId, entityId, attribute.name, [instance]);
          const next = instances.map((x, i) => (i === index ? instance : x));
          return entityCalls.replaceAttribute(workspaceId, entityId, attribute.name, next);
        },
      };
    }
  } else if (parent) {
    // A sub-property, written into one instance of the parent attribute (the chosen datasetId).
    const parentAttribute = data[parent.name] as Attribute | undefined;
    instances = instancesOf(parentAttribute);
    const key = instanceKey || (instances[0]?.datasetId ?? "");
    const index = Math.max(
      0,
      instances.findIndex((i) => (i.datasetId ?? "") === key),
    );
    const target = instances[index];
    choices = subPropertiesFor(model.properties, parent.id).filter((p) => target?.[p.name] === undefined);
    property = choices.find((p) => p.id === chosen) ?? choices[0];
    const sub = property;
    if (sub && target)
      plan = {
        attribute: parent,
        save: (instance) => {
          const updated = { ...target, [sub.name]: instance };
          const body = Array.isArray(parentAttribute)
            ? instances.map((x, i) => (i === index ? updated : x))
            : updated;
          return entityCalls.replaceAttribute(workspaceId, entityId, parent.name, body);
        },
      };
  } else {
    // "Add attribute" offers the properties not yet on the entity, and multi-valued ones again.
    choices = topLevelProperties(model.properties, typeId).filter(
      (p) => data[p.name] === undefined || p.multiValued,
    );
    property = choices.find((p) => p.id === chosen) ?? choices[0];
    const attribute = property;
    if (attribute)
      plan = {
        attribute,
        save: (instance) =>
          entityCalls.addAttribute(
            workspaceId,
            entityId,
            attribute.name,
            attribute.multiValued ? [instance] : instance,
          ),
      };
  }
  const subProperties = property && !parent ? subPropertiesFor(model.properties, property.id) : [];
  const key = `${property?.id}/${instanceKey}`;
  const current =
    draft?.key === key ? draft.value : property ? draftOf(property, previous, subProperties) : undefined;
  const errors = property && current ? validateDraft(property, current, subProperties) : {};

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!property || !current || !plan || Object.keys(errors).length > 0) return;
    const instance = instanceOf(property, current, subProperties, previous);
    const attribute = plan.attribute;
    save.mutate(
      { plan, instance },
      {
        onSuccess: () =>
          navigate(
            withQuery(
              routeTo("entities.properties.show", { workspaceId, entityId, propertyId: attribute.id }),
              { typeId },
            ),
          ),
        onError: failure.show,
      },
    );
  };
  const back =
    mode === "edit" && page.property
      ? withQuery(
          routeTo("entities.properties.show", { workspaceId, entityId, propertyId: page.property.id }),
          { typeId },
        )
      : entityHref(workspaceId, typeId, entityId);
  const title =
    mode === "edit"
      ? t("common.editTitle", { name: property?.name ?? "" })
      : parent
        ? t("entities.addSubPropertyTo", { name: parent.name })
        : t("entities.addAttribute");

  return (
    <>
      <Breadcrumbs trail={[...trail, { label: title }]} />
      <Link to={back} className="btn btn-outline-secondary btn-sm mb-3">
        ← {t("common.back")}
      </Link>
      {save.isError && <ErrorAlert error={save.error} />}
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0">{title}</h1>
        </Card.Header>
        <Card.Body>
          {mode === "create" && choices.length === 0 ? (
            <Alert variant="info" className="mb-0">
              {t("entities.nothingToAdd")}
            </Alert>
          ) : !property || !current ? (
            <Alert variant="warning" className="mb-0">
              {t("entities.noSuchProperty")}
            </Alert>
          ) : (
            <Form noValidate onSubmit={submit}>
              {mode === "create" && (
                <Form.Group className="mb-3" controlId="attribute-property">
                  <Form.Label>{t("entities.attribute")} *</Form.Label>
                  <Form.Select value={property.id} onChange={(e) => setChosen(e.target.value)}>
                    {choices.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </Form.Select>
                </Form.Group>
              )}
              {((mode === "edit" && (property.multiValued || instances.length > 1)) ||
                (parent && instances.length > 1)) && (
                <Form.Group className="mb-3" controlId="attribute-instance">
                  <Form.Label>{t("entities.instance")}</Form.Label>
                  <Form.Select
                    value={instanceKey || (instances[0]?.datasetId ?? (instances.length ? "" : NEW))}
                    onChange={(e) => setInstanceKey(e.target.value)}
                  >
                    {instances.map((i, n) => (
                      <option key={i.datasetId ?? n} value={i.datasetId ?? ""}>
                        {i.datasetId ?? t("entities.defaultInstance")}
                      </option>
                    ))}
                    {mode === "edit" && <option value={NEW}>{t("entities.newInstance")}</option>}
                  </Form.Select>
                </Form.Group>
              )}
              <ValueInput
                idPrefix="attribute"
                workspaceId={workspaceId}
                property={property}
                subProperties={subProperties}
                types={model.types}
                draft={current}
                errors={errors}
                showErrors={submitted}
                required={
                  !(property.ngsiLdType === "Property" && property.propertyNgsiLdValueType === "String")
                }
                label={t("entities.valueOf", { name: property.name })}
                onChange={(value) => setDraft({ key, value })}
              />
              <FormButtons label={mode === "edit" ? t("common.save") : t("common.create")} cancel={back} />
            </Form>
          )}
        </Card.Body>
      </Card>
      {failure.dialog(t("entities.updateFailed"))}
    </>
  );
}

export function AttributeCreate() {
  return <AttributeForm mode="create" />;
}

export function AttributeEdit() {
  return <AttributeForm mode="edit" />;
}
