import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import CredentialConfigurationScreen from "../src/fdsc/CredentialConfigurationScreen.tsx";
import { field, mockApi, renderAt, sent } from "./support.tsx";

// A service's credential configuration in FDSC mode: made from scratch with the service's trusted
// issuers list proposed, and an existing one edited without losing what the form does not show.

const service = "urn:ngsi-ld:Service:1";
const base = `/services/${service}/credential-configuration`;
const common = {
  [`GET /services/${service}`]: {
    body: { id: service, name: "Clusters", authorizationRequired: true, authorizationMode: "fdsc" },
  },
  [`GET ${base}/defaults`]: { body: { clientId: "clusters", trustedIssuersList: "http://til:8080" } },
};
const render = () =>
  renderAt(
    `/services/${encodeURIComponent(service)}/credential-configuration`,
    "/services/:id/credential-configuration",
    <CredentialConfigurationScreen />,
  );

describe("credential configuration screen", () => {
  it("starts a new configuration with the service's list and the whole credential in the token, and writes it", async () => {
    const calls = mockApi({
      ...common,
      [`GET ${base}`]: { status: 404, body: { status: 404, code: "ccs.noConfiguration", detail: "none" } },
      [`PUT ${base}`]: (call) => ({
        body: {
          id: "clusters",
          component: "CCS",
          implementationName: "fiware-credentials-config-service",
          configuration: call.body,
        },
      }),
    });
    const { user } = render();
    expect(await screen.findByTestId("configuration-absent")).toHaveTextContent(
      "no configuration for clusters yet",
    );
    expect(field("Trusted issuers lists (one URL a line)")).toHaveValue("http://til:8080");
    expect(screen.getByLabelText("The whole credential (needed for roles)")).toBeChecked();
    await user.clear(field("OIDC scope"));
    await user.type(field("OIDC scope"), "operator");
    await user.type(field("Credential type"), "OperatorCredential");
    await user.type(field("Trusted participants lists (one a line)"), "gaia-x https://registry.gaia-x.eu");
    await user.selectOptions(field("Authorization type"), "DEEPLINK");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent(calls, "PUT")).toHaveLength(1));
    expect(sent(calls, "PUT")[0]!.body).toEqual({
      defaultOidcScope: "operator",
      authorizationType: "DEEPLINK",
      oidcScopes: {
        operator: {
          credentials: [
            {
              type: "OperatorCredential",
              trustedParticipantsLists: [{ type: "gaia-x", url: "https://registry.gaia-x.eu" }],
              trustedIssuersLists: ["http://til:8080"],
              requireCompliance: false,
              holderVerification: { enabled: false },
              jwtInclusion: { enabled: true, fullInclusion: true, claimsToInclude: [] },
            },
          ],
        },
      },
    });
  });

  it("edits a configuration held by the verifier, keeping its DCQL, with claims to include", async () => {
    const configuration = {
      id: "clusters",
      defaultOidcScope: "operator",
      authorizationType: "FRONTEND_V2",
      oidcScopes: {
        operator: {
          credentials: [
            {
              type: "OperatorCredential",
              trustedIssuersLists: ["http://til:8080"],
              jwtInclusion: { enabled: true, fullInclusion: true },
            },
          ],
          dcql: { credentials: [{ id: "op", format: "jwt_vc_json" }] },
        },
      },
    };
    const calls = mockApi({
      ...common,
      [`GET ${base}`]: {
        body: {
          id: "clusters",
          component: "Verifier",
          implementationName: "fiware-vc-verifier",
          configuration,
        },
      },
      [`PUT ${base}`]: {
        status: 400,
        body: {
          title: "Bad request",
          status: 400,
          detail:
            "The credentials configuration service Verifier refused the configuration: Configuration contains duplicate claim keys.",
        },
      },
    });
    const { user } = render();
    expect(await screen.findByText(/verifier's own \/service API/)).toBeInTheDocument();
    await user.click(screen.getByLabelText("The whole credential (needed for roles)"));
    await user.click(screen.getByRole("button", { name: "Add a claim" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent(calls, "PUT")).toHaveLength(1));
    const scope = (sent(calls, "PUT")[0]!.body as any).oidcScopes.operator;
    expect(scope.dcql).toEqual({ credentials: [{ id: "op", format: "jwt_vc_json" }] });
    expect(scope.credentials[0].jwtInclusion).toEqual({
      enabled: true,
      fullInclusion: false,
      claimsToInclude: [{ originalKey: "roles" }],
    });
    const dialog = await screen.findByRole("dialog");
    expect(
      within(dialog).getByText("The saving of the credential configuration has failed."),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/duplicate claim keys/)).toBeInTheDocument();
  });

  it("says what a configuration lacks before sending it", async () => {
    const calls = mockApi({
      ...common,
      [`GET ${base}`]: { status: 404, body: { code: "ccs.noConfiguration" } },
    });
    const { user } = render();
    await user.click(await screen.findByRole("button", { name: "Save" }));
    expect(await screen.findByTestId("configuration-problem")).toHaveTextContent(
      "Every scope needs at least one credential",
    );
    expect(sent(calls, "PUT")).toEqual([]);
  });
});
