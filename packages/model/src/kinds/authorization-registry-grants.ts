import { defineKind } from "../kind.ts";
import { description, identity, name, noPemLines, reference } from "../fields.ts";

export const authorizationRegistryGrants = defineKind({
  kind: "authorization-registry-grants",
  urnType: "AuthorizationRegistryGrant",
  routeName: "authorizationRegistryGrants",
  scope: "platform",
  trustModule: true,
  columns: ["hasAuthorizationRegistry"],
  fields: [
    name,
    description,
    // The only registry its key signs client assertions for; optional for the API and bound to the
    // first registry a record pairs it with, as an identity manager grant's peer is (see
    // identity-manager-grants.ts).
    reference("hasAuthorizationRegistry", "authorization-registries", { linked: true }),
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
