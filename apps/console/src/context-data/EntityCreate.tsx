import { useState } from "react";
import { Alert, Card, Form, Spinner } from "react-bootstrap";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { draftOf, instanceOf, isBlank, validateDraft, type ValueDraft } from "./attributeDraft.ts";
import { subPropertiesFor, topLevelProperties, type Entity, type PropertyRecord } from "./entityModel.ts";
import { entityCalls, useEntityMutation } from "./entityQueries.ts";
import { useEntityPage } from "./entityPage.tsx";
import { entityHref } from "./links.ts";
import { ValueInput } from "./ValueInput.tsx";
import { notify } from "../app/Toasts.tsx";
import { FormButtons } from "../resources/FormButtons.tsx";
import "texts:context-data";

/**
 * Entity creation (entities.create): an optional id and one input per data-model property of the
 * type (mandatory ones required, empty optional ones left out). With ascendingEntityId and
 * ascendingTypeId it creates a child: a type having a Relationship property towards the parent's
 * type, then that property, which the new entity gets pointing to the parent.
 */
export function EntityCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { workspaceId, model, query, trail } = useEntityPage();
  const parentId = query.get("ascendingEntityId");
  const parentTypeId = query.get("ascendingTypeId");
  const child = !!parentId && !!parentTypeId;
  const [id, setId] = useState("");
  const [childTypeId, setChildTypeId] = useState("");
  const [relationId, setRelationId] = useState("");
  const [drafts, setDrafts] = useState<Record<string, ValueDraft>>({});
  const [submitted, setSubmitted] = useState(false);
  const failure = useFailureDialog();
  const create = useEntityMutation(workspaceId, (body: Record<string, unknown>) =>
    entityCalls.create(workspaceId, body),
  );
  if (model.isPending)
    return <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;

  // Child mode: the relationships of any type that point to the parent's type.
  const relations = child
    ? model.properties.filter(
        (p) => !p.hasProperty && p.ngsiLdType === "Relationship" && p.relationshipType === parentTypeId,
      )
    : [];
  const childTypes = model.types.filter((type) => relations.some((p) => p.hasType === type.id));
  const typeId = child ? childTypeId || childTypes[0]?.id || "" : (query.get("typeId") ?? "");
  const type = model.types.find((x) => x.id === typeId);
  const typeRelations = relations.filter((p) => p.hasType === typeId);
  const relation: PropertyRecord | undefined =
    typeRelations.find((p) => p.id === relationId) ?? typeRelations[0];
  const fields = topLevelProperties(model.properties, typeId).filter((p) => p.id !== relation?.id);
  const draftFor = (p: PropertyRecord) =>
    drafts[p.id] ?? draftOf(p, undefined, subPropertiesFor(model.properties, p.id));
  // An optional property left empty is not validated (it is left out); a mandatory one must be
  // filled (a mandatory Boolean is always set: unticked is false).
  const blank = (p: PropertyRecord, draft: ValueDraft) =>
    p.ngsiLdType === "Property" && p.propertyNgsiLdValueType === "Boolean"
      ? !p.mandatory && !draft.checked
      : isBlank(p, draft);
  const errorsOf = (p: PropertyRecord): Record<string, string> => {
    const draft = draftFor(p);
    if (blank(p, draft)) {
      if (!p.mandatory) return {};
      const input =
        p.ngsiLdType === "GeoProperty" ? "coordinates" : p.ngsiLdType === "Relationship" ? "object" : "value";
      return { [input]: "validation.required" };
    }
    return validateDraft(p, draft, subPropertiesFor(model.properties, p.id));
  };
  const invalid = fields.some((p) => Object.keys(errorsOf(p)).length > 0) || (child && !relation) || !type;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (invalid || !type) return;
    const body: Record<string, unknown> = { type: type.name };
    if (id.trim()) body.id = id.trim();
    for (const p of fields) {
      const draft = draftFor(p);
      if (blank(p, draft)) continue;
      const instance = instanceOf(p, draft, subPropertiesFor(model.properties, p.id));
      body[p.name] = p.multiValued ? [instance] : instance;
    }
    if (child && relation && parentId) body[relation.name] = { type: "Relationship", object: parentId };
    create.mutate(body, {
      onSuccess: (created?: Entity) => {
        const createdId = created?.id ?? id.trim();
        notify(t("operations.created", { one: t("entities.one"), name: createdId }));
        navigate(entityHref(workspaceId, type.id, createdId));
      },
      onError: failure.show,
    });
  };
  const back = child ? entityHref(workspaceId, parentTypeId, parentId) : entityHref(workspaceId, typeId);

  return (
    <>
      <Breadcrumbs trail={[...trail, { label: t("entities.create") }]} />
      <Link to={back} className="btn btn-outline-secondary btn-sm mb-3">
        ← {t("common.back")}
      </Link>
      {create.isError && <ErrorAlert error={create.error} />}
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0">
            {child
              ? t("entities.createChildOf", { id: parentId })
              : t("entities.createTitle", { type: type?.name ?? "" })}
          </h1>
        </Card.Header>
        <Card.Body>
          {child && childTypes.length === 0 ? (
            <Alert variant="info" className="mb-0">
              {t("entities.noChildType")}
            </Alert>
          ) : !type ? (
            <Alert variant="info" className="mb-0">
              {t("entities.noTypeSelected")}
            </Alert>
          ) : (
            <Form noValidate onSubmit={submit}>
              {child && (
                <>
                  <Form.Group className="mb-3" controlId="entity-child-type">
                    <Form.Label>{t("entities.childType")} *</Form.Label>
                    <Form.Select
                      value={typeId}
                      onChange={(e) => {
                        setChildTypeId(e.target.value);
                        setRelationId("");
                        setDrafts({});
                      }}
                    >
                      {childTypes.map((x) => (
                        <option key={x.id} value={x.id}>
                          {x.name}
                        </option>
                      ))}
                    </Form.Select>
                  </Form.Group>
                  <Form.Group className="mb-3" controlId="entity-child-relation">
                    <Form.Label>{t("entities.childRelation")} *</Form.Label>
                    <Form.Select value={relation?.id ?? ""} onChange={(e) => setRelationId(e.target.value)}>
                      {typeRelations.map((p) => (
                        <option key={p.id} value={p.id}>
                          {p.name}
                        </option>
                      ))}
                    </Form.Select>
                  </Form.Group>
                </>
              )}
              <Form.Group className="mb-3" controlId="entity-id">
                <Form.Label>{t("entities.id")}</Form.Label>
                <Form.Control
                  value={id}
                  onChange={(e) => setId(e.target.value)}
                  placeholder={`urn:ngsi-ld:${type.name}:…`}
                />
                <Form.Text>{t("entities.idHint")}</Form.Text>
              </Form.Group>
              {fields.map((p) => (
                <ValueInput
                  key={p.id}
                  idPrefix={`entity-${p.name}`}
                  workspaceId={workspaceId}
                  property={p}
                  subProperties={subPropertiesFor(model.properties, p.id)}
                  types={model.types}
                  draft={draftFor(p)}
                  errors={errorsOf(p)}
                  showErrors={submitted}
                  required={!!p.mandatory}
                  label={p.name}
                  onChange={(value) => setDrafts({ ...drafts, [p.id]: value })}
                />
              ))}
              <FormButtons label={t("common.create")} cancel={back} />
            </Form>
          )}
        </Card.Body>
      </Card>
      {failure.dialog(t("entities.creationFailed"))}
    </>
  );
}

export default EntityCreate;
