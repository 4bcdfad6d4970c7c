import { defineKind } from "../kind.ts";
import { description, name } from "../fields.ts";

/** Actions a data service offers (read, write, ...); listed by the data services screens. */
export const dataActions = defineKind({
  kind: "data-actions",
  urnType: "DataAction",
  routeName: "dataActions",
  scope: "platform",
  // The spec reads them as a list only (GET /data-actions): whoever may list them sees them all.
  listedWhole: true,
  columns: [],
  fields: [name, description],
});
