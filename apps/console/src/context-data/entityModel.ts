import { targetsOf } from "@orrery/model";
/**
 * NGSI-LD entities as the console reads them (normalized form, short attribute names), and the
 * data-model records (types, properties) that say how to show and edit them.
 */

/** One value of an attribute: a Property (value), GeoProperty (value with type and coordinates) or Relationship (object). */
export interface Instance {
  type: string;
  value?: unknown;
  object?: string | string[];
  datasetId?: string;
  observedAt?: string;
  [subProperty: string]: unknown;
}

export type Attribute = Instance | Instance[];

export interface Entity {
  id: string;
  type: string;
  [attribute: string]: unknown;
}

export interface Geometry {
  type: string;
  coordinates: unknown;
}

/** A property of the data model (packages/model kinds/properties.ts), as the API lists it. */
export interface PropertyRecord {
  id: string;
  name: string;
  hasType: string;
  hasProperty?: string | null;
  ngsiLdType: "Property" | "GeoProperty" | "Relationship";
  propertyNgsiLdValueType?: "String" | "Number" | "Boolean" | "Object" | "Array";
  relationshipType?: string;
  geoPropertyNgsiLdType?: string;
  temporal?: boolean;
  temporalServices?: string[];
  multiValued?: boolean;
  mandatory?: boolean;
}

export interface TypeRecord {
  id: string;
  name: string;
}

/** Members of an attribute instance that are not sub-properties. */
const metadata = new Set([
  "type",
  "value",
  "object",
  "datasetId",
  "observedAt",
  "createdAt",
  "modifiedAt",
  "deletedAt",
  "unitCode",
  "instanceId",
  "lang",
  "languageMap",
  "vocab",
  "objectType",
  "objectList",
  "valueList",
  "@context",
]);

/** Members of an entity that are not attributes. */
const entityMembers = new Set(["id", "type", "@context", "scope", "createdAt", "modifiedAt", "deletedAt"]);

export const instancesOf = (attribute: unknown): Instance[] =>
  Array.isArray(attribute)
    ? (attribute as Instance[])
    : attribute && typeof attribute === "object"
      ? [attribute as Instance]
      : [];

/** The attributes of an entity, by name. */
export const attributesOf = (entity: Entity): Array<[string, Attribute]> =>
  Object.entries(entity).filter(([name]) => !entityMembers.has(name)) as Array<[string, Attribute]>;

/** The sub-properties (properties of properties) of one instance, by name. */
export const subPropertiesOf = (instance: Instance): Array<[string, Instance]> =>
  Object.entries(instance).filter(
    ([name, v]) => !metadata.has(name) && v !== null && typeof v === "object" && "type" in (v as object),
  ) as Array<[string, Instance]>;

/** The `name` Property when there is one (as a string), else undefined. */
export function nameOf(entity: Entity | undefined): string | undefined {
  const first = instancesOf(entity?.name)[0];
  return first && first.value !== undefined && first.value !== null ? String(first.value) : undefined;
}

export const displayName = (entity: Entity) => nameOf(entity) ?? entity.id;

/** The relationship targets of an instance: its object (one id or a list), or a ListRelationship's objectList. */
export const objectsOf = (instance: Instance): string[] => targetsOf(instance);

/** The top-level properties of a type, in the API's order. */
export const topLevelProperties = (properties: PropertyRecord[], typeId: string) =>
  properties.filter((p) => p.hasType === typeId && !p.hasProperty);

export const subPropertiesFor = (properties: PropertyRecord[], propertyId: string) =>
  properties.filter((p) => p.hasProperty === propertyId);

/** Compact JSON for a table cell, cut to `max` characters. */
export function compactJson(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "Point [2.35, 48.85]", "Polygon (5 points)": what a geometry is, in a few words. */
export function geometrySummary(value: unknown): string {
  const geometry = value as Geometry | undefined;
  if (!geometry || typeof geometry !== "object") return String(value ?? "");
  const flat = (c: unknown): number[][] =>
    Array.isArray(c) && typeof c[0] === "number" ? [c as number[]] : Array.isArray(c) ? c.flatMap(flat) : [];
  const points = flat(geometry.coordinates);
  if (geometry.type === "Point" && points[0]) return `${geometry.type} [${points[0].join(", ")}]`;
  return `${geometry.type} (${points.length})`;
}

/** A number typed by a person: a comma is accepted as the decimal separator. */
export function parseDecimal(text: string): number {
  const trimmed = text.trim().replace(",", ".");
  return trimmed === "" ? NaN : Number(trimmed);
}
