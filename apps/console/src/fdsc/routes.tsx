import { Route } from "react-router";
import { Allowed } from "../app/Allowed.tsx";
import { screen } from "../app/screens.tsx";
import { routePaths } from "../routes.ts";

const PoliciesScreen = screen(() => import("./PoliciesScreen.tsx"));
const CredentialConfigurationScreen = screen(() => import("./CredentialConfigurationScreen.tsx"));
const IssuersScreen = screen(() => import("./IssuersScreen.tsx"));

const actions = ["index", "create", "show", "edit"] as const;

/** The FDSC screens' routes (routes.ts names them), each shown when the API would serve its first call. */
export function fdscRoutes() {
  return [
    ...actions.map((action) => (
      <Route
        key={`odrlPolicies.${action}`}
        path={routePaths[`odrlPolicies.${action}`]}
        element={
          <Allowed
            when={(can, { workspaceId }) =>
              can.can(action === "create" ? "POST" : "GET", `/workspace/${workspaceId}/odrl-policies`)
            }
          >
            <PoliciesScreen action={action} />
          </Allowed>
        }
      />
    )),
    <Route
      key="credentialConfiguration.show"
      path={routePaths["credentialConfiguration.show"]}
      element={
        <Allowed when={(can, { id }) => can.can("GET", `/services/${id}/credential-configuration`)}>
          <CredentialConfigurationScreen />
        </Allowed>
      }
    />,
    ...actions.map((action) => (
      <Route
        key={`trustedIssuers.${action}`}
        path={routePaths[`trustedIssuers.${action}`]}
        element={
          <Allowed
            when={(can, { id }) =>
              can.can(action === "create" ? "POST" : "GET", `/trusted-issuers-lists/${id}/issuers`)
            }
          >
            <IssuersScreen action={action} />
          </Allowed>
        }
      />
    )),
  ];
}
