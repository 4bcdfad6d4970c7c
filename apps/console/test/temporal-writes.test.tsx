import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Permission } from "@orrery/model";
import { TemporalView } from "../src/context-data/TemporalView.tsx";
import { routePaths, routeTo } from "../src/routes.ts";
import {
  building,
  modelRoutes,
  mockContextApi,
  T,
  type RawCall,
  type RawRoutes,
} from "./context-data-support.tsx";
import { allow, renderAt, settled } from "./support.tsx";

// The chart draws on a canvas jsdom lacks once the history is read again: not what these tests look at.
vi.mock("../src/context-data/TemporalChart.tsx", () => ({ default: () => null }));

const property = "urn:ngsi-ld:Property:temperature";
const servicePath = `/workspace/ws1/temporal-entities/${building.id}/properties/${property}/temporal-services/urn:ngsi-ld:TemporalService:ts1`;
const instances = `/workspace/ws1/temporal-entities/${building.id}/properties/${property}/instances`;
const first = "urn:ngsi-ld:attribute:instance:1";
const writer: Permission[] = [
  allow("GET", ".*"),
  allow("POST", ".*"),
  allow("PATCH", ".*"),
  allow("DELETE", ".*"),
];

function renderView(permissions: Permission[] = writer, routes: RawRoutes = {}) {
  const calls = mockContextApi(
    {
      ...modelRoutes,
      [`GET /workspace/ws1/entities/${building.id}`]: { body: building },
      "GET /temporal-services": { body: [{ id: "urn:ngsi-ld:TemporalService:ts1", name: "Embedded" }] },
      [`GET ${servicePath}`]: {
        body: {
          id: building.id,
          data: [
            {
              type: "Property",
              value: 20,
              observedAt: "2025-01-31T10:00:00Z",
              unitCode: "CEL",
              instanceId: first,
            },
            {
              type: "Property",
              value: 22,
              observedAt: "2025-01-31T10:20:00Z",
              instanceId: "urn:ngsi-ld:attribute:instance:2",
            },
          ],
        },
      },
      [`POST ${instances}`]: { status: 204 },
      [`PATCH ${instances}/${first}`]: { status: 204 },
      [`DELETE ${instances}/${first}`]: { status: 204 },
      ...routes,
    },
    permissions,
  );
  const url = routeTo("temporalEntities.properties.show", {
    workspaceId: "ws1",
    typeId: T.building,
    entityId: building.id,
    propertyId: property,
  });
  return { calls, ...renderAt(url, routePaths["temporalEntities.properties.show"]!, <TemporalView />) };
}
const historyReads = (calls: RawCall[]) =>
  calls.filter((c) => c.method === "GET" && c.path === servicePath).length;

