import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  contextBrokers,
  credentialsConfigServices,
  identityManagerGrants,
  policyAdministrationPoints,
} from "@orrery/model";
import KindShowPage from "../src/app/KindShowPage.tsx";
import { CheckConnection } from "../src/health/CheckConnection.tsx";
import { useSave } from "../src/resources/queries.ts";
import type { ComponentHealth } from "../src/health/healthApi.ts";
import i18n from "../src/i18n/index.ts";
import { allow, mockApi, renderAt, sent } from "./support.tsx";

// "Check connection" on the show page of a platform component.

const brokerId = "urn:ngsi-ld:ContextBroker:orion";
const broker = {
  id: brokerId,
  name: "Orion North",
  scheme: "https",
  host: "orion.example.org",
  port: 443,
  paginationMaxLimit: 1000,
  implementationName: "orion-ld",
  implementationVersion: "1.10.0",
};
const never: ComponentHealth = {
  kind: "context-brokers",
  id: brokerId,
  name: "Orion North",
  state: "unchecked",
  reasons: [],
  roundTripMs: null,
  version: null,
  checkedAt: null,
};
const expired: ComponentHealth = {
  ...never,
  state: "down",
  reasons: [
    { code: "health.tls", message: "The TLS connection failed." },
    { code: "health.certificate.expired", message: "Its certificate expired on 2026-01-31." },
  ],
  roundTripMs: 40,
  checkedAt: "2026-11-26T04:10:00.000Z",
};

const path = `/health/context-brokers/${encodeURIComponent(brokerId)}`;
const showBroker = () =>
  renderAt(`/context-brokers/${brokerId}`, "/context-brokers/:id", <KindShowPage kind={contextBrokers} />);

afterEach(async () => {
  await i18n.changeLanguage("en");
});

