import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { WorkspaceView } from "../src/workspaces/WorkspaceView.tsx";
import { mockContextApi, modelRoutes, T } from "./context-data-support.tsx";
import { renderAt, settled } from "./support.tsx";

// Whether the entities tab's list was on the page when the chart first drew.
const chartSaw = vi.hoisted(() => [] as boolean[]);
vi.mock("../src/workspaces/DataModelChart.tsx", () => ({
  default: () => {
    chartSaw.push(!!document.querySelector('table[aria-label="Entities of Building"]'));
    return <div data-testid="chart" />;
  },
}));

describe("workspace view", () => {
  it("shows the entities tab's list before the chart draws when their data come together", async () => {
    mockContextApi({
      ...modelRoutes,
      "GET /workspace/ws1/data-services": { body: [] },
      "GET /workspace/ws1/entities": {
        body: [{ id: "urn:ngsi-ld:Building:1", type: "Building", name: { type: "Property", value: "One" } }],
        headers: { "x-total-count": "1" },
      },
    });
    // The chart's own data (the relationships, the data services) and the list's first page answer
    // at the same time, as they do at a start on a workspace's address (startup.ts asks for them all).
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const heldBack = [
      "/api/workspace/ws1/properties",
      "/api/workspace/ws1/data-services",
      "/api/workspace/ws1/entities",
    ];
    const answer = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      const path = new URL(String(input), "http://localhost").pathname;
      if (path === "/api/workspace/ws1/entities") release();
      if (heldBack.includes(path)) await together;
      return answer(input, init);
    });
    const { client } = renderAt(
      `/workspace/ws1?typeId=${encodeURIComponent(T.building)}`,
      "/workspace/:workspaceId",
      <WorkspaceView />,
    );
    await settled(client);
    expect(await screen.findByTestId("chart")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Entities of Building" })).toBeInTheDocument();
    expect(chartSaw[0]).toBe(true);
  });
});
