import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ShowPage } from "../src/resources/ShowPage.tsx";
import { routePaths } from "../src/routes.ts";
import { ImportProperties } from "../src/workspaces/ImportProperties.tsx";
import { ImportPropertiesLink } from "../src/workspaces/ImportPropertiesLink.tsx";
import { types as typeKind, properties as propertyKind } from "@orrery/model";
import {
  admin,
  allow,
  currentPath,
  mockApi,
  renderAt,
  sent,
  settled,
  type Answer,
  type Call,
} from "./support.tsx";

const T1 = "urn:ngsi-ld:Type:1";
const modelUrl = "https://models.example.org/AirQualityObserved/model.yaml";
const type = { id: T1, name: "AirQualityObserved", standardDataModelDefinitionUrl: modelUrl };
const model = {
  typeName: "AirQualityObserved",
  description: "An observation of air quality",
  properties: [
    {
      name: "NO2",
      description: "Nitrogen dioxide",
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    },
    { name: "location", description: "Where", ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: "Point" },
    { name: "refDevice", description: "The device", ngsiLdType: "Relationship" },
    {
      name: "temperature",
      description: "Air temperature",
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    },
  ],
};
const existing = [{ id: "p1", name: "temperature", hasType: T1, ngsiLdType: "Property" }];

function renderImport(
  importAnswer: Answer | ((call: Call) => Answer) = { status: 201, body: { created: [] } },
  permissions = admin,
) {
  const calls = mockApi(
    {
      "GET /workspaces/ws1": { body: { id: "ws1", name: "Alpha" } },
      [`GET /workspace/ws1/types/${T1}`]: { body: type },
      "GET /workspace/ws1/properties": { body: existing },
      "GET /proxies/smart-data-models": { body: model },
      "POST /workspace/ws1/properties/import": importAnswer,
    },
    permissions,
  );
  const view = renderAt(
    `/workspace/ws1/types/${T1}/properties/import`,
    routePaths["properties.import"]!,
    <ImportProperties />,
  );
  return { calls, ...view };
}

async function readModel(user: ReturnType<typeof renderImport>["user"]) {
  const input = await screen.findByLabelText("Standard data model definition URL");
  await waitFor(() => expect(input).toHaveValue(modelUrl));
  await user.click(screen.getByRole("button", { name: "Read" }));
  return screen.findByRole("table");
}

