import { screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import DataModelChart from "../src/workspaces/DataModelChart.tsx";
import { mockApi, renderAt } from "./support.tsx";

// What keeps the first render of a large chart short (bench/data-model): labels drawn as they are,
// and on each type only the handles its arrows use.
const types = [
  { id: "t1", name: "Building" },
  { id: "t2", name: "Room" },
  { id: "t3", name: "Sensor" },
];
const properties = [
  { id: "p1", name: "refBuilding", hasType: "t2", ngsiLdType: "Relationship", relationshipType: "t1" },
];

const hidden = new Set<string>();

function renderChart() {
  mockApi();
  const props = {
    workspaceId: "ws1",
    types,
    properties,
    hiddenGroups: new Set<string>(),
    canMove: () => true,
    onSelect: vi.fn(),
    onOpen: vi.fn(),
  };
  return renderAt("/workspace/ws1", "/workspace/:workspaceId", <DataModelChart {...props} />);
}

describe("data-model chart, first render", () => {
  it("shows a relationship's name on its arrow at once, not after measuring it", async () => {
    const { container } = renderChart();
    await waitFor(() => expect(container.querySelectorAll(".react-flow__edge")).toHaveLength(1));
    const label = screen.getByText("refBuilding");
    expect(container.querySelector(".react-flow__edge")).toContainElement(label);
    expect(label.closest('[visibility="hidden"]')).toBeNull();
  });

  it("gives each type the handles of its own arrows only", async () => {
    const { container } = renderChart();
    await waitFor(() => expect(screen.getAllByTestId("chart-node")).toHaveLength(3));
    const handles = (name: string) =>
      screen
        .getAllByTestId("chart-node")
        .find((n) => n.textContent === name)!
        .querySelectorAll(".react-flow__handle");
    expect([...handles("Room")].map((h) => h.getAttribute("data-handleid"))).toEqual(["source-bottom"]);
    expect([...handles("Building")].map((h) => h.getAttribute("data-handleid"))).toEqual(["target-top"]);
    expect(handles("Sensor")).toHaveLength(0);
    expect(container.querySelectorAll(".react-flow__handle")).toHaveLength(2);
  });

  it("lets the types be moved once the permissions arrive after the chart's data", async () => {
    mockApi();
    function View() {
      const [allowed, setAllowed] = useState(false);
      return (
        <>
          <button onClick={() => setAllowed(true)}>permissions</button>
          <DataModelChart
            workspaceId="ws1"
            types={types}
            properties={properties}
            hiddenGroups={hidden}
            canMove={() => allowed}
            onSelect={vi.fn()}
            onOpen={vi.fn()}
          />
        </>
      );
    }
    const { container, user } = renderAt("/workspace/ws1", "/workspace/:workspaceId", <View />);
    await waitFor(() => expect(screen.getAllByTestId("chart-node")).toHaveLength(3));
    expect(container.querySelectorAll(".react-flow__node.draggable")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "permissions" }));
    await waitFor(() => expect(container.querySelectorAll(".react-flow__node.draggable")).toHaveLength(3));
  });

  it("draws the types in view of a chart of 200, at its first view, the others as the view moves", async () => {
    mockApi();
    // A chain of 200 types with names the page did not choose (hostile bytes included).
    const many = Array.from({ length: 200 }, (_, i) => ({ id: `t${i}`, name: `Type${i} .*+?(|\\` }));
    const chain = many.slice(1).map((type, i) => ({
      id: `p${i}`,
      name: `ref${i}`,
      hasType: many[i]!.id,
      ngsiLdType: "Relationship",
      relationshipType: type.id,
    }));
    const { container, user } = renderAt(
      "/workspace/ws1",
      "/workspace/:workspaceId",
      <DataModelChart
        workspaceId="ws1"
        types={many}
        properties={chain}
        hiddenGroups={hidden}
        canMove={() => true}
        onSelect={vi.fn()}
        onOpen={vi.fn()}
      />,
    );
    const figure = screen.getByRole("figure");
    await waitFor(() => expect(figure).toHaveAttribute("data-types", "200"));
    const drawn = () => screen.queryAllByTestId("chart-node").map((n) => n.textContent);
    // A 500 px view at legible zoom (0.65) shows a few levels of the chain, from its middle.
    expect(drawn().length).toBeGreaterThan(2);
    expect(drawn().length).toBeLessThan(20);
    const before = drawn();
    await user.click(screen.getByRole("button", { name: "Zoom out" }));
    await user.click(screen.getByRole("button", { name: "Zoom out" }));
    await waitFor(() => expect(drawn().length).toBeGreaterThan(before.length));
    expect(drawn()).toEqual(expect.arrayContaining(before));
    expect(container.querySelectorAll(".react-flow__node")).toHaveLength(drawn().length);
  });
});
