import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SubscriptionPage } from "../src/context-data/SubscriptionPage.tsx";
import { routePaths, routeTo } from "../src/routes.ts";
import { modelRoutes, mockContextApi, T } from "./context-data-support.tsx";
import { currentPath, renderAt, settled } from "./support.tsx";

const id = "urn:ngsi-ld:Subscription:s1";

describe("subscription page", () => {
  it("shows the fields and the notification status, refreshes it, and deletes after a confirmation", async () => {
    let sent = 0;
    const calls = mockContextApi({
      ...modelRoutes,
      [`GET /workspace/ws1/subscriptions/${id}`]: () => ({
        body: {
          id,
          type: "Subscription",
          subscriptionName: "Too hot",
          entities: [{ type: "Building" }],
          watchedAttributes: ["height"],
          isActive: true,
          notification: {
            endpoint: { uri: "http://127.0.0.1:9999/notify" },
            status: "ok",
            timesSent: sent++,
            lastNotification: "2025-01-31T10:00:00Z",
          },
        },
      }),
      [`DELETE /workspace/ws1/subscriptions/${id}`]: { status: 204 },
    });
    const url = `${routeTo("subscriptions.show", { workspaceId: "ws1", subscriptionId: id })}?typeId=${encodeURIComponent(T.building)}`;
    const { user, client } = renderAt(url, routePaths["subscriptions.show"]!, <SubscriptionPage />);
    await settled(client);
    expect(await screen.findByRole("heading", { name: "Too hot" })).toBeInTheDocument();
    expect(screen.getByText("http://127.0.0.1:9999/notify")).toBeInTheDocument();
    expect(screen.getByTestId("times-sent")).toHaveTextContent("0");
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(screen.getByTestId("times-sent")).toHaveTextContent("1"));
    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE")).toBe(true));
    await waitFor(() => expect(currentPath()).toBe("/workspace/ws1"));
  });
});
