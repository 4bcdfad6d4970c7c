import { defineKind } from "../kind.ts";
import { reference, scopeFields, singleLineText as singleLine } from "../fields.ts";

/**
 * A contract with a stakeholder of the data space (spec section 3): who (a DID, a verifiable
 * credential type), for how long (validFromTime up to validToTime, whole seconds), and optionally
 * over what: a scope type of the workspace that has a scopeName, and an entity of that type.
 */
export const contracts = defineKind({
  kind: "contracts",
  urnType: "Contract",
  routeName: "contracts",
  scope: "workspace",
  listedWhole: true,
  titledBy: ["{stakeholderName}"],
  columns: ["stakeholderDid", "stakeholderName", "verifiableCredentialType"],
  fields: [
    {
      name: "contractType",
      input: "enum",
      options: ["data-consumer", "data-provider"],
      required: true,
      default: "data-consumer",
    },
    {
      name: "stakeholderDid",
      input: "text",
      required: true,
      maxLength: 500,
      pattern: /^did:[a-z0-9]+:\S+$/,
      format: "did",
    },
    { name: "stakeholderName", ...singleLine, required: true },
    { name: "validFromTime", input: "instant", required: true },
    { name: "validToTime", input: "instant", required: true },
    { name: "verifiableCredentialType", ...singleLine, required: true },
    ...scopeFields,
  ],
});

/**
 * A detail of a contract: a role of the workspace for the stakeholder, named in its identity
 * manager by roleScopeName, and optionally narrowed to an entity related to the contract's scope.
 */
export const contractDetails = defineKind({
  kind: "contract-details",
  urnType: "ContractDetail",
  routeName: "contractDetails",
  scope: "workspace",
  listedWhole: true,
  titledBy: ["{roleScopeName}", "{hasRole}"],
  columns: ["id", "hasRole", "roleScopeName"],
  fields: [
    reference("hasContract", "contracts", { required: true }),
    reference("hasRole", "roles", { required: true }),
    { name: "roleScopeName", ...singleLine },
    ...scopeFields,
  ],
});