describe("temporal view: writing the history", () => {
  it("offers no write to a reader", async () => {
    const { client } = renderView([allow("GET", ".*")]);
    await settled(client);
    await screen.findByRole("table", { name: "Values over time" });
    expect(screen.queryByRole("button", { name: "Add a value" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Import a CSV history" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Correct the value/ })).toBeNull();
  });

  it("adds a value (time in UTC, value and unit as typed) and reads the history again", async () => {
    const { calls, user, client } = renderView();
    await settled(client);
    const table = await screen.findByRole("table", { name: "Values over time" });
    expect(within(table).getByRole("columnheader", { name: "Unit" })).toBeInTheDocument();
    expect(within(table).getByText("CEL")).toBeInTheDocument();
    const reads = historyReads(calls);
    await user.click(screen.getByRole("button", { name: "Add a value" }));
    const dialog = await screen.findByRole("dialog", { name: "Add a value to the history of temperature" });
    const time = within(dialog).getByLabelText("Time (UTC)");
    await user.clear(time);
    await user.type(time, "2025-01-31T11:00:30");
    await user.type(within(dialog).getByLabelText("Value"), "23,5");
    await user.type(within(dialog).getByLabelText("Unit"), "CEL");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const post = calls.find((c) => c.method === "POST" && c.path === instances)!;
    expect(post.body).toEqual({ time: "2025-01-31T11:00:30Z", value: "23,5", unit: "CEL" });
    await waitFor(() => expect(historyReads(calls)).toBeGreaterThan(reads));
  });

  it("shows the API's reason under the field it names", async () => {
    const { user, client } = renderView(writer, {
      [`POST ${instances}`]: {
        status: 400,
        body: {
          title: "The submitted data is invalid",
          status: 400,
          errors: [
            { path: "value", message: 'column temperature: "warm" is not a number', code: "row.notNumber" },
          ],
        },
      },
    });
    await settled(client);
    await user.click(await screen.findByRole("button", { name: "Add a value" }));
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Value"), "warm");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText('column temperature: "warm" is not a number')).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Value")).toHaveClass("is-invalid");
  });

  it("corrects a value: the dialog starts from it and sends only what changed", async () => {
    const { calls, user, client } = renderView();
    await settled(client);
    await user.click(
      await screen.findByRole("button", { name: "Correct the value of 2025-01-31T10:00:00Z" }),
    );
    const dialog = await screen.findByRole("dialog", { name: "Correct a value of temperature" });
    // The browser writes a time on the minute without its seconds.
    expect(within(dialog).getByLabelText("Time (UTC)")).toHaveValue("2025-01-31T10:00");
    expect(within(dialog).getByLabelText("Unit")).toHaveValue("CEL");
    const save = within(dialog).getByRole("button", { name: "Save" });
    expect(save).toBeDisabled();
    const value = within(dialog).getByLabelText("Value");
    expect(value).toHaveValue("20");
    await user.clear(value);
    await user.type(value, "19");
    await user.click(save);
    await waitFor(() => expect(calls.some((c) => c.method === "PATCH")).toBe(true));
    expect(calls.find((c) => c.method === "PATCH")!).toMatchObject({
      path: `${instances}/${first}`,
      body: { value: "19" },
    });
  });

  it("deletes a value after a confirmation", async () => {
    const { calls, user, client } = renderView();
    await settled(client);
    await user.click(await screen.findByRole("button", { name: "Delete the value of 2025-01-31T10:00:00Z" }));
    const confirm = await screen.findByRole("dialog", { name: "Confirmation" });
    expect(confirm).toHaveTextContent("Delete the value observed at 2025-01-31T10:00:00Z from the history?");
    await user.click(within(confirm).getByRole("button", { name: "Yes" }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === "DELETE" && c.path === `${instances}/${first}`)).toBe(true),
    );
  });

  it("imports a CSV history: preview, dry run with the rejected rows, then the report", async () => {
    const csv = "time,value,unit\n2025-01-31T09:00:00Z,18,CEL\nsoon,19,CEL\n2025-01-31T09:20:00Z,20,\n";
    const report = (dry: boolean) => ({
      total: 3,
      created: 2,
      updated: 0,
      rejected: [{ row: 3, reason: 'the observedAt "soon" is not an ISO 8601 date-time' }],
      ...(dry ? {} : {}),
    });
    const { calls, user, client } = renderView(writer, {
      [`POST ${instances}/import`]: (call) => ({ body: report(call.query.get("dryRun") === "true") }),
    });
    await settled(client);
    await user.click(await screen.findByRole("button", { name: "Import a CSV history" }));
    const dialog = await screen.findByRole("dialog", { name: "Import a history of temperature" });
    await user.upload(
      within(dialog).getByLabelText("CSV file"),
      new File([csv], "history.csv", { type: "text/csv" }),
    );
    const preview = await within(dialog).findByRole("table", { name: "Preview of the rows" });
    expect(preview.querySelectorAll("tbody tr")).toHaveLength(3);
    expect(await within(dialog).findByText("2 values to add, 1 rows rejected.")).toBeInTheDocument();
    const rejected = within(dialog).getByRole("table", { name: "Rejected rows" });
    expect(within(rejected).queryByRole("columnheader", { name: "Id" })).toBeNull();
    expect(rejected).toHaveTextContent('the observedAt "soon" is not an ISO 8601 date-time');
    const dry = calls.find((c) => c.query.get("dryRun") === "true")!;
    expect(dry.headers["content-type"]).toBe("text/csv");
    expect(dry.text).toBe(csv);
    await user.click(within(dialog).getByRole("button", { name: "Import" }));
    expect(await within(dialog).findByText("2 values added, 1 rows rejected.")).toBeInTheDocument();
    expect(
      await screen.findByText("The import of the history has failed for some rows."),
    ).toBeInTheDocument();
  });
});
