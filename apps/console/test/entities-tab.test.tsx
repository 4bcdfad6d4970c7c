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
      order: "name",
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

  it("shows the first page without the model's properties, which only the map and an entity's card read", async () => {
    const { calls, client } = renderList();
    expect(await screen.findByText("Total: 100000")).toBeInTheDocument();
    await settled(client);
    // A model's properties run to megabytes: the list of a type's entities waits for none of them.
    expect(calls.filter((c) => c.path === "/workspace/ws1/properties")).toEqual([]);
  });

  it("keeps the page, page size and search in the address, so that Back and reload return there", async () => {
    const { calls, user, client } = renderList(
      `/workspace/ws1?typeId=${encodeURIComponent(T.building)}&page=3&size=50`,
    );
    await settled(client);
    expect(Object.fromEntries(listCalls(calls).at(-1)!.query)).toMatchObject({ limit: "50", offset: "100" });
    expect(await screen.findByText("Page 3 of 2000")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get("offset")).toBe("150"));
    expect(screen.getByTestId("search").textContent).toContain("page=4");
    const reloaded = renderList(`/workspace/ws1?typeId=${encodeURIComponent(T.building)}&search=42`);
    await settled(reloaded.client);
    expect(listCalls(reloaded.calls).at(-1)!.query.get("search")).toBe("42");
    expect(screen.getAllByRole("searchbox", { name: "Search the entities" }).at(-1)).toHaveValue("42");
  });

  it("lists an entity without a name by its id", async () => {
    mockContextApi({
      ...modelRoutes,
      "GET /workspace/ws1/entities": {
        body: [{ id: "urn:ngsi-ld:Building:unnamed", type: "Building" }],
        headers: { "x-total-count": "1", "x-order": "name" },
      },
    });
    const { client } = renderAt(
      `/workspace/ws1?typeId=${encodeURIComponent(T.building)}`,
      "/workspace/:workspaceId",
      <ContextDataTabs workspaceId="ws1" />,
    );
    await settled(client);
    expect(await screen.findByRole("link", { name: "urn:ngsi-ld:Building:unnamed" })).toBeInTheDocument();
  });
});
