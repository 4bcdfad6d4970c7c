import { defineKind } from "../kind.ts";
import { address, description, implementation, name } from "../fields.ts";

export const trustedIssuersLists = defineKind({
  kind: "trusted-issuers-lists",
  urnType: "TrustedIssuersList",
  routeName: "trustedIssuersLists",
  scope: "platform",
  columns: ["host", "implementation"],
  fields: [name, description, ...address, ...implementation(["fiware-trusted-issuers-list"])],
});
