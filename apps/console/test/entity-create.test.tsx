import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EntityCreate } from "../src/context-data/EntityCreate.tsx";
import { routePaths, routeTo } from "../src/routes.ts";
import { modelRoutes, mockContextApi, T, type RawCall } from "./context-data-support.tsx";
import { currentPath, renderAt, settled } from "./support.tsx";

function renderCreate(query: Record<string, string>) {
  const calls = mockContextApi({
    ...modelRoutes,
    "GET /workspace/ws1/entities": { body: [] },
    "POST /workspace/ws1/entities": (call: RawCall) => ({
      status: 201,
      body: { id: "urn:ngsi-ld:Shelf:new", ...(call.body as object) },
    }),
  });
  const url = `${routeTo("entities.create", { workspaceId: "ws1" })}?${new URLSearchParams(query)}`;
  const view = renderAt(url, routePaths["entities.create"]!, <EntityCreate />);
  return { calls, ...view };
}

const posted = (calls: RawCall[]) => calls.find((c) => c.method === "POST")?.body;

describe("entity creation", () => {
  it("has an optional id, one input per property, and requires the mandatory ones", async () => {
    const { calls, user, client } = renderCreate({ typeId: T.building });
    await settled(client);
    expect(
      await screen.findByText("The identifier will be generated automatically if not provided."),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("name *")).toBeInTheDocument();
    expect(screen.getByLabelText("height")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Create" }));
    expect(await screen.findByText("This field is required.")).toBeInTheDocument();
    expect(posted(calls)).toBeUndefined();
    await user.type(screen.getByLabelText("name *"), "Depot");
    await user.type(screen.getByLabelText("height"), "3,5");
    await user.click(screen.getByRole("button", { name: "Create" }));
    // Optional properties left empty are left out; the server makes the id.
    await waitFor(() =>
      expect(posted(calls)).toEqual({
        type: "Building",
        name: { type: "Property", value: "Depot" },
        height: { type: "Property", value: 3.5 },
      }),
    );
    await waitFor(() => expect(currentPath()).toBe("/workspace/ws1"));
  });

  it("creates a child: a type with a relationship to the parent's type, pointing to the parent", async () => {
    const { calls, user, client } = renderCreate({
      ascendingEntityId: "urn:ngsi-ld:Building:b1",
      ascendingTypeId: T.building,
    });
    await settled(client);
    expect(await screen.findByLabelText("Type of the child entity *")).toHaveDisplayValue("Shelf");
    expect(screen.getByLabelText("Relationship to the parent *")).toHaveDisplayValue("locatedIn");
    // The relationship is set from the parent, not typed in.
    expect(screen.queryByLabelText("locatedIn")).toBeNull();
    await user.type(screen.getByLabelText("Identifier"), "urn:ngsi-ld:Shelf:s9");
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() =>
      expect(posted(calls)).toEqual({
        id: "urn:ngsi-ld:Shelf:s9",
        type: "Shelf",
        locatedIn: { type: "Relationship", object: "urn:ngsi-ld:Building:b1" },
      }),
    );
  });
});
