/**
 * The broker's stored form of an entity: attribute and type names EXPANDED to full IRIs (so two
 * @contexts that map a term to the same IRI see the same data), every attribute an array of
 * instances (one per datasetId), and system timestamps on each instance so that a temporal
 * history can later be written from the same objects (see migrations.ts).
 */
export const attributeTypes = [
  "Property",
  "Relationship",
  "GeoProperty",
  "LanguageProperty",
  "VocabProperty",
  "JsonProperty",
  "ListProperty",
  "ListRelationship",
] as const;
export type AttributeType = (typeof attributeTypes)[number];

/** Members of an attribute instance that are not sub-attributes. Sub-attributes are the other keys, always full IRIs. */
export const instanceMembers = new Set([
  "type",
  "value",
  "object",
  "languageMap",
  "vocab",
  "json",
  "valueList",
  "objectList",
  "objectType",
  "datasetId",
  "observedAt",
  "unitCode",
  "createdAt",
  "modifiedAt",
]);

/** The value-holding member of each attribute type. */
export const valueMemberOf: Record<AttributeType, string> = {
  Property: "value",
  Relationship: "object",
  GeoProperty: "value",
  LanguageProperty: "languageMap",
  VocabProperty: "vocab",
  JsonProperty: "json",
  ListProperty: "valueList",
  ListRelationship: "objectList",
};

export interface Instance {
  type: AttributeType;
  value?: unknown;
  object?: unknown;
  languageMap?: Record<string, unknown>;
  vocab?: string | string[];
  json?: unknown;
  valueList?: unknown[];
  objectList?: unknown[];
  objectType?: string;
  datasetId?: string;
  observedAt?: string;
  unitCode?: string;
  createdAt?: string;
  modifiedAt?: string;
  /** Sub-attributes by expanded name. */
  [subAttribute: string]: unknown;
}

export type Attributes = Record<string, Instance[]>;

export interface StoredEntity {
  id: string;
  types: string[];
  attrs: Attributes;
  createdAt: string;
  modifiedAt: string;
}

/** The "null" URI that deletes in merge operations (ETSI GS CIM 009 v1.8, 4.5.0). */
export const NGSI_LD_NULL = "urn:ngsi-ld:null";

export function subAttributeNames(instance: Instance): string[] {
  return Object.keys(instance).filter((k) => !instanceMembers.has(k));
}
