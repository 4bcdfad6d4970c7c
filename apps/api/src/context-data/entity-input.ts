import { randomUUID } from "node:crypto";
import type { Entity } from "@orrery/ngsi-ld";
import { fieldError, invalid, type FieldError } from "../problems.ts";
import type { Item } from "../resources/records.ts";

/** NGSI-LD entity type names as the original API accepted them: letters, digits, - and _, 1 to 50. */
const typeName = /^[A-Za-z0-9_-]{1,50}$/;
const uri = /^[a-z][a-z0-9+.-]*:\S+$/i;
const reserved = new Set(["id", "type", "@context", "scope", "createdAt", "modifiedAt", "deletedAt"]);
const attributeTypes = new Set([
  "Property",
  "GeoProperty",
  "Relationship",
  "LanguageProperty",
  "VocabProperty",
  "JsonProperty",
  "ListProperty",
  "ListRelationship",
]);

export const generatedId = (type: string) => `urn:ngsi-ld:${type}:${randomUUID()}`;
const generatedDatasetId = () => `urn:ngsi-ld:Property:${randomUUID()}`;

type Attribute = Record<string, unknown>;

/** What the data model says about an entity's top-level attributes, by name. */
export function modelOf(typeId: string | undefined, propertyList: Item[]): Map<string, Item> {
  return new Map(
    propertyList
      .filter((p) => p.hasType === typeId && !p.hasProperty)
      .map((p) => [String(p.name), p] as const),
  );
}

function checkInstance(name: string, value: unknown, errors: FieldError[]): value is Attribute {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    errors.push(fieldError(name, "entity.attributeObject"));
    return false;
  }
  const a = value as Attribute;
  if (!attributeTypes.has(String(a.type))) {
    errors.push(fieldError(`${name}.type`, "field.oneOf", { values: [...attributeTypes] }));
    return false;
  }
  if ((a.type === "Property" || a.type === "GeoProperty") && a.value === undefined)
    errors.push(fieldError(`${name}.value`, "field.required"));
  if (a.type === "Relationship" && (typeof a.object !== "string" || !uri.test(a.object)))
    errors.push(fieldError(`${name}.object`, "entity.targetUrn"));
  if (a.type === "GeoProperty") {
    const g = a.value as { type?: unknown; coordinates?: unknown } | undefined;
    if (g && (typeof g.type !== "string" || !Array.isArray(g.coordinates)))
      errors.push(fieldError(`${name}.value`, "entity.geometry"));
  }
  if (a.observedAt !== undefined && Number.isNaN(Date.parse(String(a.observedAt))))
    errors.push(fieldError(`${name}.observedAt`, "entity.dateTime"));
  return true;
}

/**
 * The attributes of a request body, checked and completed from the data model: a multi-valued
 * attribute becomes an array whose instances all carry a datasetId (generated when empty), and a
 * temporal attribute gets observedAt = now when it has none. Throws a 400 naming every bad attribute.
 */
export function completeAttributes(
  body: Record<string, unknown>,
  model: Map<string, Item>,
  now = new Date().toISOString(),
): Record<string, unknown> {
  const errors: FieldError[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(body)) {
    if (reserved.has(name)) continue;
    const property = model.get(name);
    const multi = property?.multiValued === true || Array.isArray(raw);
    const instances = Array.isArray(raw) ? raw : [raw];
    if (instances.length === 0) {
      errors.push(fieldError(name, "entity.noValue"));
      continue;
    }
    const completed = instances.map((instance, i) => {
      const path = Array.isArray(raw) ? `${name}[${i}]` : name;
      if (!checkInstance(path, instance, errors)) return instance;
      const a: Attribute = { ...instance };
      if (multi && (a.datasetId === undefined || a.datasetId === "")) a.datasetId = generatedDatasetId();
      if (property?.temporal === true && !a.observedAt) a.observedAt = now;
      return a;
    });
    out[name] = multi ? completed : completed[0];
  }
  if (errors.length) throw invalid(errors);
  return out;
}

/** A new entity from a create request: type checked, id generated when empty. */
export async function newEntity(
  body: unknown,
  model: (type: string) => Promise<Map<string, Item>>,
): Promise<Entity> {
  const errors: FieldError[] = [];
  const b = (body && typeof body === "object" && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  if (typeof b.type !== "string" || !typeName.test(b.type))
    errors.push(fieldError("type", "entity.typeName"));
  if (b.id !== undefined && b.id !== "" && (typeof b.id !== "string" || !uri.test(b.id)))
    errors.push(fieldError("id", "entity.idUri"));
  if (errors.length) throw invalid(errors);
  const type = String(b.type);
  return {
    id: typeof b.id === "string" && b.id ? b.id : generatedId(type),
    type,
    ...completeAttributes(b, await model(type)),
  };
}

/** The attributes of an update body, which must not try to change id or type. */
export function updateAttributes(body: unknown, model: Map<string, Item>): Record<string, unknown> {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw invalid([fieldError("", "entity.attributesObject")]);
  const b = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of ["id", "type"])
    if (b[key] !== undefined) errors.push(fieldError(key, "entity.unchangeable"));
  if (errors.length) throw invalid(errors);
  return completeAttributes(b, model);
}
