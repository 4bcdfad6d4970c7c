import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AttributePage } from "../src/context-data/AttributePage.tsx";
import { routePaths, routeTo } from "../src/routes.ts";
import { building, modelRoutes, mockContextApi, T, type RawCall } from "./context-data-support.tsx";
import { allow, currentPath, renderAt, settled } from "./support.tsx";

const north = "urn:ngsi-ld:Dataset:north";
const south = "urn:ngsi-ld:Dataset:south";
const entityPath = `/workspace/ws1/entities/${building.id}`;

/**
 * The attribute page of the Building's multi-valued temperature. The fake broker holds the entity
 * and applies the DELETEs it receives (one datasetId, the last one dropping the attribute) so that
 * the page's refetch sees what a broker would answer.
 */
function renderTemperature(
  options: {
    permissions?: Parameters<typeof mockContextApi>[1];
    fail?: boolean;
    withDefault?: boolean;
  } = {},
) {
  let entity: Record<string, unknown> = structuredClone(building);
  if (options.withDefault)
    entity.temperature = [...(entity.temperature as unknown[]), { type: "Property", value: 20 }];
  const calls = mockContextApi(
    {
      ...modelRoutes,
      [`GET ${entityPath}`]: () => ({ body: entity }),
      [`DELETE ${entityPath}/attrs/temperature`]: (call: RawCall) => {
        if (options.fail) return { status: 502, body: { title: "Bad gateway", detail: "broker down" } };
        const datasetId = call.query.get("datasetId");
        const { temperature, ...rest } = entity as { temperature: Array<{ datasetId?: string }> };
        const keep = datasetId
          ? temperature.filter((i) => i.datasetId !== datasetId)
          : call.query.get("deleteAll") === "false"
            ? temperature.filter((i) => i.datasetId !== undefined)
            : [];
        entity = keep.length ? { ...rest, temperature: keep } : rest;
        return { status: 204 };
      },
    },
    options.permissions,
  );
  const url = `${routeTo("entities.properties.show", {
    workspaceId: "ws1",
    entityId: building.id,
    propertyId: "urn:ngsi-ld:Property:temperature",
  })}?typeId=${encodeURIComponent(T.building)}`;
  const view = renderAt(url, routePaths["entities.properties.show"]!, <AttributePage />);
  return { calls, ...view };
}

const values = () => screen.getByRole("table", { name: "Values" });
const deletes = (calls: RawCall[]) => calls.filter((c) => c.method === "DELETE");

describe("attribute page", () => {
  it("deletes one value of a multi-valued attribute after asking, and shows the others", async () => {
    const { calls, user, client } = renderTemperature();
    await screen.findByRole("heading", { level: 1, name: "temperature" });
    await settled(client);
    expect(within(values()).getByText(north)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: `Delete the value ${north}` }));
    expect(
      await screen.findByText(
        `Are you sure you want to delete the value ${north} of the attribute temperature?`,
      ),
    ).toBeInTheDocument();
    // "No" sends nothing.
    await user.click(screen.getByRole("button", { name: "No" }));
    expect(deletes(calls)).toEqual([]);

    await user.click(screen.getByRole("button", { name: `Delete the value ${north}` }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    await waitFor(() => expect(within(values()).queryByText(north)).toBeNull());
    expect(deletes(calls)).toHaveLength(1);
    expect(deletes(calls)[0]!.path).toBe(`${entityPath}/attrs/temperature`);
    expect(deletes(calls)[0]!.query.get("datasetId")).toBe(north);
    expect(within(values()).getByText(south)).toBeInTheDocument();
    expect(currentPath()).toContain("/properties/");
  });

  it("deletes the default value (the one without a datasetId) alone", async () => {
    const { calls, user, client } = renderTemperature({ withDefault: true });
    await screen.findByRole("heading", { level: 1, name: "temperature" });
    await settled(client);
    await user.click(screen.getByRole("button", { name: "Delete the value (default)" }));
    expect(
      await screen.findByText(
        "Are you sure you want to delete the value (default) of the attribute temperature?",
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Yes" }));
    await waitFor(() => expect(within(values()).queryByText("(default)")).toBeNull());
    expect(Object.fromEntries(deletes(calls)[0]!.query)).toEqual({ deleteAll: "false" });
    expect(within(values()).getByText(north)).toBeInTheDocument();
    expect(within(values()).getByText(south)).toBeInTheDocument();
  });

  it("goes back to the entity card when the last value is deleted", async () => {
    const { user, client } = renderTemperature();
    await screen.findByRole("heading", { level: 1, name: "temperature" });
    await settled(client);
    for (const datasetId of [north, south]) {
      await user.click(await screen.findByRole("button", { name: `Delete the value ${datasetId}` }));
      await user.click(await screen.findByRole("button", { name: "Yes" }));
      await waitFor(() =>
        expect(screen.queryByRole("button", { name: `Delete the value ${datasetId}` })).toBeNull(),
      );
    }
    await waitFor(() => expect(currentPath()).toBe("/workspace/ws1"));
  });

  it("reports a failed delete and keeps the value", async () => {
    const { user, client } = renderTemperature({ fail: true });
    await screen.findByRole("heading", { level: 1, name: "temperature" });
    await settled(client);
    await user.click(screen.getByRole("button", { name: `Delete the value ${south}` }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    const dialog = await screen.findByRole("dialog", { name: "Error" });
    expect(dialog).toHaveTextContent("The update of the entity has failed.");
    expect(screen.getByTestId("error-alert")).toHaveTextContent("Bad gateway");
    expect(within(values()).getByText(south)).toBeInTheDocument();
  });

  it("offers no delete of a value without the permission to update the entity", async () => {
    const { client } = renderTemperature({ permissions: [allow("GET", "^/api/.*$")] });
    await screen.findByRole("heading", { level: 1, name: "temperature" });
    await settled(client);
    expect(within(values()).getByText(north)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Delete/ })).toBeNull();
  });
});
