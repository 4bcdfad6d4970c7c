import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AutoDiscover } from "../src/workspaces/AutoDiscover.tsx";
import { admin, allow, mockApi, renderAt, sent, settled, type Answer } from "./support.tsx";

const path = "/workspace/ws1/data-model/auto-discover";

function renderButton(answer: Answer, upToDate = true, permissions = admin) {
  const calls = mockApi(
    {
      "GET /workspaces/ws1": { body: { id: "ws1", name: "Alpha", dataModelUpToDate: upToDate } },
      [`POST ${path}`]: answer,
    },
    permissions,
  );
  const view = renderAt(
    "/workspace/ws1/types",
    "/workspace/:workspaceId/types",
    <AutoDiscover workspaceId="ws1" />,
  );
  return { calls, ...view };
}

const report = {
  types: ["Building", "Sensor"],
  properties: [
    { type: "Building", name: "floors" },
    { type: "Sensor", name: "refBuilding" },
  ],
  skipped: [{ type: "Sensor", name: "odd", reason: "mixed value types" }],
};

describe("auto-discover", () => {
  it("asks first, and No sends nothing", async () => {
    const { user, calls } = renderButton({ body: report });
    await user.click(await screen.findByRole("button", { name: "Auto-discover" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Are you sure you want to auto-discover the data model");
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(sent(calls, "POST")).toHaveLength(0);
  });

  it("tells what was added and left out, then reads the workspace, types and properties again", async () => {
    const { user, calls } = renderButton({ body: report });
    await user.click(await screen.findByRole("button", { name: "Auto-discover" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Yes" }));
    const success = await screen.findByRole("dialog", { name: "Success" });
    expect(success).toHaveTextContent("The data model has been auto-discovered.");
    expect(success).toHaveTextContent("Types added (2)");
    expect(success).toHaveTextContent("Properties added (2)");
    expect(success).toHaveTextContent("Building: floors");
    expect(success).toHaveTextContent("Left out (1)");
    expect(success).toHaveTextContent("Sensor: odd (mixed value types)");
    expect(sent(calls, "POST").map((c) => c.path)).toEqual([path]);
    await waitFor(() => expect(calls.filter((c) => c.path === "/workspaces/ws1").length).toBeGreaterThan(1));
  });

  it("shows the failure dialog with the server's detail and the error alert", async () => {
    const detail = "The broker Main broker could not be reached.";
    const { user } = renderButton({ status: 502, body: { title: "Bad gateway", status: 502, detail } });
    await user.click(await screen.findByRole("button", { name: "Auto-discover" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Yes" }));
    const failure = await screen.findByRole("dialog", { name: "Error" });
    expect(failure).toHaveTextContent("The auto-discovery of the data model has failed.");
    expect(failure).toHaveTextContent(detail);
    expect(screen.getByTestId("error-alert")).toHaveTextContent("Bad gateway");
    // Among the header's buttons, the alert takes a line of its own after them.
    expect(screen.getByTestId("error-alert")).toHaveClass("w-100", "order-last");
  });

  it("is hidden while the data model is outdated", async () => {
    const { client } = renderButton({ body: report }, false);
    await settled(client);
    expect(screen.queryByRole("button", { name: "Auto-discover" })).toBeNull();
  });

  it("is hidden without the permission", async () => {
    const { client } = renderButton({ body: report }, true, [allow("GET", "^/api/.*$")]);
    await settled(client);
    expect(screen.queryByRole("button", { name: "Auto-discover" })).toBeNull();
  });

  it("speaks French", async () => {
    const { setLanguage } = await import("../src/i18n/index.ts");
    setLanguage("fr");
    try {
      const { user } = renderButton({ status: 409, body: { title: "Conflict", status: 409 } });
      await user.click(await screen.findByRole("button", { name: "Découverte automatique" }));
      await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Oui" }));
      const failure = await screen.findByRole("dialog", { name: "Erreur" });
      expect(failure).toHaveTextContent("La découverte automatique du modèle de données a échoué.");
    } finally {
      setLanguage("en");
    }
  });
});
