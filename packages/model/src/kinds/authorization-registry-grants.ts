import { defineKind } from "../kind.ts";
import { description, identity, name, noPemLines } from "../fields.ts";

export const authorizationRegistryGrants = defineKind({
  kind: "authorization-registry-grants",
  urnType: "AuthorizationRegistryGrant",
  routeName: "authorizationRegistryGrants",
  scope: "platform",
  trustModule: true,
  columns: [],
  fields: [
    name,
    description,
    ...identity,
    {
      name: "privateKey",
      input: "text",
      required: true,
      secret: true,
      maxLength: 20_000,
      pattern: noPemLines,
      format: "pem",
    },
  ],
});
