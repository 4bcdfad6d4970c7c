import { defineKind } from "../kind.ts";
import { description, name, reference } from "../fields.ts";

const oauth2 = { authorizationRequired: true, authorizationMode: "oauth2" } as const;
const siop2 = { authorizationRequired: true, authorizationMode: "siop2" } as const;

export const services = defineKind({
  kind: "services",
  urnType: "Service",
  routeName: "services",
  scope: "platform",
  columns: ["hasContextBroker"],
  fields: [
    name,
    description,
    reference("hasContextBroker", "context-brokers", { required: true }),
    { name: "authorizationRequired", input: "boolean", default: false },
    {
      name: "authorizationMode",
      input: "enum",
      options: ["oauth2", "siop2"],
      required: true,
      when: { authorizationRequired: true },
    },
    reference("hasIdentityManager", "identity-managers", { required: true, when: oauth2 }),
    reference("hasIdentityManagerGrant", "identity-manager-grants", {
      required: true,
      when: oauth2,
      // One of the chosen identity manager's grants: its secrets go to that identity manager only.
      within: { field: "hasIdentityManager", via: "hasIdentityManager" },
    }),
    reference("hasVCVerifier", "vc-verifiers", { required: true, when: siop2 }),
    reference("hasTrustedIssuersList", "trusted-issuers-lists", { required: true, when: siop2 }),
    { name: "clientId", input: "text", required: true, maxLength: 200, when: siop2 },
  ],
});
