import { defineKind } from "../kind.ts";
import { description, name } from "../fields.ts";

const passwordGrant = { grantType: "password" } as const;

export const identityManagerGrants = defineKind({
  kind: "identity-manager-grants",
  urnType: "IdentityManagerGrant",
  routeName: "identityManagerGrants",
  scope: "platform",
  columns: [],
  fields: [
    name,
    description,
    { name: "grantType", input: "enum", options: ["client_credentials", "password"], required: true },
    { name: "clientId", input: "text", required: true, maxLength: 200 },
    { name: "clientSecret", input: "text", required: true, secret: true, maxLength: 500 },
    { name: "username", input: "text", required: true, maxLength: 200, when: passwordGrant },
    { name: "password", input: "text", required: true, secret: true, maxLength: 500, when: passwordGrant },
  ],
});
