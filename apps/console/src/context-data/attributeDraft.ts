import {
  instancesOf,
  parseDecimal,
  subPropertiesOf,
  type Instance,
  type PropertyRecord,
} from "./entityModel.ts";
import "texts:context-data";

/** What the attribute inputs hold while a person types: text everywhere, parsed on save. */
export interface ValueDraft {
  value: string;
  checked: boolean;
  geoType: string;
  coordinates: string;
  object: string;
  observedAt: string;
  datasetId: string;
  /** Sub-property values by name (text inputs). */
  subs: Record<string, string>;
}

const nowIso = () => new Date().toISOString();

/** A draft for a new value, or one filled from an existing instance. */
export function draftOf(
  property: PropertyRecord,
  instance?: Instance,
  subProperties: PropertyRecord[] = [],
): ValueDraft {
  // A broker gives an array of one element back as the element (JSON-LD compaction): an Array property edits it as an array.
  const value =
    property.propertyNgsiLdValueType === "Array" &&
    instance?.value !== undefined &&
    !Array.isArray(instance.value)
      ? [instance.value]
      : instance?.value;
  const geometry = value as { type?: string; coordinates?: unknown } | undefined;
  const subs = Object.fromEntries(
    subProperties.map((sub) => {
      const existing = instance ? instancesOf(instance[sub.name])[0] : undefined;
      const v = existing?.object ?? existing?.value;
      return [sub.name, v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v)];
    }),
  );
  return {
    value:
      value === undefined || property.ngsiLdType !== "Property"
        ? ""
        : typeof value === "string"
          ? value
          : property.propertyNgsiLdValueType === "Number"
            ? String(value)
            : JSON.stringify(value, null, 2),
    checked: value === true,
    geoType:
      property.ngsiLdType === "GeoProperty"
        ? (geometry?.type ?? property.geoPropertyNgsiLdType ?? "Point")
        : "",
    coordinates:
      property.ngsiLdType === "GeoProperty" && geometry?.coordinates
        ? JSON.stringify(geometry.coordinates)
        : "",
    object: typeof instance?.object === "string" ? instance.object : "",
    // A temporal value says when it was observed: now unless it is being edited (spec section 5).
    observedAt: property.temporal ? nowIso() : "",
    datasetId: instance?.datasetId ?? "",
    subs,
  };
}

/** Whether a person left the value of an optional property empty (the entity is created without it). */
export function isBlank(property: PropertyRecord, draft: ValueDraft): boolean {
  if (property.ngsiLdType === "GeoProperty") return !draft.coordinates.trim();
  if (property.ngsiLdType === "Relationship") return !draft.object.trim();
  if (property.propertyNgsiLdValueType === "Boolean") return !draft.checked;
  return !draft.value.trim();
}

/** Error message keys (i18n) by input: value, coordinates, object, observedAt, sub.<name>. */
export function validateDraft(
  property: PropertyRecord,
  draft: ValueDraft,
  subProperties: PropertyRecord[] = [],
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (property.ngsiLdType === "Property") {
    const type = property.propertyNgsiLdValueType ?? "String";
    if (type === "Number") {
      if (!draft.value.trim()) errors.value = "validation.required";
      else if (Number.isNaN(parseDecimal(draft.value))) errors.value = "validation.number";
    } else if (type === "Object" || type === "Array") {
      try {
        const parsed: unknown = JSON.parse(draft.value);
        if (
          type === "Array"
            ? !Array.isArray(parsed)
            : parsed === null || typeof parsed !== "object" || Array.isArray(parsed)
        )
          errors.value = type === "Array" ? "entities.notArray" : "entities.notObject";
      } catch {
        errors.value = "entities.invalidJson";
      }
    }
  } else if (property.ngsiLdType === "GeoProperty") {
    if (!draft.geoType) errors.geoType = "validation.required";
    try {
      const parsed: unknown = JSON.parse(draft.coordinates);
      if (!Array.isArray(parsed)) errors.coordinates = "entities.notArray";
    } catch {
      errors.coordinates = draft.coordinates.trim() ? "entities.invalidJson" : "validation.required";
    }
  } else if (!draft.object.trim()) errors.object = "validation.required";
  if (property.temporal) {
    if (!draft.observedAt.trim()) errors.observedAt = "validation.required";
    else if (Number.isNaN(Date.parse(draft.observedAt))) errors.observedAt = "entities.invalidDate";
  }
  for (const sub of subProperties)
    if (!draft.subs[sub.name]?.trim()) errors[`sub.${sub.name}`] = "validation.required";
  return errors;
}

/** The JSON parse error's own words, to show under an Object/Array or coordinates input. */
export function jsonError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The NGSI-LD instance of a valid draft. Sub-properties the data model does not list are kept
 * from `previous` (the instance being edited), as are the ones not shown.
 */
export function instanceOf(
  property: PropertyRecord,
  draft: ValueDraft,
  subProperties: PropertyRecord[] = [],
  previous?: Instance,
): Instance {
  const kept = previous ? Object.fromEntries(subPropertiesOf(previous)) : {};
  let instance: Instance;
  if (property.ngsiLdType === "GeoProperty")
    instance = {
      type: "GeoProperty",
      value: { type: draft.geoType, coordinates: JSON.parse(draft.coordinates) as unknown },
    };
  else if (property.ngsiLdType === "Relationship")
    instance = { type: "Relationship", object: draft.object.trim() };
  else {
    const type = property.propertyNgsiLdValueType ?? "String";
    const value =
      type === "Number"
        ? parseDecimal(draft.value)
        : type === "Boolean"
          ? draft.checked
          : type === "Object" || type === "Array"
            ? (JSON.parse(draft.value) as unknown)
            : draft.value;
    instance = { type: "Property", value };
  }
  if (property.temporal && draft.observedAt.trim())
    instance.observedAt = new Date(draft.observedAt).toISOString();
  if (property.multiValued && draft.datasetId.trim()) instance.datasetId = draft.datasetId.trim();
  Object.assign(instance, kept);
  for (const sub of subProperties) {
    const text = draft.subs[sub.name]?.trim();
    if (!text) continue;
    instance[sub.name] =
      sub.ngsiLdType === "Relationship"
        ? { type: "Relationship", object: text }
        : { type: "Property", value: text };
  }
  return instance;
}
