import { describe, expect, it } from "vitest";
import { workspaces } from "@orrery/model";
import { FormPage } from "../src/resources/FormPage.tsx";
import { routePaths } from "../src/routes.ts";
import { field, mockApi, queryField, renderAt, settled } from "./support.tsx";

const serviceList = [
  { id: "s1", name: "On a multi-tenant broker", hasContextBroker: "b1" },
  { id: "s2", name: "On a single-tenant broker", hasContextBroker: "b2" },
];

function renderWorkspaceForm(item?: Record<string, unknown>) {
  mockApi({
    "GET /services": { body: serviceList },
    "GET /services/s1": { body: serviceList[0] },
    "GET /services/s2": { body: serviceList[1] },
    "GET /context-brokers/b1": { body: { id: "b1", name: "Scorpio", multiTenancyEnabled: true } },
    "GET /context-brokers/b2": { body: { id: "b2", name: "Orion-LD", multiTenancyEnabled: false } },
    ...(item ? { [`GET /workspaces/${String(item.id)}`]: { body: item } } : {}),
  });
  return item
    ? renderAt(
        `/workspaces/${String(item.id)}/edit`,
        routePaths["workspaces.edit"]!,
        <FormPage kind={workspaces} action="edit" />,
      )
    : renderAt(
        "/workspaces/create",
        routePaths["workspaces.create"]!,
        <FormPage kind={workspaces} action="create" />,
      );
}

describe("workspace form", () => {
  it("asks the broker tenant only when the service's broker is multi-tenant", async () => {
    const { user, client } = renderWorkspaceForm();
    await settled(client);
    expect(queryField("Context broker tenant")).toBeNull();
    await user.selectOptions(field("Service"), "s1");
    await settled(client);
    expect(field("Context broker tenant")).toBeInTheDocument();
    await user.selectOptions(field("Service"), "s2");
    await settled(client);
    expect(queryField("Context broker tenant")).toBeNull();
  });

  it("keeps a stored tenant while the broker loads, on edit", async () => {
    const { client } = renderWorkspaceForm({
      id: "ws1",
      name: "Alpha",
      dataModelName: "alpha",
      hasService: "s1",
      contextBrokerTenant: "alpha",
    });
    await settled(client);
    expect(field("Context broker tenant")).toHaveValue("alpha");
  });
});
