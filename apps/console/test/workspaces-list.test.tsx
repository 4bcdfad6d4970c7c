import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { TopBar } from "../src/app/TopBar.tsx";
import { workspaces as workspaceKind } from "@orrery/model";
import { ShowPage } from "../src/resources/ShowPage.tsx";
import { closeWorkspace, openWorkspace } from "../src/workspaces/openWorkspaces.ts";
import { WorkspacesPage } from "../src/workspaces/WorkspacesPage.tsx";
import { allow, currentPath, mockApi, renderAt, settled } from "./support.tsx";

const workspaces = [
  { id: "ws1", name: "Alpha", dataModelName: "alpha", dataModelVersion: 2, hasService: "s1" },
  { id: "ws2", name: "Beta", dataModelName: "beta", dataModelVersion: 0, hasService: "s1" },
];
const routes = {
  "GET /workspaces": { body: workspaces },
  "GET /services": { body: [{ id: "s1", name: "Demo service" }] },
  "GET /workspace/ws1/types": { body: [] },
  "GET /workspace/ws1/properties": { body: [] },
};

function renderList(permissions?: Parameters<typeof mockApi>[1]) {
  const calls = mockApi(routes, permissions);
  const view = renderAt(
    "/workspaces",
    // Any path: the bar and the list stay on screen after opening navigates away.
    "/*",
    <>
      <TopBar />
      <WorkspacesPage />
    </>,
  );
  return { calls, ...view };
}

afterEach(() => closeWorkspace("ws1"));

const secondBar = () => screen.queryByRole("navigation", { name: "Open workspaces" });

describe("workspaces list", () => {
  it("opens a workspace into the second bar and its view, and closes it without leaving", async () => {
    const { user, calls, client } = renderList();
    await settled(client);
    expect(secondBar()).toBeNull();
    await user.click(await screen.findByRole("button", { name: "Open Alpha" }));
    await waitFor(() => expect(currentPath()).toBe("/workspace/ws1"));
    // Opening loaded the view's records first.
    expect(calls.map((c) => c.path)).toEqual(
      expect.arrayContaining(["/workspace/ws1/types", "/workspace/ws1/properties"]),
    );
    expect(within(secondBar()!).getByRole("link", { name: "Alpha" })).toHaveAttribute(
      "href",
      "/workspace/ws1",
    );
    expect(JSON.parse(localStorage.getItem("orrery.openWorkspaces")!)).toEqual([
      { id: "ws1", name: "Alpha" },
    ]);

    await user.click(screen.getByRole("button", { name: "Close Alpha" }));
    expect(secondBar()).toBeNull();
    expect(currentPath()).toBe("/workspace/ws1");
    expect(screen.getByRole("button", { name: "Open Alpha" })).toBeInTheDocument();
  });

  it("links the service and, from version 1 on, the context file", async () => {
    const { client } = renderList();
    await settled(client);
    const alpha = screen.getByRole("row", { name: /Alpha/ });
    expect(within(alpha).getByRole("link", { name: "Alpha" })).toHaveAttribute("href", "/workspaces/ws1");
    expect(within(alpha).getByRole("link", { name: "Demo service" })).toHaveAttribute("href", "/services/s1");
    expect(within(alpha).getByRole("link", { name: "2" })).toHaveAttribute(
      "href",
      `${window.location.origin}/data-models/alpha/2/context.jsonld`,
    );
    const beta = screen.getByRole("row", { name: /Beta/ });
    expect(within(beta).queryByRole("link", { name: "0" })).toBeNull();
    expect(screen.getByRole("link", { name: "Create: workspace" })).toBeInTheDocument();
  });

  it("lists only what the user may show, without create, and names the service without a link", async () => {
    const { client } = renderList([
      allow("GET", "^/api/workspaces(/ws1)?$"),
      allow("GET", "^/api/services$"),
    ]);
    await settled(client);
    expect(screen.getByRole("link", { name: "Alpha" })).toBeInTheDocument();
    expect(screen.queryByText("Beta")).toBeNull();
    expect(screen.queryByRole("link", { name: "Create: workspace" })).toBeNull();
    expect(screen.getByText("Demo service").tagName).toBe("SPAN");
  });

  it("says so when there is no workspace", async () => {
    mockApi({ "GET /workspaces": { body: [] } });
    const { client } = renderAt("/workspaces", "/workspaces", <WorkspacesPage />);
    await settled(client);
    expect(screen.getByText("There is no workspace.")).toBeInTheDocument();
  });
});

describe("deleting a workspace", () => {
  it("removes it from the bar of open workspaces", async () => {
    openWorkspace({ id: "ws1", name: "Alpha" });
    mockApi({
      "GET /workspaces/ws1": { body: workspaces[0] },
      "GET /services": { body: [{ id: "s1", name: "Demo service" }] },
      "DELETE /workspaces/ws1": { status: 204 },
    });
    const { user, client } = renderAt(
      "/workspaces/ws1",
      "/workspaces/:workspaceId",
      <>
        <TopBar />
        <ShowPage kind={workspaceKind} />
      </>,
    );
    await settled(client);
    expect(within(secondBar()!).getByRole("link", { name: "Alpha" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    // The page leaves for the list (unmounting this bar): what the bar shows next is the stored list.
    await waitFor(() => expect(JSON.parse(localStorage.getItem("orrery.openWorkspaces")!)).toEqual([]));
  });
});