describe("Check connection", () => {
  it("checks a broker now and says why it is down: the certificate's problem", async () => {
    const calls = mockApi({
      [`GET /context-brokers/${brokerId}`]: { body: broker },
      [`GET ${path}`]: { body: never },
      [`POST ${path}`]: { body: expired },
    });
    const { user } = showBroker();
    const card = await screen.findByRole("region", { name: "Connection" });
    await waitFor(() => expect(card).toHaveTextContent("Not checked yet"));
    await user.click(within(card).getByRole("button", { name: "Check connection" }));
    await waitFor(() => expect(card).toHaveTextContent("Its certificate expired on 2026-01-31."));
    expect(card).toHaveTextContent("Down");
    expect(card).toHaveTextContent("40 ms");
    expect(sent(calls, "POST").map((c) => c.path)).toEqual([path]);
  });

  it("drops the old address's result once the broker is saved with another address", async () => {
    let edited = false;
    mockApi({
      [`GET ${path}`]: () => ({ body: edited ? never : expired }),
      [`PUT /context-brokers/${brokerId}`]: (call) => {
        edited = true;
        return { body: { ...broker, ...(call.body as object) } };
      },
    });
    function EditAndCheck() {
      const save = useSave(contextBrokers);
      return (
        <>
          <button
            onClick={() =>
              save.mutate({ id: brokerId, body: { ...broker, host: "orion-south.example.org" } })
            }
          >
            Save the new address
          </button>
          <CheckConnection kind={contextBrokers.kind} id={brokerId} />
        </>
      );
    }
    const { user } = renderAt("/context-brokers/x", "/context-brokers/:id", <EditAndCheck />);
    const card = await screen.findByRole("region", { name: "Connection" });
    await waitFor(() => expect(card).toHaveTextContent("Its certificate expired on 2026-01-31."));
    await user.click(screen.getByRole("button", { name: "Save the new address" }));
    await waitFor(() => expect(card).toHaveTextContent("Not checked yet"));
    expect(card).not.toHaveTextContent("certificate");
  });

  it("shows whether a grant still obtains a token, in French", async () => {
    await i18n.changeLanguage("fr");
    const grantId = "urn:ngsi-ld:IdentityManagerGrant:g";
    const grantPath = `/health/identity-manager-grants/${encodeURIComponent(grantId)}`;
    mockApi({
      [`GET /identity-manager-grants/${grantId}`]: {
        body: {
          id: grantId,
          name: "App",
          grantType: "client_credentials",
          clientId: "app",
          clientSecret: { set: true },
        },
      },
      "GET /identity-managers": { body: [] },
      [`GET ${grantPath}`]: {
        body: {
          ...never,
          kind: "identity-manager-grants",
          id: grantId,
          state: "up",
          reasons: [{ code: "health.tokenObtained", message: "Les identifiants obtiennent un jeton." }],
          roundTripMs: 5,
          checkedAt: "2026-11-26T04:10:00.000Z",
        },
      },
    });
    renderAt(
      `/identity-manager-grants/${grantId}`,
      "/identity-manager-grants/:id",
      <KindShowPage kind={identityManagerGrants} />,
    );
    const card = await screen.findByRole("region", { name: "Connexion" });
    await waitFor(() => expect(card).toHaveTextContent("Les identifiants obtiennent un jeton."));
    expect(card).toHaveTextContent("Disponible");
    expect(within(card).getByRole("button", { name: "Tester la connexion" })).toBeInTheDocument();
  });

  it("checks a policy administration point and a credentials configuration service", async () => {
    const papId = "urn:ngsi-ld:PolicyAdministrationPoint:pap";
    const ccsId = "urn:ngsi-ld:CredentialsConfigService:ccs";
    const papPath = `/health/policy-administration-points/${encodeURIComponent(papId)}`;
    const ccsPath = `/health/credentials-config-services/${encodeURIComponent(ccsId)}`;
    const address = { scheme: "http", host: "odrl-pap", port: 8080 };
    const calls = mockApi({
      [`GET /policy-administration-points/${papId}`]: {
        body: {
          id: papId,
          name: "Provider PAP",
          ...address,
          organizationDid: "did:web:provider.example.org",
          implementationName: "odrl-pap",
          implementationVersion: "1.4.3",
        },
      },
      [`GET /credentials-config-services/${ccsId}`]: {
        body: {
          id: ccsId,
          name: "Verifier CCS",
          ...address,
          implementationName: "fiware-vc-verifier",
          implementationVersion: "6.2.0",
        },
      },
      [`GET ${papPath}`]: { body: { ...never, kind: "policy-administration-points", id: papId } },
      [`POST ${papPath}`]: {
        body: {
          ...never,
          kind: "policy-administration-points",
          id: papId,
          state: "up",
          roundTripMs: 12,
          checkedAt: "2026-11-26T04:10:00.000Z",
        },
      },
      [`GET ${ccsPath}`]: {
        body: {
          ...never,
          kind: "credentials-config-services",
          id: ccsId,
          state: "down",
          reasons: [
            {
              code: "health.refused",
              message: "The connection was refused: nothing listens at verifier:8090.",
            },
          ],
          checkedAt: "2026-11-26T04:10:00.000Z",
        },
      },
    });
    const { user, unmount } = renderAt(
      `/policy-administration-points/${papId}`,
      "/policy-administration-points/:id",
      <KindShowPage kind={policyAdministrationPoints} />,
    );
    const papCard = await screen.findByRole("region", { name: "Connection" });
    await waitFor(() => expect(papCard).toHaveTextContent("Not checked yet"));
    await user.click(within(papCard).getByRole("button", { name: "Check connection" }));
    await waitFor(() => expect(papCard).toHaveTextContent("12 ms"));
    expect(papCard).toHaveTextContent("Up");
    expect(sent(calls, "POST").map((c) => c.path)).toEqual([papPath]);
    unmount();

    renderAt(
      `/credentials-config-services/${ccsId}`,
      "/credentials-config-services/:id",
      <KindShowPage kind={credentialsConfigServices} />,
    );
    const ccsCard = await screen.findByRole("region", { name: "Connection" });
    await waitFor(() => expect(ccsCard).toHaveTextContent("nothing listens at verifier:8090"));
    expect(ccsCard).toHaveTextContent("Down");
    expect(within(ccsCard).getByRole("button", { name: "Check connection" })).toBeInTheDocument();
  });

  it("shows the last result without the button to a viewer", async () => {
    mockApi({ [`GET /context-brokers/${brokerId}`]: { body: broker }, [`GET ${path}`]: { body: expired } }, [
      allow("GET", "^/api/.*"),
    ]);
    showBroker();
    const card = await screen.findByRole("region", { name: "Connection" });
    await waitFor(() => expect(card).toHaveTextContent("Its certificate expired"));
    expect(within(card).queryByRole("button")).toBeNull();
  });
});
