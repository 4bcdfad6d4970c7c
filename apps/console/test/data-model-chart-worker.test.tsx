import { screen, waitFor } from "@testing-library/react";
import { afterAll, describe, expect, it, vi } from "vitest";
import { layoutInput } from "../src/workspaces/chartInput.ts";
import { layout } from "../src/workspaces/chartLayout.ts";
import type { LayoutRecords } from "../src/workspaces/chartLayout.worker.ts";
import { mockApi, renderAt } from "./support.tsx";

// A worker as the browser runs one: the message is copied (structured clone) both ways, the answer
// comes in a later task, from the modules the worker imports (chartLayout.worker.ts).
const posted: LayoutRecords[] = [];
class LayoutWorker extends EventTarget {
  postMessage(message: { id: number; records: LayoutRecords }) {
    const copy = structuredClone(message);
    posted.push(copy.records);
    setTimeout(() => {
      const { types, properties, dataServices } = copy.records;
      const result = layout(layoutInput(types, properties, dataServices));
      const answer = structuredClone({ id: copy.id, result });
      this.dispatchEvent(new MessageEvent("message", { data: answer }));
    }, 20);
  }
  terminate() {}
}
vi.stubGlobal("Worker", LayoutWorker);
afterAll(() => vi.unstubAllGlobals());

const { default: DataModelChart } = await import("../src/workspaces/DataModelChart.tsx");
const { chartModel } = await import("../src/workspaces/chartModel.ts");

// 150 types in a chain, names the page did not choose.
const many = Array.from({ length: 150 }, (_, i) => ({ id: `t${i}`, name: `T${i} .*+?(|\\` }));
const chain = many.slice(1).map((type, i) => ({
  id: `p${i}`,
  name: `ref${i}`,
  hasType: many[i]!.id,
  ngsiLdType: "Relationship",
  relationshipType: type.id,
}));

describe("data-model chart of more than a hundred types", () => {
  it("is laid out in a worker, where the page would have put its types", async () => {
    mockApi();
    const { container } = renderAt(
      "/workspace/ws1",
      "/workspace/:workspaceId",
      <DataModelChart
        workspaceId="ws1"
        types={many}
        properties={chain}
        hiddenGroups={new Set()}
        canMove={() => true}
        onSelect={vi.fn()}
        onOpen={vi.fn()}
      />,
    );
    // Until the worker answers, the chart says it is loading.
    expect(screen.getByRole("figure")).toContainElement(screen.getByRole("status", { name: "Loading…" }));
    await waitFor(() => expect(screen.getByRole("figure")).toHaveAttribute("data-types", "150"));
    expect(posted).toHaveLength(1);
    // The types drawn stand where a layout on the page puts them.
    const expected = new Map(chartModel(many, chain).nodes.map((n) => [n.id, n.position]));
    const drawn = [...container.querySelectorAll<HTMLElement>(".react-flow__node")];
    expect(drawn.length).toBeGreaterThan(2);
    for (const node of drawn) {
      const { x, y } = expected.get(node.dataset.id!)!;
      expect(node.style.transform).toBe(`translate(${x}px,${y}px)`);
    }
  });
});
