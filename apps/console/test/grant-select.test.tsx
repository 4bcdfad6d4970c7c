import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { identityManagerGrants, services, workspaces, type KindDefinition } from "@orrery/model";
import i18n from "../src/i18n/index.ts";
import { serverFieldText } from "../src/resources/fieldErrors.ts";
import { FormPage } from "../src/resources/FormPage.tsx";
import AuthorizationRegistryTool from "../src/tools/AuthorizationRegistryTool.tsx";
import { routePaths } from "../src/routes.ts";
import { field, mockApi, renderAt, sent, settled, type Routes_ } from "./support.tsx";

// A grant goes to its own identity manager only: the forms that pair the two offer only the grants
// of the identity manager chosen, drop a grant that stops fitting, and say what the server refused.

const idm = (n: string) => `urn:ngsi-ld:IdentityManager:${n}`;
const grant = (n: string) => `urn:ngsi-ld:IdentityManagerGrant:${n}`;
const service = {
  id: "urn:ngsi-ld:Service:1",
  name: "Service",
  hasContextBroker: "urn:ngsi-ld:ContextBroker:1",
};
const peers: Routes_ = {
  "GET /identity-managers": {
    body: [
      { id: idm("a"), name: "Keyrock A" },
      { id: idm("b"), name: "Keyrock B" },
    ],
  },
  "GET /identity-manager-grants": {
    body: [
      { id: grant("a"), name: "Grant of A", hasIdentityManager: idm("a") },
      { id: grant("b1"), name: "First grant of B", hasIdentityManager: idm("b") },
      { id: grant("b2"), name: "Second grant of B", hasIdentityManager: idm("b") },
      // Saved before grants named their identity manager: offered nowhere.
      { id: grant("old"), name: "Grant of nobody" },
    ],
  },
  "GET /services": { body: [service] },
  [`GET /services/${service.id}`]: { body: service },
  [`GET /context-brokers/${service.hasContextBroker}`]: {
    body: { id: service.hasContextBroker, name: "Broker", multiTenancyEnabled: false },
  },
};

const optionNames = (label: string) =>
  within(field(label))
    .getAllByRole("option")
    .map((o) => o.textContent);

function renderForm(kind: KindDefinition, item?: Record<string, unknown>, routes: Routes_ = {}) {
  const id = String(item?.id);
  const calls = mockApi({
    ...peers,
    ...(item ? { [`GET /${kind.kind}/${id}`]: { body: item } } : {}),
    ...routes,
  });
  const action = item ? "edit" : "create";
  const pattern = routePaths[`${kind.routeName}.${action}`]!;
  const url = pattern.replace(/:[A-Za-z]+/, id);
  const view = renderAt(url, pattern, <FormPage kind={kind} action={action} />);
  return { calls, ...view };
}

const workspace = {
  id: "ws1",
  name: "Supermarket",
  dataModelName: "supermarket",
  hasService: service.id,
  hasIdentityManager: idm("a"),
  hasIdentityManagerGrant: grant("a"),
};

