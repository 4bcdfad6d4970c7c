import { defineKind } from "../kind.ts";
import { address, description, implementation, name } from "../fields.ts";

/**
 * Where the credential configuration of services lives (which credential types each OIDC scope
 * accepts, from which lists): the standalone FIWARE Credentials Config Service, or the same
 * `/service` API served by the VC verifier itself (connector chart 9 and later, port 8090), whose
 * answers differ (notes/fdsc.md §3).
 */
export const credentialsConfigServices = defineKind({
  kind: "credentials-config-services",
  urnType: "CredentialsConfigService",
  routeName: "credentialsConfigServices",
  scope: "platform",
  columns: ["host", "implementation"],
  fields: [
    name,
    description,
    ...address,
    ...implementation(["fiware-credentials-config-service", "fiware-vc-verifier"]),
  ],
});
