import { defineKind } from "../kind.ts";
import { address, description, implementation, name } from "../fields.ts";

/**
 * An ODRL policy administration point (SEAMWARE/odrl-pap, FIWARE Data Space Connector): it keeps
 * ODRL policies and turns them into the Rego that OPA evaluates behind the gateway. `/validate`
 * answers only when the PAP has an OPA of its own to ask, hence `validation`.
 */
export const policyAdministrationPoints = defineKind({
  kind: "policy-administration-points",
  urnType: "PolicyAdministrationPoint",
  routeName: "policyAdministrationPoints",
  scope: "platform",
  columns: ["host", "implementation"],
  fields: [
    name,
    description,
    ...address,
    ...implementation(["odrl-pap"]),
    // GENERAL_ORGANIZATION_DID of the PAP: `vc:role` reads the roles a credential gives for this party.
    {
      name: "organizationDid",
      input: "text",
      required: true,
      maxLength: 500,
      pattern: /^did:[a-z0-9]+:\S+$/,
      format: "did",
    },
    { name: "validation", input: "boolean", default: false },
  ],
});
