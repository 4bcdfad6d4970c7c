import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ContextDataTabs } from "../src/context-data/ContextDataTabs.tsx";
import {
  building,
  dataModel,
  modelRoutes,
  mockContextApi,
  T,
  type RawCall,
  type RawRoutes,
} from "./context-data-support.tsx";
import { renderAt, settled } from "./support.tsx";

const shelf = { id: "urn:ngsi-ld:Shelf:s1", type: "Shelf", name: { type: "Property", value: "Top shelf" } };
const alice = { id: "urn:ngsi-ld:Person:alice", type: "Person", name: { type: "Property", value: "Alice" } };

function renderCard(overrides: RawRoutes = {}) {
  const calls = mockContextApi({
    ...modelRoutes,
    [`GET /workspace/ws1/entities/${building.id}`]: { body: building },
    [`GET /workspace/ws1/entities/${alice.id}`]: { body: alice },
    "GET /workspace/ws1/entities": (call: RawCall) =>
      call.query.get("type") === "Shelf"
        ? { body: [shelf], headers: { "x-total-count": "1" } }
        : { body: [] },
    ...overrides,
  });
  const url = `/workspace/ws1?typeId=${encodeURIComponent(T.building)}&entityId=${encodeURIComponent(building.id)}`;
  const view = renderAt(url, "/workspace/:workspaceId", <ContextDataTabs workspaceId="ws1" />);
  return { calls, ...view };
}

const row = (name: string) => {
  const table = screen.getByRole("table", { name: "Properties of the entity" });
  return within(table).getByRole("link", { name }).closest("tr")!;
};

