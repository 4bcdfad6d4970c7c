import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { dataServices } from "@orrery/model";
import { FormPage } from "../src/resources/FormPage.tsx";
import { field, mockApi, renderAt, sent } from "./support.tsx";

// A data service moved to another type in its edit form: the old type's properties go, the new
// type's can be ticked, and the service is saved with them (as the create form does).

const ws = "ws1";
const service = "ds1";
const bin = "urn:ngsi-ld:Type:bin";
const warehouse = "urn:ngsi-ld:Type:warehouse";
const fill = "urn:ngsi-ld:Property:fill";
const capacity = "urn:ngsi-ld:Property:capacity";
const get = "urn:ngsi-ld:DataAction:get";

describe("data service edit form", () => {
  it("moves a service to another type with that type's properties", async () => {
    const calls = mockApi({
      [`GET /workspaces/${ws}`]: { body: { id: ws, name: "City", dataModelUpToDate: true } },
      [`GET /workspace/${ws}/data-services/${service}`]: {
        body: { id: service, name: "Bins", hasEntityType: bin, hasProperties: [fill], hasDataActions: [get] },
        headers: { etag: '"3"' },
      },
      [`PUT /workspace/${ws}/data-services/${service}`]: (call) => ({
        body: { id: service, ...(call.body as object) },
      }),
      [`GET /workspace/${ws}/types`]: {
        body: [
          { id: bin, name: "Bin" },
          { id: warehouse, name: "Warehouse" },
        ],
      },
      [`GET /workspace/${ws}/properties`]: {
        body: [
          { id: fill, name: "fillLevel", hasType: bin },
          { id: capacity, name: "capacity", hasType: warehouse },
        ],
      },
      "GET /data-actions": { body: [{ id: get, name: "GET" }] },
    });
    const { user } = renderAt(
      `/workspace/${ws}/data-services/${service}/edit`,
      "/workspace/:workspaceId/data-services/:dataServiceId/edit",
      <FormPage kind={dataServices} action="edit" />,
    );
    expect(await screen.findByRole("checkbox", { name: "fillLevel" })).toBeChecked();
    await user.selectOptions(field("Type"), warehouse);
    expect(screen.queryByRole("checkbox", { name: "fillLevel" })).toBeNull();
    const offered = await screen.findByRole("checkbox", { name: "capacity" });
    await user.click(offered);
    expect(offered).toBeChecked();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent(calls, "PUT")).toHaveLength(1));
    expect(sent(calls, "PUT")[0]!.body).toMatchObject({
      hasEntityType: warehouse,
      hasProperties: [capacity],
      hasDataActions: [get],
    });
  });
});
