import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TryThingDescription } from "../src/wot/TryThingDescription.tsx";
import { allow, mockApi, renderAt, sent, settled } from "./support.tsx";

const ws = "urn:ngsi-ld:Workspace:w";
const td = { id: "urn:ngsi-ld:WoTThingDescription:td", name: "Building", hasType: "urn:ngsi-ld:Type:b" };
const building = "urn:ngsi-ld:Building:hq";
const floors = { id: "urn:ngsi-ld:WoTProperty:floors", name: "floors", hasWoTThingDescription: td.id };
const label = { id: "urn:ngsi-ld:WoTProperty:label", name: "label", hasWoTThingDescription: td.id };
const renovate = { id: "urn:ngsi-ld:WoTAction:renovate", name: "renovate", hasWoTThingDescription: td.id };
const otherTds = { id: "urn:ngsi-ld:WoTProperty:x", name: "elsewhere", hasWoTThingDescription: "urn:other" };

const routes = {
  [`GET /workspace/${ws}/types/${td.hasType}`]: { body: { id: td.hasType, name: "Building" } },
  [`GET /workspace/${ws}/wot-properties`]: { body: [label, floors, otherTds] },
  [`GET /workspace/${ws}/wot-actions`]: { body: [renovate] },
  [`GET /workspace/${ws}/wot-action-input-properties`]: {
    body: [
      { id: "i1", name: "floors", propertyType: "number", hasWoTAction: renovate.id },
      { id: "i2", name: "urgent", propertyType: "boolean", hasWoTAction: renovate.id },
    ],
  },
  [`GET /workspace/${ws}/entities`]: {
    body: [{ id: building, type: "Building", name: { type: "Property", value: "Headquarters" } }],
  },
  [`GET /workspace/${ws}/wot-properties/${floors.id}/value`]: { body: 3 },
  [`GET /workspace/${ws}/wot-properties/${label.id}/value`]: {
    status: 404,
    body: { title: "Not found", status: 404, detail: `The entity ${building} has no value for name.` },
  },
  [`POST /workspace/${ws}/wot-actions/${renovate.id}/execute`]: {
    status: 400,
    body: {
      title: "The submitted data is invalid",
      status: 400,
      errors: [{ path: "floors", message: "must be within the capacity [0, 50] (Range)" }],
    },
  },
};

const renderTry = (permissions?: Parameters<typeof mockApi>[1]) => {
  const calls = mockApi(routes, permissions);
  const view = renderAt(`/workspaces/${ws}`, "/workspaces/:workspaceId", <TryThingDescription td={td} />);
  return { calls, ...view };
};

/** Chooses the building among the entities of the TD's type, once they are listed. */
async function chooseEntity(user: ReturnType<typeof renderTry>["user"]) {
  await screen.findByRole("option", { name: `${building} (Headquarters)` });
  await user.selectOptions(screen.getByLabelText("Entity of the type Building"), building);
}

describe("the thing description page's tries on an entity", () => {
  it("reads a WoT property of the chosen entity and shows its value, or the refusal", async () => {
    const { user, calls } = renderTry();
    const read = await screen.findByRole("button", { name: "Read floors" });
    expect(read).toBeDisabled();
    expect(screen.queryByText("elsewhere")).toBeNull();
    await chooseEntity(user);
    await user.click(read);
    expect(await screen.findByRole("status", { name: "Answer of floors" })).toHaveTextContent("3");
    const get = sent(calls, "GET").find((c) => c.path.endsWith("/value"))!;
    expect(get.path).toBe(`/workspace/${ws}/wot-properties/${floors.id}/value`);
    expect(get.headers.authorization).toBe("Bearer t");
    const url = vi
      .mocked(fetch)
      .mock.calls.map(([u]) => String(u))
      .find((u) => u.includes("/value"))!;
    expect(new URL(url, "http://localhost").searchParams.get("entityId")).toBe(building);
    await user.click(screen.getByRole("button", { name: "Read label" }));
    expect(await screen.findByText(`The entity ${building} has no value for name.`)).toBeInTheDocument();
  });

  it("runs an action with its inputs on the chosen entity and shows the API's refusal", async () => {
    const { user, calls } = renderTry();
    await chooseEntity(user);
    const row = screen.getByRole("rowheader", { name: "renovate" }).closest("tr")!;
    await user.type(within(row).getByLabelText("floors"), "70");
    await user.click(within(row).getByLabelText("urgent"));
    await user.click(within(row).getByRole("button", { name: "Run renovate" }));
    await waitFor(() => expect(sent(calls, "POST")).toHaveLength(1));
    expect(sent(calls, "POST")[0]!.body).toEqual({ floors: 70, urgent: true });
    expect(await within(row).findByText(/must be within the capacity \[0, 50\]/)).toBeInTheDocument();
    // In its table cell the refusal is a sentence: the answer's tree is folded, the row stays low.
    expect(within(row).getByText("The server's answer").closest("details")).not.toHaveAttribute("open");
  });

  it("offers no button the API would refuse", async () => {
    const { client } = renderTry([allow("GET", "^/api/workspace/[^/]+/(types/[^/]+|wot-[a-z-]+|entities)$")]);
    await settled(client);
    expect(screen.queryByRole("button", { name: /^(Read|Run) / })).toBeNull();
  });
});