describe("entity card", () => {
  it("shows every kind of attribute of the data model, and the others apart", async () => {
    const { client } = renderCard();
    expect(await screen.findByRole("heading", { name: "Main building (Building)" })).toBeInTheDocument();
    await settled(client);
    expect(within(row("name")).getByText("Main building")).toBeInTheDocument();
    expect(within(row("height")).getByText("42.5")).toBeInTheDocument();
    expect(within(row("open")).getByRole("img", { name: "Yes" })).toBeInTheDocument();
    expect(within(row("meta")).getByText('{"floors":3,"architect":"Eiffel"}')).toBeInTheDocument();
    expect(within(row("tags")).getByText('["a","b"]')).toBeInTheDocument();
    expect(within(row("location")).getByText("Point [2.35, 48.85]")).toBeInTheDocument();
    const owner = within(row("owner")).getByRole("link", { name: alice.id });
    expect(owner.getAttribute("href")).toContain(`typeId=${encodeURIComponent(T.person)}`);
    // Multi-valued: each instance with its datasetId, observedAt and sub-properties; a clock to the history.
    const temperature = row("temperature");
    expect(within(temperature).getByText(/urn:ngsi-ld:Dataset:north/)).toBeInTheDocument();
    expect(within(temperature).getByText(/urn:ngsi-ld:Dataset:south/)).toBeInTheDocument();
    expect(within(temperature).getAllByText("2025-01-31T10:00:00Z")).toHaveLength(2);
    expect(within(temperature).getByText("CEL")).toBeInTheDocument();
    expect(within(temperature).getByRole("link", { name: "History of temperature" })).toHaveAttribute(
      "href",
      expect.stringContaining("/temporal-entities/"),
    );
    expect(within(row("height")).queryByRole("link", { name: /History/ })).toBeNull();
    // The attribute the data model does not declare.
    const others = screen.getByRole("table", { name: "Other attributes" });
    expect(within(others).getByText("extra")).toBeInTheDocument();
    expect(within(others).getByText("not in the model")).toBeInTheDocument();
  });

  it("shows the attributes of NGSI-LD 1.8 written by another client, never a blank", async () => {
    const written = {
      ...building,
      label: { type: "LanguageProperty", languageMap: { en: "Town hall", fr: "Hôtel de ville" } },
      category: { type: "VocabProperty", vocab: ["office", "public"] },
      config: { type: "JsonProperty", json: { mode: "eco" } },
      readings: { type: "ListProperty", valueList: [1, 2, 3] },
      neighbours: { type: "ListRelationship", objectList: [{ object: "urn:ngsi-ld:Building:n1" }] },
    };
    const { client } = renderCard({ [`GET /workspace/ws1/entities/${building.id}`]: { body: written } });
    await screen.findByRole("heading", { name: "Main building (Building)" });
    await settled(client);
    const others = screen.getByRole("table", { name: "Other attributes" });
    expect(within(others).getByText("Hôtel de ville")).toHaveAttribute("lang", "fr");
    expect(within(others).getByText("office, public")).toBeInTheDocument();
    expect(within(others).getByText('{"mode":"eco"}')).toBeInTheDocument();
    expect(within(others).getByText("[1,2,3]")).toBeInTheDocument();
    expect(within(others).getByText("urn:ngsi-ld:Building:n1")).toBeInTheDocument();
  });

  it("lists what the entity points to and what points to it, grouped by type", async () => {
    const { calls, client } = renderCard();
    await screen.findByRole("heading", { name: "Main building (Building)" });
    await settled(client);
    const ascending = screen.getByRole("navigation", { name: "Ascending relationships" });
    expect(within(ascending).getByRole("button", { name: "Person (1)" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Person" })).toHaveTextContent("Alice");
    expect(screen.getByRole("button", { name: "Shelf (1)" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Shelf" })).toHaveTextContent("Top shelf");
    const descending = calls.find(
      (c) => c.path === "/workspace/ws1/entities" && c.query.get("type") === "Shelf",
    )!;
    expect(descending.query.get("q")).toBe(`locatedIn=="${building.id}"`);
  });

  it("marks a target that does not exist instead of showing an error, and opens on a type that points here", async () => {
    const worksIn = {
      id: "urn:ngsi-ld:Property:worksIn",
      name: "worksIn",
      hasType: T.person,
      ngsiLdType: "Relationship",
      relationshipType: T.building,
    };
    const { client } = renderCard({
      "GET /workspace/ws1/properties": { body: [...dataModel.properties, worksIn] },
      [`GET /workspace/ws1/entities/${alice.id}`]: {
        status: 404,
        body: { title: "Not found", detail: "no such entity" },
      },
      "GET /workspace/ws1/entities": (call: RawCall) =>
        call.query.get("type") === "Person"
          ? { body: [alice], headers: { "x-total-count": "1" } }
          : { body: [], headers: { "x-total-count": "0" } },
    });
    await screen.findByRole("heading", { name: "Main building (Building)" });
    await settled(client);
    expect(screen.queryByTestId("error-alert")).toBeNull();
    const ascending = screen.getAllByRole("table", { name: "Person" })[0]!;
    expect(ascending).toHaveTextContent(`${alice.id} does not exist`);
    expect(within(ascending).queryByRole("link")).toBeNull();
    // Descending: Shelf comes first but has none; Person, which points here, is shown.
    const descending = screen.getByRole("navigation", { name: "Descending relationships" });
    expect(within(descending).getByRole("button", { name: "Person (1)" })).toHaveClass("active");
    expect(screen.getAllByRole("table", { name: "Person" })[1]).toHaveTextContent("Alice");
  });

  it("shows a failed relationship request in an error alert without hiding the rest", async () => {
    const { client } = renderCard({
      "GET /workspace/ws1/entities": { status: 502, body: { title: "Bad gateway", detail: "broker down" } },
    });
    await screen.findByRole("heading", { name: "Main building (Building)" });
    await settled(client);
    expect(screen.getByTestId("error-alert")).toHaveTextContent("Bad gateway");
    expect(screen.getByRole("table", { name: "Person" })).toHaveTextContent("Alice");
    expect(screen.getByRole("table", { name: "Properties of the entity" })).toBeInTheDocument();
  });

  it("asks before deleting the entity, then goes back to the list", async () => {
    const { calls, user, client } = renderCard({
      [`DELETE /workspace/ws1/entities/${building.id}`]: { status: 204 },
    });
    await screen.findByRole("heading", { name: "Main building (Building)" });
    await settled(client);
    await user.click(screen.getByRole("button", { name: "Delete the entity" }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE")).toBe(true));
  });
});
