import { Link, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { contentOf, isAttributeKind } from "@orrery/model";
import {
  compactJson,
  geometrySummary,
  instancesOf,
  objectsOf,
  subPropertiesOf,
  type Attribute,
  type Instance,
  type PropertyRecord,
} from "./entityModel.ts";
import { CheckIcon, CrossIcon } from "./icons.tsx";
import { entityHref } from "./links.ts";

/** Object and Array values: compact JSON, expanded to pretty JSON on demand. */
export function JsonValue({ value }: { value: unknown }) {
  const compact = compactJson(value);
  const pretty = JSON.stringify(value, null, 4) ?? "";
  if (compact === pretty) return <code className="text-break">{compact}</code>;
  return (
    <details>
      <summary>
        <code className="text-break">{compact}</code>
      </summary>
      <pre className="small mb-0 mt-1 p-2 bg-body-tertiary rounded">{pretty}</pre>
    </details>
  );
}

/**
 * The value of an attribute instance, by its own type (data written by other clients may use any
 * NGSI-LD 1.8 kind), else as the data model's `property` says.
 */
export function InstanceValue({ instance, property }: { instance: Instance; property?: PropertyRecord }) {
  const { t } = useTranslation();
  const { workspaceId = "" } = useParams();
  const kind = isAttributeKind(instance.type) ? instance.type : (property?.ngsiLdType ?? instance.type);
  const content = contentOf(instance);
  if (kind === "LanguageProperty" && content && typeof content === "object")
    return (
      <ul className="list-unstyled mb-0">
        {Object.entries(content as Record<string, unknown>).map(([lang, text]) => (
          <li key={lang}>
            <span className="badge text-bg-light border me-1">{lang}</span>
            <span lang={lang} className="text-break">
              {String(text)}
            </span>
          </li>
        ))}
      </ul>
    );
  if (kind === "VocabProperty")
    return <code className="text-break">{[content].flat().map(String).join(", ")}</code>;
  if (kind === "JsonProperty" || kind === "ListProperty") return <JsonValue value={content} />;
  if (kind === "Relationship" || kind === "ListRelationship")
    return (
      <>
        {objectsOf(instance).map((object, i) => (
          <span key={object}>
            {i > 0 && ", "}
            {property?.relationshipType ? (
              <Link to={entityHref(workspaceId, property.relationshipType, object)} className="text-break">
                {object}
              </Link>
            ) : (
              <span className="text-break">{object}</span>
            )}
          </span>
        ))}
      </>
    );
  if (kind === "GeoProperty") return <span className="text-break">{geometrySummary(instance.value)}</span>;
  const value = instance.value;
  const valueType =
    property?.propertyNgsiLdValueType ??
    (typeof value === "boolean"
      ? "Boolean"
      : typeof value === "number"
        ? "Number"
        : Array.isArray(value)
          ? "Array"
          : value !== null && typeof value === "object"
            ? "Object"
            : "String");
  if (valueType === "Boolean" && typeof value === "boolean")
    return (
      <span
        className={value ? "text-success" : "text-danger"}
        role="img"
        aria-label={t(value ? "common.true" : "common.false")}
      >
        {value ? <CheckIcon /> : <CrossIcon />}
      </span>
    );
  if (value !== null && typeof value === "object") return <JsonValue value={value} />;
  return (
    <span className="text-break" style={{ whiteSpace: "pre-wrap" }}>
      {String(value ?? "")}
    </span>
  );
}

/** The sub-properties of one instance, as "name: value" lines. */
export function SubProperties({
  instance,
  definitions = [],
}: {
  instance: Instance;
  definitions?: PropertyRecord[];
}) {
  const subs = subPropertiesOf(instance);
  if (subs.length === 0) return null;
  return (
    <ul className="list-unstyled small mb-0 mt-1 ps-2 border-start">
      {subs.map(([name, sub]) => (
        <li key={name}>
          <span className="text-body-secondary">{name}: </span>
          <InstanceValue instance={sub} property={definitions.find((d) => d.name === name)} />
        </li>
      ))}
    </ul>
  );
}

/** An attribute in the property table: each instance (datasetId when multi-valued), observedAt, sub-properties. */
export function AttributeValue({
  attribute,
  property,
  subProperties,
}: {
  attribute: Attribute;
  property?: PropertyRecord;
  /** The data model's sub-properties of the property (a Relationship sub-property links to its target). */
  subProperties?: PropertyRecord[];
}) {
  const { t } = useTranslation();
  const instances = instancesOf(attribute);
  const multiple = Array.isArray(attribute) || property?.multiValued;
  return (
    <>
      {instances.map((instance, i) => (
        <div key={instance.datasetId ?? i} className={i > 0 ? "mt-2 pt-2 border-top" : undefined}>
          {multiple && (
            <div className="small text-body-secondary text-break">
              {t("common.labelled", { label: t("entities.datasetId") })}
              {instance.datasetId ?? t("entities.defaultInstance")}
            </div>
          )}
          <InstanceValue instance={instance} property={property} />
          {instance.observedAt && (
            <div className="small text-body-secondary">
              {t("common.labelled", { label: t("entities.observedAt") })}
              <time dateTime={instance.observedAt}>{instance.observedAt}</time>
            </div>
          )}
          <SubProperties instance={instance} definitions={subProperties} />
        </div>
      ))}
    </>
  );
}
