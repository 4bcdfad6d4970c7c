import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AttributeCreate } from "../src/context-data/AttributeForm.tsx";
import { routePaths, routeTo } from "../src/routes.ts";
import { building, modelRoutes, mockContextApi, T, type RawCall } from "./context-data-support.tsx";
import { currentPath, renderAt, settled } from "./support.tsx";

/** The Building entity without some attributes, so that "add attribute" offers them. */
function renderAdd(without: string[]) {
  const entity = Object.fromEntries(Object.entries(building).filter(([k]) => !without.includes(k)));
  const calls = mockContextApi({
    ...modelRoutes,
    [`GET /workspace/ws1/entities/${building.id}`]: { body: entity },
    [`POST /workspace/ws1/entities/${building.id}/attrs`]: { body: entity },
    "GET /workspace/ws1/entities": (call: RawCall) =>
      call.query.get("type") === "Person"
        ? {
            body: [
              { id: "urn:ngsi-ld:Person:alice", type: "Person", name: { type: "Property", value: "Alice" } },
              { id: "urn:ngsi-ld:Person:bob", type: "Person" },
            ],
          }
        : { body: [] },
  });
  const url = routeTo("entities.properties.create", {
    workspaceId: "ws1",
    typeId: T.building,
    entityId: building.id,
  });
  const view = renderAt(url, routePaths["entities.properties.create"]!, <AttributeCreate />);
  return { calls, ...view };
}

const posted = (calls: RawCall[]) => calls.find((c) => c.method === "POST")?.body;

describe("attribute form", () => {
  it("offers only the properties the entity lacks, and multi-valued ones again", async () => {
    const { client } = renderAdd(["height", "meta"]);
    await settled(client);
    const select = await screen.findByLabelText("Attribute *");
    const options = [...(select as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options).toEqual(["height", "meta", "temperature"]);
  });

  it("reads a number with a decimal comma", async () => {
    const { calls, user, client } = renderAdd(["height"]);
    await settled(client);
    await user.type(await screen.findByLabelText("Value of height *"), "12,5");
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() => expect(posted(calls)).toEqual({ height: { type: "Property", value: 12.5 } }));
    await waitFor(() => expect(currentPath()).toContain("/properties/urn%3Angsi-ld%3AProperty%3Aheight"));
  });

  it("refuses text that is not JSON for an Object, saying why", async () => {
    const { calls, user, client } = renderAdd(["meta"]);
    await settled(client);
    const input = await screen.findByLabelText("Value of meta *");
    await user.type(input, "{{bad");
    await user.click(screen.getByRole("button", { name: "Create" }));
    expect(await screen.findByText(/This is not valid JSON:/)).toBeInTheDocument();
    expect(posted(calls)).toBeUndefined();
    await user.clear(input);
    await user.type(input, '{{"floors": 2}');
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() => expect(posted(calls)).toEqual({ meta: { type: "Property", value: { floors: 2 } } }));
  });

  it("writes a geometry from its type and coordinates", async () => {
    const { calls, user, client } = renderAdd(["location"]);
    await settled(client);
    await user.selectOptions(await screen.findByLabelText("Geometry type of location *"), "Polygon");
    const coordinates = screen.getByLabelText("Coordinates of location *");
    await user.click(coordinates);
    await user.paste("[[[2.3, 48.8], [2.4, 48.8], [2.4, 48.9], [2.3, 48.8]]]");
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() =>
      expect(posted(calls)).toEqual({
        location: {
          type: "GeoProperty",
          value: {
            type: "Polygon",
            coordinates: [
              [
                [2.3, 48.8],
                [2.4, 48.8],
                [2.4, 48.9],
                [2.3, 48.8],
              ],
            ],
          },
        },
      }),
    );
  });

  it("picks a relationship target among the entities of the target type, labelled id (name)", async () => {
    const { calls, user, client } = renderAdd(["owner"]);
    await settled(client);
    const select = await screen.findByLabelText("Value of owner *");
    await waitFor(() =>
      expect(screen.getByRole("option", { name: "urn:ngsi-ld:Person:alice (Alice)" })).toBeInTheDocument(),
    );
    expect(screen.getByRole("option", { name: "urn:ngsi-ld:Person:bob" })).toBeInTheDocument();
    const query = calls.find((c) => c.query.get("type") === "Person")!.query;
    expect(query.get("limit")).toBe("100");
    await user.selectOptions(select, "urn:ngsi-ld:Person:alice");
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() =>
      expect(posted(calls)).toEqual({ owner: { type: "Relationship", object: "urn:ngsi-ld:Person:alice" } }),
    );
  });

  it("requires observedAt for a temporal property, prefilled with now, and sends a new value of a multi-valued one", async () => {
    const { calls, user, client } = renderAdd([]);
    await settled(client);
    // Only the multi-valued temperature remains to add.
    expect(await screen.findByLabelText("Attribute *")).toHaveValue("urn:ngsi-ld:Property:temperature");
    const observedAt = screen.getByLabelText("Observed at *") as HTMLInputElement;
    expect(Math.abs(Date.parse(observedAt.value) - Date.now())).toBeLessThan(60_000);
    await user.type(screen.getByLabelText("Value of temperature *"), "20,5");
    await user.type(screen.getByLabelText("Sub-property unit *"), "CEL");
    await user.clear(observedAt);
    await user.click(screen.getByRole("button", { name: "Create" }));
    expect(await screen.findByText("This field is required.")).toBeInTheDocument();
    await user.type(observedAt, "2025-02-01T08:00:00Z");
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() =>
      expect(posted(calls)).toEqual({
        temperature: [
          {
            type: "Property",
            value: 20.5,
            observedAt: "2025-02-01T08:00:00.000Z",
            unit: { type: "Property", value: "CEL" },
          },
        ],
      }),
    );
  });
});
