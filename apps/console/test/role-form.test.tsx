import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { roles } from "@orrery/model";
import { FormPage } from "../src/resources/FormPage.tsx";
import { field, mockApi, renderAt, sent } from "./support.tsx";

// A role's roleName is the access subject the authorization registry knows it by: one word,
// proposed from the name while the user has not written their own.

const workspace = "urn:ngsi-ld:Workspace:1";

function renderRoleForm() {
  const calls = mockApi({
    [`GET /workspaces/${workspace}`]: { body: { id: workspace, name: "Supermarket" } },
    [`POST /workspace/${workspace}/roles`]: (call) => ({
      status: 201,
      body: { id: "urn:ngsi-ld:Role:1", ...(call.body as object) },
    }),
  });
  const view = renderAt(
    `/workspace/${encodeURIComponent(workspace)}/roles/create`,
    "/workspace/:workspaceId/roles/create",
    <FormPage kind={roles} action="create" />,
  );
  return { calls, ...view };
}

describe("role form", () => {
  it("proposes the roleName from the name, follows it, and keeps one the user wrote", async () => {
    const { user } = renderRoleForm();
    await user.type(field("Name"), "Logistics partner");
    await waitFor(() => expect(field("Role name")).toHaveValue("Logistics_partner"));
    await user.type(field("Name"), " team");
    await waitFor(() => expect(field("Role name")).toHaveValue("Logistics_partner_team"));
    // Written over (an emptied field takes the proposal again, as every form default does).
    await user.tripleClick(field("Role name"));
    await user.keyboard("Carrier");
    expect(field("Role name")).toHaveValue("Carrier");
    await user.type(field("Name"), "s");
    expect(field("Role name")).toHaveValue("Carrier");
  });

  it("refuses a roleName with a space before sending anything", async () => {
    const { user, calls } = renderRoleForm();
    await user.type(field("Name"), "Stock analyst");
    await user.tripleClick(field("Role name"));
    await user.keyboard("Stock analyst");
    await user.click(screen.getByRole("button", { name: "Create" }));
    expect(
      await screen.findByText(
        "One word without spaces (the access subject the authorization registry knows the role by).",
      ),
    ).toBeInTheDocument();
    expect(sent(calls, "POST")).toEqual([]);
  });
});
