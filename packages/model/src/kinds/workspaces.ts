import { defineKind } from "../kind.ts";
import { description, name, reference, tenantName } from "../fields.ts";

/** A grant is one of the chosen peer's: its secrets go to that peer only. */
const ofIdentityManager = { field: "hasIdentityManager", via: "hasIdentityManager" } as const;
const ofRegistry = { field: "hasAuthorizationRegistry", via: "hasAuthorizationRegistry" } as const;

/** A workspace: a data model published as a JSON-LD context, on a service (and so a broker). */
export const workspaces = defineKind({
  kind: "workspaces",
  urnType: "Workspace",
  routeName: "workspaces",
  scope: "platform",
  columns: ["hasService", "dataModelVersion"],
  fields: [
    name,
    description,
    {
      name: "dataModelName",
      input: "text",
      required: true,
      maxLength: 50,
      pattern: /^[a-z0-9-]{1,50}$/,
      format: "dataModelName",
    },
    { name: "dataModelVersion", input: "integer", readOnly: true },
    { name: "defaultDataModelUrl", input: "url" },
    reference("hasService", "services", { required: true }),
    { name: "temporalServices", input: "references", kind: "temporal-services" },
    // Kept only when the service's broker is multi-tenant: a rule across records, applied by the API.
    {
      name: "contextBrokerTenant",
      input: "text",
      maxLength: 100,
      pattern: tenantName,
      format: "ngsiName",
    },
    { name: "enableOffers", input: "boolean", default: false },
    reference("hasAuthorizationRegistry", "authorization-registries", {
      required: true,
      when: { enableOffers: true },
    }),
    reference("hasAuthorizationRegistryGrant", "authorization-registry-grants", {
      required: true,
      when: { enableOffers: true },
      within: ofRegistry,
    }),
    reference("hasIdentityManager", "identity-managers"),
    reference("hasIdentityManagerGrant", "identity-manager-grants", {
      required: true,
      when: { hasIdentityManager: { present: true } },
      within: ofIdentityManager,
    }),
    { name: "dataModelUpToDate", input: "boolean", readOnly: true },
  ],
});
