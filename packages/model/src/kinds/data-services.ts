import { defineKind } from "../kind.ts";
import { reference } from "../fields.ts";

/**
 * A data service of a workspace: an entity type, the properties of that type it gives access to and
 * the data actions allowed on them; demand, offer, both or neither. Its links to properties and
 * actions are part of the record, written in one request (the spec's data-service-properties and
 * data-service-actions are views of them for clients that link one call at a time).
 */
export const dataServices = defineKind({
  kind: "data-services",
  urnType: "DataService",
  routeName: "dataServices",
  scope: "workspace",
  listedWhole: true,
  columns: ["hasEntityType", "hasDataActions", "hasProperties", "direction"],
  fields: [
    // Optional: the id stands for it where it is absent.
    { name: "name", input: "text", maxLength: 100 },
    reference("hasEntityType", "types", { required: true }),
    {
      name: "hasProperties",
      input: "references",
      kind: "properties",
      within: { field: "hasEntityType", via: "hasType" },
      linked: true,
    },
    { name: "hasDataActions", input: "references", kind: "data-actions", linked: true },
    { name: "isDemand", input: "boolean", default: false },
    { name: "isOffer", input: "boolean", default: false },
  ],
});
