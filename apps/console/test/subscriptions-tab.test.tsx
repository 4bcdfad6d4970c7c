import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SubscriptionsTab } from "../src/context-data/SubscriptionsTab.tsx";
import i18n from "../src/i18n/index.ts";
import { mockContextApi, T } from "./context-data-support.tsx";
import { renderAt, settled } from "./support.tsx";

// Issue 37 (review): the API's own live-channel subscriptions exist in the broker, so a type's list
// shows them, as what they are, not as a user's subscriptions to edit.

const live = {
  id: "urn:ngsi-ld:Subscription:orrery-live-0b5c6d0e-8a4f-4a44-9d6b-6a1f1c0b2a11",
  type: "Subscription",
  description: "Orrery live channel: Building, for the API's listeners (deleted when they leave)",
  entities: [{ type: "Building" }],
  notification: { endpoint: { uri: "http://127.0.0.1:3000/api/live/notify/x" } },
};
const made = {
  id: "urn:ngsi-ld:Subscription:too-hot",
  type: "Subscription",
  subscriptionName: "Too hot .*+?(|\\",
  entities: [{ type: "Building" }],
  notification: { endpoint: { uri: "http://127.0.0.1:9/notify" } },
};

function renderTab(subscriptions: unknown[]) {
  mockContextApi({ "GET /workspace/ws1/subscriptions": { body: subscriptions } });
  return renderAt(
    "/workspace/ws1",
    "/workspace/:workspaceId",
    <SubscriptionsTab workspaceId="ws1" type={{ id: T.building, name: "Building" } as never} />,
  );
}

afterEach(() => i18n.changeLanguage("en"));

describe("a type's subscriptions list", () => {
  it("shows the console's live-channel subscriptions as console live updates, not links to edit, after the user's", async () => {
    const { client } = renderTab([live, made]);
    await settled(client);
    const table = await screen.findByRole("table", { name: "Subscriptions" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole("link", { name: made.id })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent("Too hot .*+?(|\\");
    expect(rows[1]).toHaveTextContent(`Console live updates${live.id}`);
    expect(within(rows[1]!).queryByRole("link")).toBeNull();
    expect(screen.getByTestId("live-subscriptions-note")).toHaveTextContent(
      "they are not edited here, and they go when nobody watches.",
    );
  });

  it("reads the same in French", async () => {
    await i18n.changeLanguage("fr");
    const { client } = renderTab([live]);
    await settled(client);
    expect(await screen.findByText("Mises à jour en direct de la console")).toBeInTheDocument();
    // The French colon after a no-break space, as the catalogue writes it.
    expect(screen.getByTestId("live-subscriptions-note").textContent).toContain(
      "tant que quelqu’un suit ces entités en direct\u00a0: ils ne se modifient pas ici",
    );
  });

  it("says nothing of live updates when there are none", async () => {
    const { client } = renderTab([made]);
    await settled(client);
    await screen.findByRole("link", { name: made.id });
    expect(screen.queryByTestId("live-subscriptions-note")).toBeNull();
    expect(screen.queryByText("Console live updates")).toBeNull();
  });
});
