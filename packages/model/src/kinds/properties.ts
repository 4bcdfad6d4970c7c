import { defineKind } from "../kind.ts";
import { attributeName, description, reference } from "../fields.ts";

export const geoTypes = [
  "Point",
  "MultiPoint",
  "LineString",
  "MultiLineString",
  "Polygon",
  "MultiPolygon",
] as const;

const topLevel = { hasProperty: { present: false } } as const;

/** A property of a type: an NGSI-LD Property, GeoProperty or Relationship, possibly of another property. */
export const properties = defineKind({
  kind: "properties",
  urnType: "Property",
  routeName: "properties",
  scope: "workspace",
  columns: ["ngsiLdType"],
  fields: [
    attributeName,
    description,
    { name: "url", input: "url" },
    reference("hasType", "types", { required: true }),
    // A property of a property: no temporal history and no multiple values of its own.
    reference("hasProperty", "properties"),
    {
      name: "ngsiLdType",
      input: "enum",
      options: ["Property", "GeoProperty", "Relationship"],
      required: true,
    },
    {
      name: "propertyNgsiLdValueType",
      input: "enum",
      options: ["String", "Number", "Boolean", "Object", "Array"],
      required: true,
      when: { ngsiLdType: "Property" },
    },
    reference("relationshipType", "types", { required: true, when: { ngsiLdType: "Relationship" } }),
    // The NGSI-LD type a relationship points to when it is not one of the model's (auto-discovered
    // from its entities): relationshipType, which must name a type, then names the property's own.
    {
      name: "relationshipTarget",
      input: "text",
      maxLength: 200,
      readOnly: true,
      when: { ngsiLdType: "Relationship" },
    },
    {
      name: "geoPropertyNgsiLdType",
      input: "enum",
      options: geoTypes,
      required: true,
      when: { ngsiLdType: "GeoProperty" },
    },
    { name: "geoPropertyGeographic", input: "boolean", default: false, when: { ngsiLdType: "GeoProperty" } },
    { name: "standard", input: "boolean", default: false },
    { name: "mandatory", input: "boolean", default: false },
    { name: "temporal", input: "boolean", default: false, when: topLevel },
    {
      name: "temporalServices",
      input: "references",
      kind: "temporal-services",
      required: true,
      when: { ...topLevel, temporal: true },
    },
    // Only for brokers that keep several values per attribute (scorpio, stellio, the embedded one): checked by the API.
    { name: "multiValued", input: "boolean", default: false, when: topLevel },
  ],
});
