/**
 * Where each kind of NGSI-LD attribute (ETSI GS CIM 009 v1.8, 4.5) keeps its content: a Property
 * its `value`, a Relationship its `object`, and the kinds of NGSI-LD 1.8 their own member. Shared
 * by the console's entity card and the API's CSV export, so that neither shows a blank.
 */
export const contentMembers = {
  Property: "value",
  GeoProperty: "value",
  Relationship: "object",
  LanguageProperty: "languageMap",
  VocabProperty: "vocab",
  JsonProperty: "json",
  ListProperty: "valueList",
  ListRelationship: "objectList",
} as const;

export type AttributeKind = keyof typeof contentMembers;

export const isAttributeKind = (type: unknown): type is AttributeKind =>
  typeof type === "string" && Object.hasOwn(contentMembers, type);

/** The content of one attribute instance, by its type (`value` when the type is unknown). */
export function contentOf(instance: Record<string, unknown>): unknown {
  return instance[isAttributeKind(instance.type) ? contentMembers[instance.type] : "value"];
}

/** The targets of a Relationship or ListRelationship instance (objectList items may be { object }). */
export function targetsOf(instance: Record<string, unknown>): string[] {
  const content = contentOf(instance);
  const list = Array.isArray(content) ? content : content === undefined ? [] : [content];
  return list
    .map((t) => (t && typeof t === "object" ? (t as { object?: unknown }).object : t))
    .filter((t): t is string => typeof t === "string");
}
