import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { properties } from "@orrery/model";
import { FormPage } from "../src/resources/FormPage.tsx";
import { routePaths } from "../src/routes.ts";
import { field, mockApi, queryField, renderAt, sent, settled, type Call } from "./support.tsx";

const T1 = "urn:ngsi-ld:Type:1";
const T2 = "urn:ngsi-ld:Type:2";
const P1 = "urn:ngsi-ld:Property:1";
const P2 = "urn:ngsi-ld:Property:2";
const types = [
  { id: T1, name: "Building" },
  { id: T2, name: "Room" },
];
const propertyList = [
  { id: P1, name: "address", hasType: T1, ngsiLdType: "Property", propertyNgsiLdValueType: "Object" },
  { id: P2, name: "area", hasType: T2, ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
];

function renderPropertyForm(implementationName = "orion-ld") {
  const calls = mockApi({
    "GET /workspaces/ws1": {
      body: {
        id: "ws1",
        name: "Alpha",
        hasService: "s1",
        defaultDataModelUrl: "https://models.example.org/",
        temporalServices: ["ts1"],
      },
    },
    "GET /services/s1": { body: { id: "s1", name: "Demo service", hasContextBroker: "b1" } },
    "GET /context-brokers/b1": { body: { id: "b1", name: "Main broker", implementationName } },
    "GET /temporal-services": {
      body: [
        { id: "ts1", name: "History" },
        { id: "ts2", name: "Another workspace's history" },
      ],
    },
    "GET /workspace/ws1/types": { body: types },
    [`GET /workspace/ws1/types/${T1}`]: { body: types[0] },
    "GET /workspace/ws1/properties": { body: propertyList },
    "POST /workspace/ws1/properties": (call: Call) => ({
      status: 201,
      body: { id: "p9", ...(call.body as object) },
    }),
  });
  const view = renderAt(
    `/workspace/ws1/types/${T1}/properties/create`,
    routePaths["properties.create"]!,
    <FormPage kind={properties} action="create" />,
  );
  return { calls, ...view };
}

describe("property form", () => {
  it("shows the fields of the chosen NGSI-LD type only", async () => {
    const { user, client } = renderPropertyForm();
    await settled(client);
    expect(queryField("Type")).toBeNull(); // hasType comes from the route
    expect(queryField("Value type")).toBeNull();
    await user.selectOptions(field("NGSI-LD type"), "Property");
    expect(field("Value type")).toBeInTheDocument();
    await user.selectOptions(field("NGSI-LD type"), "Relationship");
    expect(queryField("Value type")).toBeNull();
    const target = field("Relationship target type");
    expect([...target.querySelectorAll("option")].map((o) => o.textContent)).toEqual([
      "Choose…",
      "Building",
      "Room",
    ]);
    await user.selectOptions(field("NGSI-LD type"), "GeoProperty");
    expect(queryField("Relationship target type")).toBeNull();
    expect(field("Geometry type")).toBeInTheDocument();
    expect(field("Geographic")).not.toBeChecked();
  });

  it("asks temporal services only when temporal, among the workspace's", async () => {
    const { user, client } = renderPropertyForm();
    await settled(client);
    expect(screen.queryByLabelText("History")).toBeNull();
    await user.click(field("Temporal"));
    expect(await screen.findByLabelText("History")).toBeInTheDocument();
    expect(screen.queryByLabelText("Another workspace's history")).toBeNull();
    await user.click(field("Temporal"));
    expect(screen.queryByLabelText("History")).toBeNull();
  });

  it("makes a property of one of the type's other properties, without temporal nor multi-valued", async () => {
    const { user, client, calls } = renderPropertyForm("scorpio");
    await settled(client);
    await user.click(field("Temporal"));
    expect(field("Multi-valued")).toBeEnabled();
    await user.click(field("Property of a property"));
    expect(queryField("Temporal")).toBeNull();
    expect(queryField("Multi-valued")).toBeNull();
    const parent = field("Parent property");
    // Only Building's properties: Room's "area" is not offered.
    expect([...parent.querySelectorAll("option")].map((o) => o.textContent)).toEqual(["Choose…", "address"]);
    await user.type(field("Name"), "streetAddress");
    await user.selectOptions(field("NGSI-LD type"), "Property");
    await user.selectOptions(field("Value type"), "String");
    await user.click(screen.getByRole("button", { name: "Create" }));
    expect(await screen.findByText("This field is required.")).toBeInTheDocument();
    expect(sent(calls, "POST")).toHaveLength(0);
    await user.selectOptions(parent, P1);
    await user.click(screen.getByRole("button", { name: "Create" }));
    await waitFor(() => expect(sent(calls, "POST")).toHaveLength(1));
    expect(sent(calls, "POST")[0]!.body).toEqual({
      name: "streetAddress",
      hasType: T1,
      hasProperty: P1,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "String",
      standard: false,
      mandatory: false,
    });
  });

  it("disables multi-valued, and says why, when the broker is not Scorpio or Stellio", async () => {
    const { client } = renderPropertyForm("orion-ld");
    await settled(client);
    await waitFor(() => expect(field("Multi-valued")).toBeDisabled());
    expect(
      screen.getByText(
        /need a Scorpio, Stellio or embedded \(Orrery\) broker; this workspace's broker, Main broker, is Orion-LD/,
      ),
    ).toBeInTheDocument();
  });

  it("refuses the workspace's default URL alone", async () => {
    const { user, client, calls } = renderPropertyForm();
    await settled(client);
    await user.type(field("Name"), "height");
    await user.type(field("URL"), "https://models.example.org/");
    await user.selectOptions(field("NGSI-LD type"), "Property");
    await user.selectOptions(field("Value type"), "Number");
    await user.click(screen.getByRole("button", { name: "Create" }));
    expect(
      await screen.findByText(/must not be the workspace's default data-model URL alone/),
    ).toBeInTheDocument();
    expect(sent(calls, "POST")).toHaveLength(0);
  });
});
