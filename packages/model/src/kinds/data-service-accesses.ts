import { defineKind } from "../kind.ts";
import { reference } from "../fields.ts";

/** A role's access to a data service; `roleName` is its role's roleName (the access subject), kept in step by the server. */
export const dataServiceAccesses = defineKind({
  kind: "data-service-accesses",
  urnType: "DataServiceAccess",
  routeName: "dataServiceAccesses",
  scope: "workspace",
  listedWhole: true,
  columns: ["hasDataService"],
  titledBy: ["{hasRole} → {hasDataService}"],
  fields: [
    reference("hasDataService", "data-services", { required: true }),
    reference("hasRole", "roles", { required: true }),
    { name: "roleName", input: "text", maxLength: 100, readOnly: true },
  ],
});
