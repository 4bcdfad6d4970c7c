import { useEffect, useState } from "react";
import { Form, InputGroup } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { geoTypes } from "@orrery/model";
import { jsonError, type ValueDraft } from "./attributeDraft.ts";
import { nameOf, type PropertyRecord, type TypeRecord } from "./entityModel.ts";
import { useEntities } from "./entityQueries.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import "texts:context-data";

/** How many entities the relationship select offers before a search narrows them. */
const CHOICES = 100;

/** A select among the entities of the target type, "id (name)", first 100, narrowed by a search. */
export function RelationshipSelect(props: {
  id: string;
  workspaceId: string;
  targetType: TypeRecord | undefined;
  value: string;
  invalid: boolean;
  required?: boolean;
  /** An NGSI-LD query the offered entities must also match (those referring to a contract's scope). */
  q?: string;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useEntities(
    props.workspaceId,
    {
      type: props.targetType?.name ?? "",
      limit: String(CHOICES),
      order: "name",
      ...(search ? { search } : {}),
      ...(props.q ? { q: props.q } : {}),
    },
    !!props.targetType,
  );
  const entities = list.data?.entities ?? [];
  const listed = entities.some((e) => e.id === props.value);
  return (
    <>
      <InputGroup size="sm" className="mb-1">
        <Form.Control
          type="search"
          placeholder={t("entities.searchTargets", { type: props.targetType?.name ?? "" })}
          aria-label={t("entities.searchTargets", { type: props.targetType?.name ?? "" })}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </InputGroup>
      <Form.Select
        id={props.id}
        value={props.value}
        isInvalid={props.invalid}
        required={props.required}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">{t("common.choose")}</option>
        {props.value && !listed && <option value={props.value}>{props.value}</option>}
        {entities.map((entity) => {
          const name = nameOf(entity);
          return (
            <option key={entity.id} value={entity.id}>
              {name ? `${entity.id} (${name})` : entity.id}
            </option>
          );
        })}
      </Form.Select>
      {list.data && entities.length === CHOICES && (
        <Form.Text>{t("entities.moreTargets", { count: CHOICES })}</Form.Text>
      )}
      <ErrorAlert error={list.error} />
    </>
  );
}

/**
 * The inputs of one attribute value, by kind: number (comma accepted), checkbox, textarea (String,
 * JSON for Object/Array), geometry type and coordinates, entity select; observedAt for a temporal
 * property, datasetId for a multi-valued one, one text input per sub-property.
 */
export function ValueInput(props: {
  idPrefix: string;
  workspaceId: string;
  property: PropertyRecord;
  subProperties?: PropertyRecord[];
  types: TypeRecord[];
  draft: ValueDraft;
  errors: Record<string, string>;
  /** Show the errors (after a first submit). */
  showErrors: boolean;
  required: boolean;
  /** The label of the value input (the property's name in the entity form). */
  label: string;
  onChange: (draft: ValueDraft) => void;
}) {
  const { t } = useTranslation();
  const { property, draft, idPrefix } = props;
  const set = (patch: Partial<ValueDraft>) => props.onChange({ ...draft, ...patch });
  const invalid = (key: string) => props.showErrors && !!props.errors[key];
  const feedback = (key: string, text?: string) =>
    invalid(key) && (
      <Form.Control.Feedback type="invalid" className="d-block">
        {t(props.errors[key]!)}
        {text && props.errors[key] === "entities.invalidJson" ? ` ${text}` : ""}
      </Form.Control.Feedback>
    );
  const star = props.required ? " *" : "";
  const valueType = property.propertyNgsiLdValueType ?? "String";
  let main;
  if (property.ngsiLdType === "GeoProperty")
    main = (
      <>
        <Form.Group className="mb-2" controlId={`${idPrefix}-geoType`}>
          <Form.Label>
            {t("entities.geometryTypeOf", { name: property.name })}
            {star}
          </Form.Label>
          <Form.Select
            value={draft.geoType}
            isInvalid={invalid("geoType")}
            onChange={(e) => set({ geoType: e.target.value })}
          >
            <option value="">{t("common.choose")}</option>
            {geoTypes.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </Form.Select>
          {feedback("geoType")}
        </Form.Group>
        <Form.Group className="mb-2" controlId={`${idPrefix}-coordinates`}>
          <Form.Label>
            {t("entities.coordinatesOf", { name: property.name })}
            {star}
          </Form.Label>
          <Form.Control
            as="textarea"
            rows={2}
            className="font-monospace"
            placeholder="[2.352222, 48.856613]"
            value={draft.coordinates}
            isInvalid={invalid("coordinates")}
            onChange={(e) => set({ coordinates: e.target.value })}
          />
          <Form.Text>{t("entities.coordinatesHint")}</Form.Text>
          {feedback("coordinates", jsonError(draft.coordinates))}
        </Form.Group>
      </>
    );
  else if (property.ngsiLdType === "Relationship")
    main = (
      <Form.Group className="mb-2">
        <Form.Label htmlFor={`${idPrefix}-object`}>
          {props.label}
          {star}
        </Form.Label>
        <RelationshipSelect
          id={`${idPrefix}-object`}
          workspaceId={props.workspaceId}
          targetType={props.types.find((x) => x.id === property.relationshipType)}
          value={draft.object}
          invalid={invalid("object")}
          required={props.required}
          onChange={(object) => set({ object })}
        />
        {feedback("object")}
      </Form.Group>
    );
  else if (valueType === "Boolean")
    main = (
      <Form.Check
        className="mb-2"
        id={`${idPrefix}-value`}
        label={props.label}
        checked={draft.checked}
        onChange={(e) => set({ checked: e.target.checked })}
      />
    );
  else
    main = (
      <Form.Group className="mb-2" controlId={`${idPrefix}-value`}>
        <Form.Label>
          {props.label}
          {star}
        </Form.Label>
        {valueType === "Number" ? (
          <Form.Control
            type="text"
            inputMode="decimal"
            value={draft.value}
            isInvalid={invalid("value")}
            required={props.required}
            onChange={(e) => set({ value: e.target.value })}
          />
        ) : (
          <Form.Control
            as="textarea"
            rows={valueType === "String" ? 2 : 4}
            className={valueType === "String" ? undefined : "font-monospace"}
            placeholder={
              valueType === "Object" ? '{"key": "value"}' : valueType === "Array" ? "[1, 2, 3]" : undefined
            }
            value={draft.value}
            isInvalid={invalid("value")}
            required={props.required}
            onChange={(e) => set({ value: e.target.value })}
          />
        )}
        {valueType === "Number" && <Form.Text>{t("entities.numberHint")}</Form.Text>}
        {(valueType === "Object" || valueType === "Array") && <Form.Text>{t("entities.jsonHint")}</Form.Text>}
        {feedback("value", jsonError(draft.value))}
      </Form.Group>
    );
  return (
    <div className="mb-3">
      {main}
      {property.temporal && (
        <Form.Group className="mb-2" controlId={`${idPrefix}-observedAt`}>
          <Form.Label>{t("entities.observedAt")} *</Form.Label>
          <Form.Control
            value={draft.observedAt}
            isInvalid={invalid("observedAt")}
            onChange={(e) => set({ observedAt: e.target.value })}
          />
          <Form.Text>{t("entities.observedAtHint")}</Form.Text>
          {feedback("observedAt")}
        </Form.Group>
      )}
      {property.multiValued && (
        <Form.Group className="mb-2" controlId={`${idPrefix}-datasetId`}>
          <Form.Label>{t("entities.datasetId")}</Form.Label>
          <Form.Control value={draft.datasetId} onChange={(e) => set({ datasetId: e.target.value })} />
          <Form.Text>{t("entities.datasetIdHint")}</Form.Text>
        </Form.Group>
      )}
      {(props.subProperties ?? []).map((sub) => (
        <Form.Group key={sub.id} className="mb-2 ms-3" controlId={`${idPrefix}-sub-${sub.name}`}>
          <Form.Label>{t("entities.subPropertyLabel", { name: sub.name })} *</Form.Label>
          <Form.Control
            size="sm"
            value={draft.subs[sub.name] ?? ""}
            isInvalid={invalid(`sub.${sub.name}`)}
            onChange={(e) => set({ subs: { ...draft.subs, [sub.name]: e.target.value } })}
          />
          {feedback(`sub.${sub.name}`)}
        </Form.Group>
      ))}
    </div>
  );
}
