import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ContextDataTabs } from "../src/context-data/ContextDataTabs.tsx";
import { modelRoutes, mockContextApi, T, type RawCall } from "./context-data-support.tsx";
import { renderAt, settled } from "./support.tsx";

/** 100,000 buildings on the server: the console only ever asks for one page. */
function renderList(url = `/workspace/ws1?typeId=${encodeURIComponent(T.building)}`) {
  const calls = mockContextApi({
    ...modelRoutes,
    "GET /workspace/ws1/entities": (call: RawCall) => {
      const limit = Number(call.query.get("limit"));
      const offset = Number(call.query.get("offset"));
      const search = call.query.get("search");
      const ids = search
        ? [`urn:ngsi-ld:Building:${search}`]
        : Array.from({ length: limit }, (_, i) => `urn:ngsi-ld:Building:${offset + i}`);
      return {
        body: ids.map((id) => ({
          id,
          type: "Building",
          name: { type: "Property", value: `Name of ${id.slice(21)}` },
        })),
        headers: (call.query.get("count") ? { "x-total-count": "100000" } : {}) as Record<string, string>,
      };
    },
  });
  const view = renderAt(url, "/workspace/:workspaceId", <ContextDataTabs workspaceId="ws1" />);
  return { calls, ...view };
}

const listCalls = (calls: RawCall[]) => calls.filter((c) => c.path === "/workspace/ws1/entities");

describe("entities tab", () => {
  it("says that no type is selected", async () => {
    const { client } = renderList("/workspace/ws1");
    await settled(client);
    expect(await screen.findByText("No type selected: click a type in the chart.")).toBeInTheDocument();
  });

  it("pages on the server with the total count, page size and search", async () => {
    const { calls, user, client } = renderList();
    await settled(client);
    expect(await screen.findByRole("heading", { name: "Building" })).toBeInTheDocument();
    expect(screen.getByText("Total: 100000")).toBeInTheDocument();
    expect(screen.getByText("Page 1 of 5000")).toBeInTheDocument();
    expect(screen.getAllByRole("row")).toHaveLength(21);
    const first = listCalls(calls)[0]!.query;
    expect(Object.fromEntries(first)).toEqual({
      typeId: T.building,
      limit: "20",
      offset: "0",
      attrs: "name",
      count: "true",
    });
    const link = screen.getByRole("link", { name: "urn:ngsi-ld:Building:0" });
    expect(link.getAttribute("href")).toContain("entityId=urn%3Angsi-ld%3ABuilding%3A0");
    expect(screen.getByText("Name of 0")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get("offset")).toBe("20"));
    await user.selectOptions(screen.getByLabelText("Per page"), "100");
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get("limit")).toBe("100"));
    expect(listCalls(calls).at(-1)!.query.get("offset")).toBe("0");

    await user.type(screen.getByRole("searchbox", { name: "Search the entities" }), "42");
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get("search")).toBe("42"));
    expect(listCalls(calls).at(-1)!.query.get("count")).toBeNull();
    expect(await screen.findByRole("link", { name: "urn:ngsi-ld:Building:42" })).toBeInTheDocument();
  });
});