describe("properties import", () => {
  it("reads the type's model URL through the proxy, with existing names highlighted and disabled", async () => {
    const { user } = renderImport();
    const table = await readModel(user);
    const proxied = vi
      .mocked(fetch)
      .mock.calls.map(([u]) => String(u))
      .find((u) => u.startsWith("/api/proxies/smart-data-models"));
    expect(new URL(proxied!, "http://x").searchParams.get("url")).toBe(modelUrl);
    const temperature = within(table).getByRole("checkbox", { name: "temperature" });
    expect(temperature).toBeDisabled();
    expect(temperature.closest("tr")).toHaveClass("table-warning");
    expect(temperature.closest("tr")).toHaveTextContent("already in this type");
    expect(within(table).getByRole("checkbox", { name: "NO2" })).toBeEnabled();
    expect(within(table).getByText("Point")).toBeInTheDocument();
  });

  it("flags before the import what the API would refuse: a reserved name, a name meaning another URL", async () => {
    const clashing = {
      ...model,
      properties: [
        ...model.properties,
        { name: "observedAt", ngsiLdType: "Property", propertyNgsiLdValueType: "String" },
        { name: "owner", url: "https://schema.org/owner", ngsiLdType: "Relationship" },
      ],
    };
    mockApi({
      "GET /workspaces/ws1": { body: { id: "ws1", name: "Alpha" } },
      [`GET /workspace/ws1/types/${T1}`]: { body: type },
      "GET /workspace/ws1/types": { body: [type] },
      "GET /workspace/ws1/properties": {
        body: [...existing, { id: "p2", name: "owner", hasType: "T2", url: "https://example.org/owner" }],
      },
      "GET /proxies/smart-data-models": { body: clashing },
    });
    const { user } = renderAt(
      `/workspace/ws1/types/${T1}/properties/import`,
      routePaths["properties.import"]!,
      <ImportProperties />,
    );
    const table = await readModel(user);
    for (const name of ["observedAt", "owner"]) {
      const box = within(table).getByRole("checkbox", { name });
      expect(box).toBeDisabled();
      expect(box.closest("tr")).toHaveClass("table-warning");
    }
    expect(within(table).getByRole("checkbox", { name: "owner" }).closest("tr")).toHaveTextContent(
      "already means https://example.org/owner",
    );
    expect(within(table).getByRole("checkbox", { name: "observedAt" }).closest("tr")).toHaveTextContent(
      "NGSI-LD keeps for itself",
    );
    await user.click(screen.getByRole("button", { name: "Select all" }));
    expect(within(table).getByRole("checkbox", { name: "owner" })).not.toBeChecked();
  });

  it("keeps Import disabled with nothing selected; select all skips existing names, none clears", async () => {
    const { user } = renderImport();
    await readModel(user);
    const importButton = screen.getByRole("button", { name: /^Import the selection/ });
    expect(importButton).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Select all" }));
    expect(importButton).toBeEnabled();
    expect(importButton).toHaveTextContent("(3)");
    await user.click(screen.getByRole("button", { name: "Select none" }));
    expect(importButton).toBeDisabled();
  });

  it("sends one request with the selection and goes back to the type", async () => {
    const { user, calls } = renderImport({ status: 201, body: { created: [{ id: "p2", name: "NO2" }] } });
    await readModel(user);
    await user.click(screen.getByRole("checkbox", { name: "NO2" }));
    await user.click(screen.getByRole("checkbox", { name: "location" }));
    await user.click(screen.getByRole("button", { name: /^Import the selection/ }));
    await waitFor(() => expect(currentPath()).toBe(`/workspace/ws1/types/${encodeURIComponent(T1)}`));
    const posted = sent(calls, "POST");
    expect(posted).toHaveLength(1);
    expect(posted[0]!.path).toBe("/workspace/ws1/properties/import");
    expect(posted[0]!.body).toEqual({ typeId: T1, properties: [model.properties[0], model.properties[1]] });
    // The properties and the workspace (now outdated) are read again.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "/workspace/ws1/properties").length).toBeGreaterThan(1),
    );
  });

  it("lists the errors per property name and shows the failure dialog", async () => {
    const { user } = renderImport({
      status: 400,
      body: {
        title: "Invalid",
        status: 400,
        errors: [{ path: "properties.1.geoPropertyNgsiLdType", message: "Required" }],
      },
    });
    await readModel(user);
    await user.click(screen.getByRole("checkbox", { name: "NO2" }));
    await user.click(screen.getByRole("checkbox", { name: "location" }));
    await user.click(screen.getByRole("button", { name: /^Import the selection/ }));
    const dialog = await screen.findByRole("dialog", { name: "Error" });
    expect(dialog).toHaveTextContent("The import of the properties has failed.");
    const list = screen.getByTestId("import-errors");
    expect(list).toHaveTextContent("location: geoPropertyNgsiLdType: Required");
    expect(list).not.toHaveTextContent("NO2");
    expect(screen.getByRole("checkbox", { name: "location" }).closest("tr")).toHaveClass("table-danger");
    expect(screen.getByTestId("error-alert")).toHaveTextContent("Invalid");
    expect(currentPath()).toBe(`/workspace/ws1/types/${T1}/properties/import`);
  });

  it("needs the permission to store properties for the checkboxes", async () => {
    const { user } = renderImport(undefined, [allow("GET", "^/api/.*$")]);
    const table = await readModel(user);
    for (const box of within(table).getAllByRole("checkbox")) expect(box).toBeDisabled();
  });
});

describe("import button on the type page", () => {
  const renderType = (permissions = admin) => {
    mockApi(
      {
        [`GET /workspace/ws1/types/${T1}`]: { body: type },
        "GET /workspace/ws1/properties": { body: existing },
        "GET /workspaces/ws1": { body: { id: "ws1", name: "Alpha" } },
      },
      permissions,
    );
    return renderAt(
      `/workspace/ws1/types/${T1}`,
      routePaths["types.show"]!,
      <ShowPage kind={typeKind} childActions={{ [propertyKind.kind]: <ImportPropertiesLink /> }} />,
    );
  };

  it("sits beside the add button with the import permission and leads to properties.import", async () => {
    const { client } = renderType();
    await settled(client);
    const link = await screen.findByRole("link", { name: "Import" });
    expect(link).toHaveAttribute("href", `/workspace/ws1/types/${encodeURIComponent(T1)}/properties/import`);
  });

  it("is hidden without it", async () => {
    const { client } = renderType([
      allow("GET", "^/api/.*$"),
      allow("POST", "^/api/workspace/ws1/properties$"),
    ]);
    await settled(client);
    await screen.findByRole("link", { name: "temperature" });
    expect(screen.queryByRole("link", { name: "Import" })).toBeNull();
  });
});
