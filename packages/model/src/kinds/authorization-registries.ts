import { defineKind } from "../kind.ts";
import { description, host, identity, implementation, name, port, urlPath } from "../fields.ts";

export const authorizationRegistries = defineKind({
  kind: "authorization-registries",
  urnType: "AuthorizationRegistry",
  routeName: "authorizationRegistries",
  scope: "platform",
  trustModule: true,
  columns: [],
  fields: [
    name,
    description,
    ...identity,
    { name: "scheme", input: "enum", options: ["http", "https"], required: true },
    host,
    port,
    urlPath("path"),
    urlPath("oauth2TokenPath", true),
    urlPath("delegationPath", true),
    urlPath("policyPath", true),
    // What a registry accepts in a policy: Keyrock's matcher fails on `environment.serviceProviders`,
    // another iSHARE registry ("ishare") gets the role's data service provider there.
    ...implementation(["keyrock", "ishare"]),
  ],
});
