import dagre from "@dagrejs/dagre";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import DataModelChart, { dragStopHandler, useSavePosition } from "../src/workspaces/DataModelChart.tsx";
import { chartModel } from "../src/workspaces/chartModel.ts";
import { mockApi, renderAt, sent } from "./support.tsx";
import { useState } from "react";

// The layout, counted: choosing a type must not lay the chart out again.
vi.mock("../src/workspaces/chartModel.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/workspaces/chartModel.ts")>();
  return { ...actual, chartModel: vi.fn(actual.chartModel) };
});

const types = [
  { id: "t1", name: "Building", dataModelGroup: "infrastructure", positionInChart: [0, 0] },
  { id: "t2", name: "Room", dataModelGroup: "equipment" },
  { id: "t3", name: "Sensor" },
  {
    id: "t4",
    name: "Valve",
    dataModelGroup: "control",
    icon: '<svg onload="alert(1)"><script>alert(2)</script><circle r="4"/></svg>',
  },
];
const properties = [
  { id: "p1", name: "refBuilding", hasType: "t2", ngsiLdType: "Relationship", relationshipType: "t1" },
  { id: "p2", name: "area", hasType: "t2", ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
  { id: "p3", name: "refGone", hasType: "t3", ngsiLdType: "Relationship", relationshipType: "unknown" },
];

function renderChart(extra: Partial<Parameters<typeof DataModelChart>[0]> = {}) {
  mockApi();
  const props = {
    workspaceId: "ws1",
    types,
    properties,
    hiddenGroups: new Set<string>(),
    canMove: () => true,
    onSelect: vi.fn(),
    onOpen: vi.fn(),
    ...extra,
  };
  return { props, ...renderAt("/workspace/ws1", "/workspace/:workspaceId", <DataModelChart {...props} />) };
}

const node = (name: string) =>
  screen.getAllByTestId("chart-node").find((n) => n.textContent?.startsWith(name))!;

describe("data-model chart", () => {
  it("draws one node per type in its group's colour, the selected one green", async () => {
    renderChart({ selectedTypeId: "t3" });
    await waitFor(() => expect(screen.getAllByTestId("chart-node")).toHaveLength(4));
    expect(node("Building")).toHaveAttribute("data-colour", "#fc5c65");
    expect(node("Room")).toHaveAttribute("data-colour", "#a55eea");
    expect(node("Valve")).toHaveAttribute("data-colour", "#fd9644");
    expect(node("Sensor")).toHaveAttribute("data-colour", "#00b894");
  });

  it("colours the type chosen next without laying the chart out again", async () => {
    mockApi();
    const noneHidden = new Set<string>();
    function Choosing() {
      const [selected, setSelected] = useState("t3");
      return (
        <>
          <button onClick={() => setSelected("t1")}>choose Building</button>
          <DataModelChart
            workspaceId="ws1"
            types={types}
            properties={properties}
            hiddenGroups={noneHidden}
            selectedTypeId={selected}
            canMove={() => true}
            onSelect={() => undefined}
            onOpen={() => undefined}
          />
        </>
      );
    }
    const { user } = renderAt("/workspace/ws1", "/workspace/:workspaceId", <Choosing />);
    await waitFor(() => expect(node("Sensor")).toHaveAttribute("data-colour", "#00b894"));
    const layouts = vi.mocked(chartModel).mock.calls.length;
    await user.click(screen.getByRole("button", { name: "choose Building" }));
    await waitFor(() => expect(node("Building")).toHaveAttribute("data-colour", "#00b894"));
    expect(node("Sensor")).not.toHaveAttribute("data-colour", "#00b894");
    expect(vi.mocked(chartModel).mock.calls.length).toBe(layouts);
  });

  it("lays out the types nobody placed in levels, arrows pointing down by facing sides", () => {
    const model = chartModel(
      [
        { id: "a", name: "Store" },
        { id: "b", name: "Shelf" },
        { id: "c", name: "Product" },
        { id: "d", name: "Loner" },
      ],
      [
        { id: "p1", name: "refStore", hasType: "b", ngsiLdType: "Relationship", relationshipType: "a" },
        { id: "p2", name: "refShelf", hasType: "c", ngsiLdType: "Relationship", relationshipType: "b" },
        { id: "p3", name: "refStoreToo", hasType: "b", ngsiLdType: "Relationship", relationshipType: "a" },
        { id: "p4", name: "refProduct", hasType: "a", ngsiLdType: "Relationship", relationshipType: "c" },
      ],
    );
    const at = Object.fromEntries(model.nodes.map((n) => [n.id, n.position]));
    // Not in one row: a type sits a level above or below the types it points to.
    expect(new Set(Object.values(at).map((p) => p.y)).size).toBeGreaterThan(1);
    expect(at.b!.y).toBeGreaterThan(at.c!.y - 1);
    // No two nodes overlap.
    const boxes = model.nodes.map((n) => ({ ...n.position, w: n.width, h: n.height }));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y).toBe(true);
    // Two relationships between the same types: one arrow, both names.
    const shelfToStore = model.edges.filter((e) => e.source === "b" && e.target === "a");
    expect(shelfToStore).toHaveLength(1);
    expect(shelfToStore[0]!.label).toBe("refStore, refStoreToo");
    // Each arrow leaves by the side facing its target.
    for (const e of model.edges) {
      const down = at[e.target]!.y > at[e.source]!.y;
      const up = at[e.target]!.y < at[e.source]!.y;
      if (down) expect([e.sourceHandle, e.targetHandle]).toEqual(["source-bottom", "target-top"]);
      if (up) expect([e.sourceHandle, e.targetHandle]).toEqual(["source-top", "target-bottom"]);
    }
  });

  it("lays out more than a hundred types where dagre puts them without its crossing sweeps", () => {
    // 120 types in a ring, with links across it, two to themselves, one placed type, one link out.
    const many = Array.from({ length: 120 }, (_, i) => ({
      id: `t${i}`,
      name: `Type ${i}`.repeat(1 + (i % 3)),
      ...(i === 7 ? { positionInChart: [10, 20] } : {}),
    }));
    const link = (id: string, from: number, to: number | string) => ({
      id,
      name: `ref${id}`,
      hasType: `t${from}`,
      ngsiLdType: "Relationship",
      relationshipType: typeof to === "number" ? `t${to}` : to,
    });
    const links = [
      ...many.map((_, i) => link(`ring${i}`, i, (i + 1) % many.length)),
      ...Array.from({ length: 25 }, (_, k) => link(`across${k}`, (k * 37) % 120, (k * 53 + 11) % 120)),
      link("self1", 3, 3),
      link("self2", 90, 90),
      link("out", 5, "urn:ngsi-ld:Type:elsewhere"),
    ];
    const drawn = chartModel(many, links);
    const layout = dagre.layout;
    const dagreOwn = vi
      .spyOn(dagre, "layout")
      .mockImplementation((graph) => layout(graph, { disableOptimalOrderHeuristic: true }));
    try {
      expect(drawn).toEqual(chartModel(many, links));
      expect(dagreOwn).toHaveBeenCalledTimes(1);
    } finally {
      dagreOwn.mockRestore();
    }
  });

  it("lets the keyboard reach every type: Tab to it, Enter selects it", async () => {
    const { props, user } = renderChart();
    await waitFor(() => expect(screen.getAllByTestId("chart-node")).toHaveLength(4));
    const room = screen.getByRole("button", { name: "Room: show its entities" });
    room.focus();
    await user.keyboard("{Enter}");
    expect(props.onSelect).toHaveBeenCalledWith("t2");
    expect(screen.getAllByRole("button", { name: /: show its entities$/ })).toHaveLength(4);
    // The chart's own controls are named from the console's catalogue.
    expect(screen.getByRole("button", { name: "Show the whole chart" })).toBeInTheDocument();
  });

  it("draws an arrow per Relationship property to a known type, from the type to its target", async () => {
    const { container } = renderChart();
    await waitFor(() => expect(container.querySelectorAll(".react-flow__edge")).toHaveLength(1));
    const edge = container.querySelector(".react-flow__edge")!;
    expect(edge.getAttribute("data-id")).toBe("p1");
    expect(edge.querySelector("path")?.getAttribute("marker-end")).toMatch(/url\(/);
  });

  // happy-dom's parser gives DOMPurify nothing back for SVG, so only the removals are checked here.
  it("drops scripts and event handlers from a type's icon", async () => {
    renderChart();
    await waitFor(() => expect(screen.getAllByTestId("chart-node")).toHaveLength(4));
    expect(node("Valve").querySelector("script")).toBeNull();
    expect(node("Valve").querySelector("[onload]")).toBeNull();
    expect(node("Valve").innerHTML).not.toContain("alert");
  });

  it("hides the types of a filtered-out group", async () => {
    renderChart({ hiddenGroups: new Set(["equipment"]) });
    await waitFor(() => expect(screen.getAllByTestId("chart-node")).toHaveLength(3));
    expect(screen.queryByText("Room")).toBeNull();
  });
});

function DropProbe({ onReady }: { onReady: (h: ReturnType<typeof dragStopHandler>) => void }) {
  onReady(dragStopHandler(useSavePosition("ws1").mutate));
  return null;
}

describe("dragging a type", () => {
  it("saves the dropped position, rounded, with PUT position-in-chart", async () => {
    const calls = mockApi({ "PUT /workspace/ws1/types/t2/position-in-chart": { body: {} } });
    let handler: ReturnType<typeof dragStopHandler> | undefined;
    renderAt("/x", "/x", <DropProbe onReady={(h) => (handler = h)} />);
    handler!(null, { id: "t2", position: { x: 120.4, y: -33.6 } });
    await waitFor(() => expect(sent(calls, "PUT")).toHaveLength(1));
    expect(sent(calls, "PUT")[0]).toMatchObject({
      path: "/workspace/ws1/types/t2/position-in-chart",
      body: [120, -34],
    });
    // A drag of several nodes at once saves nothing, as in the original.
    handler!(null, { id: "t2", position: { x: 1, y: 1 } }, [{}, {}]);
    expect(sent(calls, "PUT")).toHaveLength(1);
  });
});
