import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SynchronizeRole } from "../src/trust/Synchronize.tsx";
import { mockApi, renderAt, sent, settled } from "./support.tsx";

// A role's synchronisation in a workspace whose service is in FDSC mode: with the PAP, not a
// registry (none needed), its lines shown when it is done.

const ws = "ws1";
const service = "urn:ngsi-ld:Service:fdsc";
const role = { id: "urn:ngsi-ld:Role:operator", name: "Operator" };

describe("a role's synchronisation in FDSC mode", () => {
  it("goes to the policy administration point without a registry, Permit or Deny, and shows its lines", async () => {
    const calls = mockApi({
      [`GET /workspaces/${ws}`]: {
        body: { id: ws, name: "Clusters", hasService: service, enableOffers: false },
      },
      [`GET /services/${service}`]: {
        body: { id: service, name: "Clusters", authorizationRequired: true, authorizationMode: "fdsc" },
      },
      [`POST /workspace/${ws}/roles/${encodeURIComponent(role.id)}/synchronize`]: {
        body: {
          ...role,
          synchronized: true,
          details: ["✔ K8SCluster: the PAP returns the policy orreryabc as written"],
        },
      },
    });
    const { user, client } = renderAt(
      `/workspace/${ws}/roles/x`,
      "/workspace/:workspaceId/roles/x",
      <SynchronizeRole role={role} />,
    );
    await settled(client);
    const button = await screen.findByRole("button", {
      name: "Synchronize with the policy administration point",
    });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    // A dialog's first opening loads its code (errors/Dialogs.tsx): it shows a moment after the click.
    expect(
      await screen.findByText(/as ODRL policies \(Permit\), or remove them \(Deny\)\?/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Yes" }));
    await user.click(await screen.findByRole("button", { name: "Permit" }));
    const done = await screen.findByText(
      "The role Operator is synchronized: the policy administration point returns its policies as written.",
    );
    expect(within(done.closest(".modal")!).getByTestId("synchronization-lines")).toHaveTextContent(
      "✔ K8SCluster",
    );
    expect(sent(calls, "POST")[0]!.body).toEqual({ effect: "Permit" });
  });
});

describe("a role changed since its last synchronisation", () => {
  it("says so on the role page, to whoever reads it, until it is synchronised again", async () => {
    mockApi({
      [`GET /workspaces/${ws}`]: {
        body: { id: ws, name: "Clusters", hasService: service, enableOffers: false },
      },
      [`GET /services/${service}`]: {
        body: { id: service, name: "Clusters", authorizationRequired: true, authorizationMode: "fdsc" },
      },
    });
    const stale = { ...role, synchronized: false, changedSinceSynchronization: true };
    const { client, unmount } = renderAt(
      `/workspace/${ws}/roles/x`,
      "/workspace/:workspaceId/roles/x",
      <SynchronizeRole role={stale} />,
    );
    await settled(client);
    expect(
      screen.getByText(
        "Changed since its last synchronisation: synchronise again so that the authorization registry (or the PAP) says what the role says now.",
      ),
    ).toBeInTheDocument();
    unmount();
    const fresh = { ...role, synchronized: true, changedSinceSynchronization: false };
    renderAt(`/workspace/${ws}/roles/x`, "/workspace/:workspaceId/roles/x", <SynchronizeRole role={fresh} />);
    await screen.findByRole("button", { name: "Synchronize with the policy administration point" });
    expect(screen.queryByTestId("role-changed-since-synchronization")).toBeNull();
  });
});
