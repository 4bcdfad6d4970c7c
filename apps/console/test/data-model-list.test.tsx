import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { DataModelList } from "../src/workspaces/DataModelList.tsx";
import { renderAt } from "./support.tsx";

// Names as a user may type them, regex and markup characters included.
const types = [
  { id: "t1", name: "Building.*+?(|\\", dataModelGroup: "infrastructure" },
  { id: "t2", name: "Room<b>", dataModelGroup: "equipment" },
  { id: "t3", name: "Sensor" },
];
const properties = [
  { id: "p1", name: "refBuilding", hasType: "t2", ngsiLdType: "Relationship", relationshipType: "t1" },
  { id: "p2", name: "area", hasType: "t2", ngsiLdType: "Property" },
  { id: "p3", name: "refGone", hasType: "t3", ngsiLdType: "Relationship", relationshipType: "unknown" },
  // Auto-discovered: its target outside the model, the type naming itself.
  {
    id: "p4",
    name: "refOwner",
    hasType: "t3",
    ngsiLdType: "Relationship",
    relationshipType: "t3",
    relationshipTarget: "Person",
  },
];

function renderList(hidden: string[] = [], selected?: string) {
  const onSelect = vi.fn();
  const view = renderAt(
    "/",
    "/",
    <DataModelList
      types={types}
      properties={properties}
      hiddenGroups={new Set(hidden)}
      selectedTypeId={selected}
      typePath={(id) => `/types/${id}`}
      onSelect={onSelect}
    />,
  );
  return { ...view, onSelect };
}

describe("the data-model chart's types as a list", () => {
  it("names each type, links it, and says where each of its relationships leads", async () => {
    renderList();
    const table = screen.getByRole("table", { name: /types/i });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getByRole("link").textContent)).toEqual([
      "Building.*+?(|\\",
      "Room<b>",
      "Sensor",
    ]);
    expect(within(rows[0]!).getByRole("link")).toHaveAttribute("href", "/types/t1");
    expect(
      within(rows[1]!)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["refBuilding → Building.*+?(|\\"]);
    // A plain property is no arrow of the chart; a target outside the model is named as the chart does.
    expect(
      within(rows[2]!)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["refGone → ?", "refOwner → Person"]);
  });

  it("shows a type's entities from its button, and marks the one chosen", async () => {
    const { onSelect, user } = renderList([], "t2");
    const room = screen.getByRole("button", { name: "Show entities (Room<b>)" });
    expect(room).toHaveAttribute("aria-pressed", "true");
    const sensor = screen.getByRole("button", { name: "Show entities (Sensor)" });
    expect(sensor).toHaveAttribute("aria-pressed", "false");
    await user.click(sensor);
    expect(onSelect).toHaveBeenCalledWith("t3");
  });

  it("leaves out the groups the chart hides", () => {
    renderList(["equipment"]);
    expect(screen.queryByRole("link", { name: "Room<b>" })).toBeNull();
    expect(screen.getByRole("link", { name: "Sensor" })).toBeVisible();
  });
});
