import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Allowed } from "../src/app/Allowed.tsx";
import { TopBar } from "../src/app/TopBar.tsx";
import { AuthenticationPage } from "../src/auth/AuthenticationPage.tsx";
import { preloadScreenAt } from "../src/app/screens.tsx";
import { admin, allow, mockApi, renderAt, sent, settled } from "./support.tsx";

vi.mock("../src/app/screens.tsx", async (original) => ({
  ...(await original<typeof import("../src/app/screens.tsx")>()),
  preloadScreenAt: vi.fn(async () => undefined),
}));

describe("signing in and out with an identity manager that keeps its own session", () => {
  it("says on the sign-in page why signing in cannot work, when the server found its settings wrong", async () => {
    mockApi({
      "GET /auth/status": {
        body: { signInProblem: 'give it the "Manage roles" permission', application: "Market" },
      },
    });
    renderAt("/authentication", "*", <AuthenticationPage />);
    expect(await screen.findByTestId("sign-in-problem")).toHaveTextContent(
      /identity manager's settings are mended: give it the "Manage roles" permission/,
    );
  });

  it("asks the server again on each visit of the sign-in page, and stops saying it once the settings are mended", async () => {
    let problem: string | null = 'give it the "Manage roles" permission';
    mockApi({ "GET /auth/status": () => ({ body: { signInProblem: problem, application: null } }) });
    const first = renderAt("/authentication", "*", <AuthenticationPage />);
    expect(await screen.findByTestId("sign-in-problem")).toBeVisible();
    first.unmount();
    problem = null;
    const again = renderAt("/authentication", "*", <AuthenticationPage />);
    await settled(again.client);
    expect(screen.queryByTestId("sign-in-problem")).toBeNull();
  });

  it("loads the code of the page it returns to while the user signs in", async () => {
    mockApi();
    sessionStorage.setItem("orrery.returnTo", "/context-brokers?page=2");
    const { client } = renderAt("/authentication", "*", <AuthenticationPage />);
    await settled(client);
    expect(preloadScreenAt).toHaveBeenCalledWith("/context-brokers");
    sessionStorage.clear();
    vi.mocked(preloadScreenAt).mockClear();
    renderAt("/authentication", "*", <AuthenticationPage />);
    expect(preloadScreenAt).toHaveBeenCalledWith("/workspaces");
  });

  it("asks the identity manager for its pages in the console's language", async () => {
    mockApi();
    const { client } = renderAt("/authentication", "*", <AuthenticationPage />);
    await settled(client);
    expect(screen.queryByTestId("sign-in-problem")).toBeNull();
    expect(screen.getByRole("link", { name: "Continue" })).toHaveAttribute("href", "/api/auth/login?lang=en");
  });

  it("tells a user whose roles give nothing in the console why, naming the application, and offers another sign-in", async () => {
    const signOutUrl = "http://keyrock.example/auth/external_logout?_method=DELETE&client_id=app";
    const calls = mockApi(
      {
        "GET /console-config": { body: { trustModule: true, authProvider: "keyrock", signOutUrl } },
        "GET /auth/status": { body: { signInProblem: null, application: "Market <console>" } },
        "POST /auth/logout": { status: 204 },
      },
      [],
    );
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const { user, client } = renderAt(
      "/workspaces",
      "/workspaces",
      <Allowed when={(can) => can.can("GET", "/workspaces")}>workspaces</Allowed>,
    );
    await settled(client);
    expect(screen.getByTestId("not-allowed")).toHaveTextContent(
      "Your roles in the application “Market <console>” give no permission in the console",
    );
    // No link to the page the user is on.
    expect(screen.queryByRole("link", { name: "Back to the workspaces" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Sign in as someone else" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(signOutUrl));
    expect(sent(calls, "POST").map((c) => c.path)).toEqual(["/auth/logout"]);
  });

  it("keeps the way back to the workspaces for a user who may use other pages", async () => {
    mockApi({}, [allow("GET", "^/api/workspaces$")]);
    const { client } = renderAt(
      "/context-brokers/create",
      "/context-brokers/create",
      <Allowed when={(can) => can.can("POST", "/context-brokers")}>form</Allowed>,
    );
    await settled(client);
    expect(screen.getByTestId("not-allowed")).toHaveTextContent("Your account may not use this page");
    expect(screen.getByRole("link", { name: "Back to the workspaces" })).toBeVisible();
    expect(screen.queryByRole("button", { name: "Sign in as someone else" })).toBeNull();
  });

  it("ends the identity manager's session after signing out of Orrery", async () => {
    const signOutUrl = "http://keyrock.example/auth/external_logout?_method=DELETE&client_id=app";
    const calls = mockApi(
      {
        "GET /console-config": { body: { trustModule: true, authProvider: "keyrock", signOutUrl } },
        "POST /auth/logout": { status: 204 },
      },
      admin,
    );
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const { user, client } = renderAt("/workspaces", "*", <TopBar />);
    await settled(client);
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(signOutUrl));
    expect(sent(calls, "POST").map((c) => c.path)).toEqual(["/auth/logout"]);
  });
});
