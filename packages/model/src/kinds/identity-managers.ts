import { defineKind } from "../kind.ts";
import { address, description, implementation, name, urlPath } from "../fields.ts";

export const identityManagers = defineKind({
  kind: "identity-managers",
  urnType: "IdentityManager",
  routeName: "identityManagers",
  scope: "platform",
  columns: ["host", "implementation"],
  fields: [
    name,
    description,
    ...address,
    urlPath("oauth2TokenPath", true),
    urlPath("userPath"),
    ...implementation(["keyrock"]),
  ],
});
