import { defineKind } from "../kind.ts";
import { name, singleLineText as singleLine } from "../fields.ts";

/**
 * A role of a workspace: who (verifiableCredentialType, dataServiceProviderId) may use its data
 * services' accesses, and when (notBefore up to notOnOrAfter, whole seconds). `roleName` is the
 * access subject its policy has in the authorization registry: one word (Keyrock refuses spaces),
 * unique in the workspace, proposed from the name (the API makes it from the name when a client
 * leaves it out). Synchronisation with the authorization registry sets the read-only fields.
 */
export const roles = defineKind({
  kind: "roles",
  urnType: "Role",
  routeName: "roles",
  scope: "workspace",
  listedWhole: true,
  columns: ["verifiableCredentialType"],
  fields: [
    name,
    {
      name: "roleName",
      input: "text",
      maxLength: 100,
      pattern: /^\S+$/,
      format: "accessSubject",
      linked: true,
    },
    { name: "notBefore", input: "instant", required: true },
    { name: "notOnOrAfter", input: "instant", required: true },
    { name: "dataServiceProviderId", ...singleLine, required: true },
    { name: "verifiableCredentialType", ...singleLine, required: true },
    { name: "synchronized", input: "boolean", readOnly: true },
    // Set with synchronized false when its policy changed after a synchronisation (migration 0023).
    { name: "changedSinceSynchronization", input: "boolean", readOnly: true },
    { name: "synchronizationTime", input: "instant", never: 0, readOnly: true },
    { name: "lastDelegationEvidence", input: "json", readOnly: true },
    // FDSC mode: the ODRL policies the last synchronisation wrote to the PAP and read back.
    { name: "lastOdrlPolicies", input: "json", readOnly: true },
  ],
});

/** The roleName proposed for a role name: its words joined with `_`. */
export const roleNameOf = (name: string) => name.trim().split(/\s+/).join("_");
