import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SubscriptionForm } from "../src/context-data/SubscriptionForm.tsx";
import { routePaths, routeTo } from "../src/routes.ts";
import { modelRoutes, mockContextApi, T, type RawCall } from "./context-data-support.tsx";
import { currentPath, renderAt, settled } from "./support.tsx";

function renderForm() {
  const calls = mockContextApi({
    ...modelRoutes,
    "POST /workspace/ws1/subscriptions": (call: RawCall) => ({
      status: 201,
      body: { id: "urn:ngsi-ld:Subscription:s1", ...(call.body as object) },
    }),
  });
  const url = `${routeTo("subscriptions.create", { workspaceId: "ws1" })}?typeId=${encodeURIComponent(T.building)}`;
  const view = renderAt(url, routePaths["subscriptions.create"]!, <SubscriptionForm />);
  return { calls, ...view };
}

const addEntity = () => screen.getByRole("button", { name: "Add an entity" });

describe("subscription form", () => {
  it("starts with one entity row of the selected type, and adds a row only when the last one has something", async () => {
    const { user, client } = renderForm();
    await settled(client);
    expect(await screen.findByLabelText("Type")).toHaveValue("Building");
    expect(
      screen.getByText(
        "In order for the product to be able to find the subscription, a type should be associated with the entity.",
      ),
    ).toBeInTheDocument();
    expect(addEntity()).toBeEnabled();
    await user.clear(screen.getByLabelText("Type"));
    expect(addEntity()).toBeDisabled();
    await user.type(screen.getByLabelText("Id pattern"), "urn:ngsi-ld:Building:.*");
    expect(addEntity()).toBeEnabled();
    await user.click(addEntity());
    expect(screen.getAllByLabelText("Id pattern")).toHaveLength(2);
    expect(addEntity()).toBeDisabled();
  });

  it("requires the endpoint and a throttling of at least 1", async () => {
    const { calls, user, client } = renderForm();
    await settled(client);
    await user.type(await screen.findByLabelText("Throttling (seconds)"), "0");
    await user.click(screen.getByRole("button", { name: "Create" }));
    expect(await screen.findByText("The value must be at least 1.")).toBeInTheDocument();
    expect(screen.getByText("This field is required.")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Throttling (seconds)"));
    await user.type(screen.getByLabelText("Throttling (seconds)"), "2.5");
    expect(await screen.findByText("Enter a whole number.")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("sends only the fields that are filled in, active by default, then shows the subscription", async () => {
    const { calls, user, client } = renderForm();
    await settled(client);
    await user.type(await screen.findByLabelText("Subscription name"), "Too hot");
    await user.click(
      within(screen.getByRole("group", { name: "Watched attributes" })).getByRole("checkbox", {
        name: "height",
      }),
    );
    await user.type(screen.getByLabelText("Endpoint URI *"), "http://127.0.0.1:9999/notify");
    await user.selectOptions(screen.getByLabelText("Format"), "keyValues");
    await user.type(screen.getByLabelText("Throttling (seconds)"), "5");
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      type: "Subscription",
      subscriptionName: "Too hot",
      entities: [{ type: "Building" }],
      watchedAttributes: ["height"],
      isActive: true,
      notification: { format: "keyValues", endpoint: { uri: "http://127.0.0.1:9999/notify" } },
      throttling: 5,
    });
    await waitFor(() =>
      expect(currentPath()).toBe("/workspace/ws1/subscriptions/urn%3Angsi-ld%3ASubscription%3As1"),
    );
  });
});