describe("the grant of a workspace, a service or a temporal service", () => {
  it("is chosen among the chosen identity manager's grants, and dropped when another identity manager is chosen", async () => {
    const { user, client, calls } = renderForm(workspaces, workspace);
    await screen.findByDisplayValue("Supermarket");
    await settled(client);
    expect(field("Identity manager grant")).toHaveDisplayValue("Grant of A");
    expect(optionNames("Identity manager grant")).toEqual(["Grant of A"]);

    await user.selectOptions(field("Identity manager"), "Keyrock B");
    await waitFor(() => expect(field("Identity manager grant")).toHaveDisplayValue("Choose…"));
    expect(optionNames("Identity manager grant")).toEqual([
      "Choose…",
      "First grant of B",
      "Second grant of B",
    ]);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(field("Identity manager grant")).toHaveAccessibleDescription("This field is required."),
    );
    expect(sent(calls, "PUT")).toHaveLength(0);

    await user.selectOptions(field("Identity manager grant"), "Second grant of B");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent(calls, "PUT")).toHaveLength(1));
    expect(sent(calls, "PUT")[0]!.body).toMatchObject({
      hasIdentityManager: idm("b"),
      hasIdentityManagerGrant: grant("b2"),
    });
  });

  it("asks for the identity manager first, on a new service", async () => {
    const { user, client } = renderForm(services);
    await settled(client);
    await user.click(field("Authorization required"));
    await user.selectOptions(field("Authorization mode"), "oauth2");
    expect(screen.getByText("Choose the Identity manager first.")).toBeInTheDocument();
    await user.selectOptions(field("Identity manager"), "Keyrock A");
    // The only grant of that identity manager, chosen: what is sent is what is shown.
    await waitFor(() => expect(field("Identity manager grant")).toHaveDisplayValue("Grant of A"));
    expect(optionNames("Identity manager grant")).toEqual(["Grant of A"]);
  });

  it("shows the server's refusal of a grant of another identity manager on the grant field, in French too", async () => {
    const refusal = {
      status: 400,
      body: {
        title: "The submitted data is invalid",
        status: 400,
        errors: [
          {
            path: "hasIdentityManagerGrant",
            message:
              "refers to “Grant of A”, which belongs to “Keyrock A”, not to the chosen hasIdentityManager",
            code: "field.ofAnother",
            params: { name: "Grant of A", owner: "Keyrock A", field: "hasIdentityManager" },
          },
        ],
      },
    };
    const { user, client } = renderForm(workspaces, workspace, { "PUT /workspaces/ws1": refusal });
    await screen.findByDisplayValue("Supermarket");
    await settled(client);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(field("Identity manager grant")).toHaveAccessibleDescription(
        "“Grant of A” belongs to “Keyrock A”, not to the chosen “Identity manager”: choose one of its own.",
      ),
    );
    await i18n.changeLanguage("fr");
    const t = i18n.t.bind(i18n);
    try {
      expect(serverFieldText(refusal.body.errors[0]!, t)).toBe(
        "« Grant of A » appartient à « Keyrock A », pas au champ « Gestionnaire d'identité » choisi\u00a0: choisissez-en un qui lui appartient.",
      );
      const none = {
        message: "…",
        code: "field.ofNone",
        params: { name: "Old", field: "hasIdentityManager" },
      };
      expect(serverFieldText(none, t)).toContain(
        "« Old » n’appartient encore à aucun « Gestionnaire d'identité »",
      );
    } finally {
      await i18n.changeLanguage("en");
    }
  });
});

describe("a grant in the spec's shape, bound to no identity manager yet", () => {
  it("opens without an error, and the console's form asks for its identity manager before saving", async () => {
    const { client, user, calls } = renderForm(identityManagerGrants, {
      id: grant("old"),
      name: "Grant of nobody",
      grantType: "client_credentials",
      clientId: "c",
      clientSecret: { set: true },
    });
    await settled(client);
    // The API takes it as the original console sends it; only saving here asks for the peer.
    expect(field("Identity manager")).not.toHaveAccessibleDescription("This field is required.");
    expect(field("Identity manager")).toBeRequired();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(sent(calls, "PUT")).toHaveLength(0);
  });
});

describe("the authorization registry tool", () => {
  it("offers only the grants of the chosen registry, and forgets the grant when the registry changes", async () => {
    const registry = (n: string) => `urn:ngsi-ld:AuthorizationRegistry:${n}`;
    mockApi({
      "GET /authorization-registries": {
        body: [
          { id: registry("a"), name: "Registry A" },
          { id: registry("b"), name: "Registry B" },
        ],
      },
      "GET /authorization-registry-grants": {
        body: [
          {
            id: "urn:ngsi-ld:AuthorizationRegistryGrant:a",
            name: "Key for A",
            hasAuthorizationRegistry: registry("a"),
          },
          {
            id: "urn:ngsi-ld:AuthorizationRegistryGrant:b",
            name: "Key for B",
            hasAuthorizationRegistry: registry("b"),
          },
        ],
      },
    });
    const { user, client } = renderAt("/tool", "/tool", <AuthorizationRegistryTool />);
    await settled(client);
    const registrySelect = screen.getByLabelText("Authorization registry");
    const grantSelect = screen.getByLabelText("Authorization registry grant");
    await user.selectOptions(registrySelect, "Registry A");
    expect(
      within(grantSelect)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Choose…", "Key for A"]);
    await user.selectOptions(grantSelect, "Key for A");
    await user.selectOptions(registrySelect, "Registry B");
    expect(grantSelect).toHaveDisplayValue("Choose…");
    expect(
      within(grantSelect)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Choose…", "Key for B"]);
  });
});
