import type { Item } from "../resources/records.ts";

/** Where a name points when neither the type nor the workspace gives a URL: the NGSI-LD default vocabulary. */
const defaultVocabulary = "https://uri.etsi.org/ngsi-ld/default-context/";

export const iri = (record: Item) => String(record.url ?? `${defaultVocabulary}${String(record.name)}`);

/**
 * The JSON-LD @context of a data model: every type and property name mapped to its URL, flat, as
 * the original published it. One document for the whole model, and one per type holding the type
 * and its own properties (sub-properties included).
 */
export function buildContexts(typeList: Item[], propertyList: Item[]) {
  const terms = (records: Item[]) =>
    Object.fromEntries(records.map((r) => [String(r.name), iri(r)]).sort(([a], [b]) => a!.localeCompare(b!)));
  const whole = { "@context": terms([...typeList, ...propertyList]) };
  const perType = typeList.map((type) => ({
    typeName: String(type.name),
    document: { "@context": terms([type, ...propertyList.filter((p) => p.hasType === type.id)]) },
  }));
  return { whole, perType };
}
