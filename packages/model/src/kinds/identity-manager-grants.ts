import { defineKind } from "../kind.ts";
import { description, name, reference } from "../fields.ts";

const passwordGrant = { grantType: "password" } as const;

export const identityManagerGrants = defineKind({
  kind: "identity-manager-grants",
  urnType: "IdentityManagerGrant",
  routeName: "identityManagerGrants",
  scope: "platform",
  columns: ["hasIdentityManager"],
  fields: [
    name,
    description,
    // The only identity manager its secrets are ever sent to: records pairing the grant with an
    // identity manager may pair it with this one alone (`within` in services.ts, workspaces.ts,
    // temporal-services.ts, and apps/api/src/trust/grant-peer.ts). Not in the spec, so optional for
    // the API (the original console never sends it): a grant without one is bound to the first
    // identity manager a record pairs it with. The console's own form asks for it (`linked`).
    reference("hasIdentityManager", "identity-managers", { linked: true }),
    { name: "grantType", input: "enum", options: ["client_credentials", "password"], required: true },
    { name: "clientId", input: "text", required: true, maxLength: 200 },
    { name: "clientSecret", input: "text", required: true, secret: true, maxLength: 500 },
    { name: "username", input: "text", required: true, maxLength: 200, when: passwordGrant, personal: true },
    { name: "password", input: "text", required: true, secret: true, maxLength: 500, when: passwordGrant },
  ],
});
