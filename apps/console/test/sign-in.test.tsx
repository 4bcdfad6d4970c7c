import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TopBar } from "../src/app/TopBar.tsx";
import { AuthenticationPage } from "../src/auth/AuthenticationPage.tsx";
import { admin, mockApi, renderAt, sent, settled } from "./support.tsx";

describe("signing in and out with an identity manager that keeps its own session", () => {
  it("says on the sign-in page why signing in cannot work, when the server found its settings wrong", async () => {
    mockApi({
      "GET /console-config": {
        body: {
          trustModule: true,
          authProvider: "keyrock",
          signInProblem: 'give it the "Manage roles" permission',
        },
      },
    });
    renderAt("/authentication", "*", <AuthenticationPage />);
    expect(await screen.findByTestId("sign-in-problem")).toHaveTextContent(
      /identity manager's settings are mended: give it the "Manage roles" permission/,
    );
  });

  it("asks the identity manager for its pages in the console's language", async () => {
    mockApi();
    const { client } = renderAt("/authentication", "*", <AuthenticationPage />);
    await settled(client);
    expect(screen.queryByTestId("sign-in-problem")).toBeNull();
    expect(screen.getByRole("link", { name: "Continue" })).toHaveAttribute("href", "/api/auth/login?lang=en");
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
