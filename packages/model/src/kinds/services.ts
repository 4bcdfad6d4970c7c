import { defineKind } from "../kind.ts";
import { description, name, reference } from "../fields.ts";

const oauth2 = { authorizationRequired: true, authorizationMode: "oauth2" } as const;
const siop2 = { authorizationRequired: true, authorizationMode: "siop2" } as const;
/** FIWARE Data Space Connector: ODRL policies in a PAP, credential scopes in a CCS, issuers in a TIL. */
const fdsc = { authorizationRequired: true, authorizationMode: "fdsc" } as const;
/** The verifier's client id and the trusted issuers list serve both credential modes. */
const credentials = { authorizationRequired: true, authorizationMode: ["siop2", "fdsc"] } as const;

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
      options: ["oauth2", "siop2", "fdsc"],
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
    reference("hasTrustedIssuersList", "trusted-issuers-lists", { required: true, when: credentials }),
    // In FDSC mode, the service's id at the verifier and in the credentials configuration (`/services/{clientId}`).
    { name: "clientId", input: "text", required: true, maxLength: 200, when: credentials },
    reference("hasPolicyAdministrationPoint", "policy-administration-points", { required: true, when: fdsc }),
    // A PAP service of its own (its own Rego package and `main`), else the PAP's global policies.
    {
      name: "papServiceId",
      input: "text",
      maxLength: 100,
      pattern: /^[A-Za-z0-9_-]+$/,
      format: "ngsiName",
      when: fdsc,
    },
    reference("hasCredentialsConfigService", "credentials-config-services", { required: true, when: fdsc }),
  ],
});
