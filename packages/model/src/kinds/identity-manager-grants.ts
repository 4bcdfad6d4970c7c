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
    // identity manager may pair it with this one alone (`within` below, and apps/api/src/trust/grant-peer.ts).
    reference("hasIdentityManager", "identity-managers", { required: true }),
    { name: "grantType", input: "enum", options: ["client_credentials", "password"], required: true },
    { name: "clientId", input: "text", required: true, maxLength: 200 },
    { name: "clientSecret", input: "text", required: true, secret: true, maxLength: 500 },
    { name: "username", input: "text", required: true, maxLength: 200, when: passwordGrant, personal: true },
    { name: "password", input: "text", required: true, secret: true, maxLength: 500, when: passwordGrant },
  ],
});
