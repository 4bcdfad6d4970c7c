import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { UsersPanel } from "../src/contracts/UsersPanel.tsx";
import { allow, mockApi, renderAt, sent, settled } from "./support.tsx";

const workspace = "urn:ngsi-ld:Workspace:w";
const usersPath = `/workspace/${encodeURIComponent(workspace)}/users`;
const detail = { id: "urn:ngsi-ld:ContractDetail:d", name: "d", roleScopeName: "visitor" };
const users = [
  { id: "u-ada", username: "ada", email: "ada@test.com", roles: ["visitor"], organizationRoles: [] },
  {
    id: "u-bob",
    username: "bob",
    email: "bob@test.com",
    roles: [],
    organizationRoles: [{ role: "visitor", organization: "Acme Retail" }],
  },
  { id: "u-eve", username: "eve", email: "eve@test.com", roles: [], organizationRoles: [] },
];
const everything = ["GET", "POST", "PUT", "DELETE"].map((action) => allow(action, "^/api/.*$"));

const renderPanel = (permissions = everything) => {
  const calls = mockApi({ [`GET ${usersPath}`]: { body: users } }, permissions);
  const view = renderAt(
    `/workspaces/${workspace}`,
    "/workspaces/:workspaceId",
    <UsersPanel detail={detail} />,
  );
  return { calls, ...view };
};

describe("the users panel of a contract detail", () => {
  it("names the organisation through which a user holds the role, with no remove button for it", async () => {
    renderPanel();
    const ada = (await screen.findByRole("cell", { name: "ada" })).closest("tr")!;
    expect(within(ada).getByRole("button", { name: "Remove the role from ada" })).toBeInTheDocument();
    expect(within(ada).getByText("directly")).toBeInTheDocument();
    const bob = screen.getByRole("cell", { name: "bob" }).closest("tr")!;
    expect(within(bob).queryByRole("button")).toBeNull();
    expect(bob).toHaveTextContent(
      "Held through the organisation Acme Retail: it can only be taken away there, in the identity manager.",
    );
    // Eve holds nothing: she is among those the role can be given to.
    expect(screen.getByRole("option", { name: "eve (eve@test.com)" })).toBeInTheDocument();
  });

  it("is not shown, and asks nothing, to whom may not read the users (the showroom)", async () => {
    const { calls, client } = renderPanel([
      allow("GET", "/showroom"),
      allow("GET", "^/api/workspace/[^/]+/(?!users(/|$)).+$"),
    ]);
    await settled(client);
    expect(screen.queryByRole("region")).toBeNull();
    expect(sent(calls, "GET").map((c) => c.path)).not.toContain(usersPath);
  });
});

describe("the users panel when the identity manager keeps organisations from its account", () => {
  it("names the organisations it could not read as a warning, lists the others, and keeps Assign", async () => {
    const partner = "Partner.*+?(|\\ GmbH";
    const calls = mockApi(
      {
        [`GET ${usersPath}`]: {
          body: {
            users,
            unreadableOrganizations: [
              { id: "o-far", name: "o-far" },
              { id: "o-partner", name: partner },
            ],
          },
        },
        [`POST ${usersPath}/u-eve/roles/visitor`]: { status: 204 },
      },
      everything,
    );
    const { user } = renderAt(
      `/workspaces/${workspace}`,
      "/workspaces/:workspaceId",
      <UsersPanel detail={detail} />,
    );
    const warning = await screen.findByTestId("users-unreadable-organizations");
    expect(warning).toHaveTextContent(
      `The identity manager's management account may not read the organisations o-far, ${partner}, which hold roles in the application`,
    );
    expect(screen.getByRole("cell", { name: "ada" })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole("combobox"), "u-eve");
    await user.click(screen.getByRole("button", { name: "Assign" }));
    await waitFor(() =>
      expect(sent(calls, "POST").map((c) => c.path)).toEqual([`${usersPath}/u-eve/roles/visitor`]),
    );
    expect(sent(calls, "GET").find((c) => c.path === usersPath)).toBeDefined();
  });

  it("shows no warning when every organisation was read", async () => {
    renderPanel();
    await screen.findByRole("cell", { name: "ada" });
    expect(screen.queryByTestId("users-unreadable-organizations")).toBeNull();
  });
});
