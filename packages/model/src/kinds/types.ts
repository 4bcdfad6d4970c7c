import { defineKind } from "../kind.ts";
import { description, ngsiName } from "../fields.ts";

export const dataModelGroups = [
  "equipment",
  "equipment-model",
  "infrastructure",
  "control",
  "observation-data-collection",
] as const;

const standard = { standardDataModelBased: true } as const;

/** An entity type of a workspace's data model. */
export const types = defineKind({
  kind: "types",
  urnType: "Type",
  routeName: "types",
  scope: "workspace",
  columns: ["dataModelGroup"],
  fields: [
    ngsiName,
    description,
    // Defaults to the workspace's default data-model URL plus the name (set by the API).
    { name: "url", input: "url" },
    { name: "dataModelGroup", input: "enum", options: dataModelGroups },
    { name: "standardDataModelBased", input: "boolean", default: false },
    {
      name: "standardDataModelType",
      input: "enum",
      options: ["smart-data-models"],
      required: true,
      default: "smart-data-models",
      when: standard,
    },
    { name: "standardDataModelDefinitionUrl", input: "url", required: true, when: standard },
    { name: "scopeName", input: "text", maxLength: 100 },
    { name: "icon", input: "markup", maxLength: 100_000 },
    { name: "positionInChart", input: "point", readOnly: true },
  ],
});
