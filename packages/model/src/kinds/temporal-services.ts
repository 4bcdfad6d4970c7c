import { defineKind } from "../kind.ts";
import { description, host, name, port, reference, urlPath } from "../fields.ts";

const mintaka = { temporalServiceType: "mintaka" } as const;
const mintakaHttps = { ...mintaka, scheme: "https" } as const;
const mintakaAuthorized = { ...mintaka, authorizationRequired: true } as const;

export const temporalServices = defineKind({
  kind: "temporal-services",
  urnType: "TemporalService",
  routeName: "temporalServices",
  scope: "platform",
  columns: ["temporalServiceType"],
  fields: [
    name,
    description,
    {
      name: "temporalServiceType",
      input: "enum",
      options: ["ngsi-ld", "mintaka"],
      required: true,
      createOnly: true,
    },
    { name: "version", input: "text", required: true, maxLength: 50, when: mintaka },
    { name: "scheme", input: "enum", options: ["http", "https"], required: true, when: mintaka },
    { name: "disableCertificateVerification", input: "boolean", default: false, when: mintakaHttps },
    { ...host, when: mintaka },
    { ...port, when: mintaka },
    { ...urlPath("path"), when: mintaka },
    { name: "authorizationRequired", input: "boolean", default: false, when: mintaka },
    reference("hasIdentityManager", "identity-managers", { required: true, when: mintakaAuthorized }),
    reference("hasIdentityManagerGrant", "identity-manager-grants", {
      required: true,
      when: mintakaAuthorized,
      // One of the chosen identity manager's grants: its secrets go to that identity manager only.
      within: { field: "hasIdentityManager", via: "hasIdentityManager" },
    }),
  ],
});
