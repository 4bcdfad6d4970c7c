import { defineKind } from "../kind.ts";
import { description, name } from "../fields.ts";

/** Actions a data service offers (read, write, ...); listed by the data services screens. */
export const dataActions = defineKind({
  kind: "data-actions",
  urnType: "DataAction",
  routeName: "dataActions",
  scope: "platform",
  columns: [],
  fields: [name, description],
});
