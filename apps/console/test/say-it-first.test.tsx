import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { contracts, dataActions, isShowroom, roles, type Permission } from "@orrery/model";
import { ListPage } from "../src/resources/ListPage.tsx";
import { FormPage } from "../src/resources/FormPage.tsx";
import { fieldErrorText } from "../src/resources/fieldErrors.ts";
import { SynchronizeContract, SynchronizeRole } from "../src/trust/Synchronize.tsx";
import { Siop2Login } from "../src/trust/Siop2Login.tsx";
import AuthorizationRegistryTool from "../src/tools/AuthorizationRegistryTool.tsx";
import { WorkspaceView } from "../src/workspaces/WorkspaceView.tsx";
import { chartModel } from "../src/workspaces/chartModel.ts";
import i18n from "../src/i18n/index.ts";
import { allow, field, mockApi, renderAt, sent, settled } from "./support.tsx";

// Issue 25, "Say it before it fails" and "Privacy and the spec's details": what a screen says
// before a call would fail, and the small details of the spec.

const ws = "ws1";
const role = { id: "urn:ngsi-ld:Role:auditor", name: "Auditor" };

describe("say it before it fails", () => {
  it("disables a role's synchronisation in a workspace without a registry, and says why", async () => {
    mockApi({ [`GET /workspaces/${ws}`]: { body: { id: ws, name: "Shop", enableOffers: false } } });
    const { client } = renderAt(
      `/workspace/${ws}/roles/x`,
      "/workspace/:workspaceId/roles/x",
      <SynchronizeRole role={role} />,
    );
    await settled(client);
    const button = await screen.findByRole("button", { name: "Synchronize with the authorization registry" });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAccessibleDescription(/This workspace has no authorization registry and grant/);
  });

  it("leaves it enabled when the workspace has a registry and a grant", async () => {
    mockApi({
      [`GET /workspaces/${ws}`]: {
        body: { id: ws, name: "Shop", hasAuthorizationRegistry: "r", hasAuthorizationRegistryGrant: "g" },
      },
    });
    const { client } = renderAt(
      `/workspace/${ws}/roles/x`,
      "/workspace/:workspaceId/roles/x",
      <SynchronizeRole role={role} />,
    );
    await settled(client);
    expect(
      await screen.findByRole("button", { name: "Synchronize with the authorization registry" }),
    ).toBeEnabled();
  });

  it("reads no service a showroom visitor may not read on a contract's page", async () => {
    const showroom: Permission[] = [
      { action: "GET", resource: "/showroom", exact: true },
      allow("GET", "^/api/(services|workspaces)$"),
      allow("GET", "^/api/workspaces/.+$"),
      allow("GET", "^/api/workspace/[^/]+/(?!users(/|$)).+$"),
    ];
    expect(isShowroom(showroom)).toBe(true);
    const calls = mockApi(
      {
        [`GET /workspaces/${ws}`]: { body: { id: ws, hasService: "urn:ngsi-ld:Service:s" } },
        "GET /services": { body: [{ id: "urn:ngsi-ld:Service:s", authorizationMode: "siop2" }] },
      },
      showroom,
    );
    const { client } = renderAt(
      `/workspace/${ws}/contracts/c`,
      "/workspace/:workspaceId/contracts/c",
      <SynchronizeContract contract={{ id: "c", name: "" }} />,
    );
    await settled(client);
    expect(calls.filter((c) => c.path.startsWith("/services/"))).toEqual([]);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("shows what to register in the registry tool when nothing is, with links for those who may", async () => {
    mockApi({
      "GET /authorization-registries": { body: [] },
      "GET /authorization-registry-grants": { body: [] },
    });
    const { client } = renderAt("/tools", "/tools", <AuthorizationRegistryTool />);
    await settled(client);
    expect(await screen.findByText(/No authorization registry is registered yet/)).toBeInTheDocument();
    expect(screen.queryByRole("combobox")).toBeNull();
    expect(screen.getByRole("link", { name: "Create: authorization registry" })).toHaveAttribute(
      "href",
      "/authorization-registries/create",
    );
    expect(screen.getByRole("link", { name: "Create: authorization registry grant" })).toBeInTheDocument();
  });

  it("shows the registry tool's empty state without links to a user who may not register", async () => {
    mockApi(
      { "GET /authorization-registries": { body: [] }, "GET /authorization-registry-grants": { body: [] } },
      [allow("GET", "^/api/.*$")],
    );
    const { client } = renderAt("/tools", "/tools", <AuthorizationRegistryTool />);
    await settled(client);
    expect(await screen.findByText(/No authorization registry is registered yet/)).toBeInTheDocument();
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("says the SIOP-2 login waits for the wallet, and cancels it", async () => {
    const popup = { closed: false, close: vi.fn(), location: { href: "" } };
    vi.stubGlobal(
      "open",
      vi.fn(() => popup),
    );
    const workspace = { id: ws, name: "Shop", hasService: "urn:ngsi-ld:Service:s" };
    const calls = mockApi({
      "GET /services": {
        body: [{ id: "urn:ngsi-ld:Service:s", authorizationRequired: true, authorizationMode: "siop2" }],
      },
      "POST /siop2/states": {
        status: 201,
        body: {
          state: "st",
          loginUrl: "https://verifier.example/login",
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
      },
      "GET /siop2/poll": { status: 503, body: { title: "Service unavailable" } },
    });
    const { user, client } = renderAt(
      "/workspaces",
      "/workspaces",
      <Siop2Login workspace={workspace} onLoggedIn={vi.fn()} />,
    );
    await settled(client);
    await user.click(
      await screen.findByRole("button", { name: "Log in to Shop with a verifiable credential" }),
    );
    const status = (await screen.findByText(/Waiting for your wallet/)).closest(
      "[role=status]",
    ) as HTMLElement;
    expect(status).not.toBeNull();
    await waitFor(() => expect(calls.some((c) => c.path === "/siop2/poll")).toBe(true), { timeout: 3000 });
    await user.click(within(status).getByRole("button", { name: "Cancel" }));
    expect(popup.close).toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByText(/Waiting for your wallet/)).toBeNull());
  });

  it("says why the SIOP-2 login stopped when the verifier cannot be reached", async () => {
    const popup = { closed: false, close: vi.fn(), location: { href: "" } };
    vi.stubGlobal(
      "open",
      vi.fn(() => popup),
    );
    const workspace = { id: ws, name: "Shop", hasService: "urn:ngsi-ld:Service:s" };
    mockApi({
      "GET /services": {
        body: [{ id: "urn:ngsi-ld:Service:s", authorizationRequired: true, authorizationMode: "siop2" }],
      },
      "POST /siop2/states": {
        status: 201,
        body: {
          state: "st",
          loginUrl: "https://verifier.example/login",
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
      },
      "GET /siop2/poll": {
        status: 502,
        body: {
          title: "Bad gateway",
          status: 502,
          detail: "The VC verifier Verifier could not be reached: ECONNREFUSED",
        },
      },
    });
    const { user, client } = renderAt(
      "/workspaces",
      "/workspaces",
      <Siop2Login workspace={workspace} onLoggedIn={vi.fn()} />,
    );
    await settled(client);
    await user.click(
      await screen.findByRole("button", { name: "Log in to Shop with a verifiable credential" }),
    );
    const reason = await screen.findByRole("alert", {}, { timeout: 3000 });
    expect(reason.textContent).toBe("The VC verifier Verifier could not be reached: ECONNREFUSED");
    expect(popup.close).toHaveBeenCalled();
  });
});

describe("the spec's details", () => {
  it("starts a contract at its default type, data consumer, without “Choose…”", async () => {
    mockApi({
      [`GET /workspaces/${ws}`]: { body: { id: ws, name: "Shop" } },
      [`GET /workspace/${ws}/types`]: { body: [] },
    });
    const { client } = renderAt(
      `/workspace/${ws}/contracts/create`,
      "/workspace/:workspaceId/contracts/create",
      <FormPage kind={contracts} action="create" />,
    );
    await settled(client);
    const select = field("Contract type") as HTMLSelectElement;
    expect(select.value).toBe("data-consumer");
    expect([...select.options].map((o) => o.textContent)).not.toContain("Choose…");
  });

  it("says how long a text may be, for a field without a length of its own", () => {
    const t = i18n.getFixedT("en");
    expect(fieldErrorText({ name: "verifiableCredentialType", input: "text" }, { type: "too_big" }, t)).toBe(
      "At most 1000 characters.",
    );
    expect(fieldErrorText({ name: "url", input: "url" }, { type: "too_big" }, t)).toBe(
      "At most 2000 characters.",
    );
  });

  it("lists the data actions a showroom visitor may list but not open one by one", async () => {
    mockApi(
      {
        "GET /data-actions": {
          body: ["GET", "PATCH", "POST", "PUT", "DELETE"].map((name) => ({
            id: `urn:ngsi-ld:DataAction:${name}`,
            name,
          })),
        },
      },
      [{ action: "GET", resource: "/showroom", exact: true }, allow("GET", "^/api/data-actions$")],
    );
    const { client } = renderAt("/data-actions", "/data-actions", <ListPage kind={dataActions} />);
    await settled(client);
    expect(screen.queryByText("There is no data action.")).toBeNull();
    expect(await screen.findAllByRole("row")).toHaveLength(6);
    expect(screen.queryByRole("link", { name: "GET" })).toBeNull();
  });

  it("offers the data browser, opening the entities of the chosen type", async () => {
    mockApi({
      [`GET /workspaces/${ws}`]: { body: { id: ws, name: "Shop", dataModelUpToDate: true } },
      [`GET /workspace/${ws}/types`]: { body: [{ id: "urn:ngsi-ld:Type:shelf", name: "Shelf" }] },
      [`GET /workspace/${ws}/properties`]: { body: [] },
      [`GET /workspace/${ws}/data-services`]: { body: [] },
    });
    const { user, client } = renderAt(`/workspace/${ws}`, "/workspace/:workspaceId", <WorkspaceView />);
    await settled(client);
    await user.click(await screen.findByRole("link", { name: "Data browser" }));
    const search = new URLSearchParams(screen.getByTestId("search").textContent!);
    expect(search.get("activeTab")).toBe("entities");
    expect(search.get("typeId")).toBe("urn:ngsi-ld:Type:shelf");
  });

  it("draws a relationship to a type outside the model as leaving it, not as a loop", () => {
    const model = chartModel(
      [{ id: "shelf", name: "Shelf" }],
      [
        {
          id: "p",
          name: "refDevice",
          hasType: "shelf",
          ngsiLdType: "Relationship",
          relationshipType: "shelf",
          relationshipTarget: "Device",
        },
      ],
    );
    expect(model.edges).toEqual([]);
    expect(model.nodes[0]!.data.outside).toEqual([{ property: "refDevice", target: "Device" }]);
  });

  it("keeps a relationship of a type to itself a loop", () => {
    const model = chartModel(
      [{ id: "person", name: "Person" }],
      [{ id: "p", name: "knows", hasType: "person", ngsiLdType: "Relationship", relationshipType: "person" }],
    );
    expect(model.edges.map((e) => [e.source, e.target])).toEqual([["person", "person"]]);
    expect(model.nodes[0]!.data.outside).toBeUndefined();
  });
});

void roles;
void sent;
