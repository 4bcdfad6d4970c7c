import { authorizationRegistryGrants } from "@orrery/model";
import { fieldError, invalid } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Records } from "../resources/records.ts";
import { grantProblem } from "./ishare.ts";

/**
 * An authorization registry grant signs iSHARE client assertions: its private key must be readable
 * and belong to the leaf (first) certificate, and every certificate must be X.509, checked when
 * saved rather than at the first delegation request.
 */
export function trustHooks(records: Records): Record<string, KindHooks> {
  return {
    "authorization-registry-grants": {
      async prepare(input, { id }) {
        const privateKey =
          (input.privateKey as string | undefined) ??
          (id ? await records.secret(authorizationRegistryGrants, id, "privateKey") : undefined);
        const found = grantProblem({ privateKey, certificates: input.certificates as string[] });
        if (found)
          throw invalid([
            fieldError(
              found.field,
              found.fault === "key"
                ? "registryGrant.badKey"
                : found.fault === "certificate"
                  ? "registryGrant.badCertificate"
                  : "registryGrant.keyMismatch",
            ),
          ]);
        return input;
      },
    },
  };
}
