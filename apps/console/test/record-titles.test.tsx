import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { contractDetails, dataServices, roles, routingOperationControls } from "@orrery/model";
import { ErrorAlert } from "../src/errors/ErrorAlert.tsx";
import { ApiError } from "../src/api.ts";
import { ShowPage } from "../src/resources/ShowPage.tsx";
import { mockApi, renderAt, settled } from "./support.tsx";
import i18n from "../src/i18n/index.ts";

// Issue 25, "Records read by what they are": records without a name read by what identifies them
// (an access: role → data service; an operation: sequence and action; a control: its property and
// value; a contract detail: its role scope name), wherever they are named.

const ws = "ws1";
const role = { id: "urn:ngsi-ld:Role:auditor", name: "Auditor" };
const service = {
  id: "urn:ngsi-ld:DataService:stock",
  name: "Stock API",
  hasDataActions: ["urn:ngsi-ld:DataAction:write", "urn:ngsi-ld:DataAction:read"],
};
const access = {
  id: "urn:ngsi-ld:DataServiceAccess:1212",
  hasRole: role.id,
  hasDataService: service.id,
  roleName: "Auditor",
};

const workspaceRoutes = {
  [`GET /workspaces/${ws}`]: { body: { id: ws, name: "Shop", dataModelUpToDate: true } },
  [`GET /workspace/${ws}/roles`]: { body: [role] },
  [`GET /workspace/${ws}/data-services`]: { body: [service] },
  [`GET /workspace/${ws}/data-service-accesses`]: { body: [access] },
};

describe("record titles", () => {
  it("lists a role's accesses by role → data service, linking to the access and to the data service", async () => {
    mockApi({ ...workspaceRoutes, [`GET /workspace/${ws}/roles/${role.id}`]: { body: role } });
    const { client } = renderAt(
      `/workspace/${ws}/roles/${encodeURIComponent(role.id)}`,
      "/workspace/:workspaceId/roles/:roleId",
      <ShowPage kind={roles} />,
    );
    await settled(client);
    const table = await screen.findByRole("table");
    const toAccess = await within(table).findByRole("link", { name: "Auditor → Stock API" });
    expect(toAccess.getAttribute("href")).toContain(
      `/data-service-accesses/${encodeURIComponent(access.id)}`,
    );
    const toService = within(table).getByRole("link", { name: "Stock API" });
    expect(toService.getAttribute("href")).toBe(
      `/workspace/${ws}/data-services/${encodeURIComponent(service.id)}`,
    );
    expect(table.textContent).not.toContain("urn:");
  });

  it("titles an access's page, breadcrumb and tab by role → data service", async () => {
    mockApi({
      ...workspaceRoutes,
      [`GET /workspace/${ws}/roles/${role.id}`]: { body: role },
      [`GET /workspace/${ws}/data-service-accesses/${access.id}`]: { body: access },
    });
    const { client } = renderAt(
      `/workspace/${ws}/roles/${encodeURIComponent(role.id)}/data-service-accesses/${encodeURIComponent(access.id)}`,
      "/workspace/:workspaceId/roles/:roleId/data-service-accesses/:dataServiceAccessId",
      <ShowPage kind={kindOf("data-service-accesses")} />,
    );
    await settled(client);
    expect(await screen.findByRole("heading", { level: 1, name: "Auditor → Stock API" })).toBeInTheDocument();
    expect(document.title).toContain("Auditor → Stock API");
    expect(document.title).not.toContain("urn:");
  });

  it("titles a control by its WoT property and value, and its operation by sequence and action", async () => {
    const td = "urn:ngsi-ld:WoTThingDescription:shelf";
    const routing = { id: "urn:ngsi-ld:Routing:r", name: "Refill", hasWoTThingDescription: td };
    const operation = {
      id: "urn:ngsi-ld:RoutingOperation:o2",
      sequenceNumber: 2,
      timerBefore: 0,
      timerAfter: 0,
      hasWoTAction: "urn:ngsi-ld:WoTAction:restock",
      hasRouting: routing.id,
    };
    const control = {
      id: "urn:ngsi-ld:RoutingOperationControl:c",
      hasWoTProperty: "urn:ngsi-ld:WoTProperty:stock",
      woTPropertyValue: "10",
      hasRoutingOperation: operation.id,
    };
    mockApi({
      [`GET /workspaces/${ws}`]: { body: { id: ws, name: "Shop" } },
      [`GET /workspace/${ws}/wot-thing-descriptions/${td}`]: { body: { id: td, name: "Smart shelf" } },
      [`GET /workspace/${ws}/routings/${routing.id}`]: { body: routing },
      [`GET /workspace/${ws}/routing-operations/${operation.id}`]: { body: operation },
      [`GET /workspace/${ws}/routing-operations`]: { body: [operation] },
      [`GET /workspace/${ws}/routing-operation-controls/${control.id}`]: { body: control },
      [`GET /workspace/${ws}/wot-actions`]: { body: [{ id: operation.hasWoTAction, name: "restock" }] },
      [`GET /workspace/${ws}/wot-properties`]: { body: [{ id: control.hasWoTProperty, name: "stock" }] },
    });
    const path = [
      `/workspace/${ws}/wot-thing-descriptions/${encodeURIComponent(td)}`,
      `routings/${encodeURIComponent(routing.id)}`,
      `routing-operations/${encodeURIComponent(operation.id)}`,
      `routing-operation-controls/${encodeURIComponent(control.id)}`,
    ].join("/");
    const { client } = renderAt(
      path,
      "/workspace/:workspaceId/wot-thing-descriptions/:woTThingDescriptionId/routings/:routingId/routing-operations/:routingOperationId/routing-operation-controls/:routingOperationControlId",
      <ShowPage kind={routingOperationControls} />,
    );
    await settled(client);
    expect(await screen.findByRole("heading", { level: 1, name: "stock = 10" })).toBeInTheDocument();
    // The operation, in the breadcrumb and in the control's fields.
    await waitFor(() => expect(screen.getAllByText("2. restock").length).toBeGreaterThanOrEqual(2));
  });

  it("lists a data service's actions in the order of their names, not the order they were saved in", async () => {
    mockApi({
      ...workspaceRoutes,
      [`GET /workspace/${ws}/data-services/${service.id}`]: { body: service },
      "GET /data-actions": {
        body: [
          { id: "urn:ngsi-ld:DataAction:write", name: "PATCH" },
          { id: "urn:ngsi-ld:DataAction:read", name: "GET" },
        ],
      },
    });
    const { client } = renderAt(
      `/workspace/${ws}/data-services/${encodeURIComponent(service.id)}`,
      "/workspace/:workspaceId/data-services/:dataServiceId",
      <ShowPage kind={dataServices} />,
    );
    await settled(client);
    const actions = await screen.findByText("GET");
    const list = actions.closest("ul")!;
    await waitFor(() =>
      expect([...list.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["GET", "PATCH"]),
    );
  });

  it("says, before a contract detail is deleted, that its role stays in the identity manager", async () => {
    const contract = { id: "urn:ngsi-ld:Contract:c", stakeholderName: "Acme" };
    const detail = {
      id: "urn:ngsi-ld:ContractDetail:d",
      hasContract: contract.id,
      hasRole: role.id,
      roleScopeName: "Acme auditor",
    };
    mockApi({
      ...workspaceRoutes,
      [`GET /workspace/${ws}/contracts/${contract.id}`]: { body: contract },
      [`GET /workspace/${ws}/contract-details/${detail.id}`]: { body: detail },
    });
    const { user, client } = renderAt(
      `/workspace/${ws}/contracts/${encodeURIComponent(contract.id)}/contract-details/${encodeURIComponent(detail.id)}`,
      "/workspace/:workspaceId/contracts/:contractId/contract-details/:contractDetailId",
      <ShowPage
        kind={contractDetails}
        deleteNote={(item, t) => t("contractDetails.deleteLeavesRole", { name: String(item.roleScopeName) })}
      />,
    );
    await settled(client);
    expect(await screen.findByRole("heading", { level: 1, name: "Acme auditor" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("“Acme auditor”");
    expect(dialog.textContent).toContain(
      "the role “Acme auditor” and its permissions stay in the identity manager",
    );
  });
});

describe("a refused delete", () => {
  const refused = new ApiError(409, {
    type: "https://orrery.dev/problems/409",
    title: "Conflict",
    status: 409,
    detail: "It cannot be deleted while these records refer to it: “Auditor → Stock API”.",
    code: "record.inUse",
    referrers: [
      {
        id: access.id,
        kind: "data-service-accesses",
        name: "Auditor → Stock API",
        workspaceId: ws,
        refs: { hasRole: role.id, hasDataService: service.id },
      },
    ],
  });

  it("says it in a sentence with links to what uses the record, the answer folded", async () => {
    mockApi();
    renderAt("/", "/", <ErrorAlert error={refused} />);
    const alert = screen.getByTestId("error-alert");
    expect(within(alert).getByText(/delete them or change them first/)).toBeInTheDocument();
    const link = within(alert).getByRole("link", { name: "data service access “Auditor → Stock API”" });
    expect(link.getAttribute("href")).toBe(
      `/workspace/${ws}/roles/${encodeURIComponent(role.id)}/data-service-accesses/${encodeURIComponent(access.id)}`,
    );
    const folded = alert.querySelector("details")!;
    expect(folded).not.toHaveAttribute("open");
    expect(folded.querySelector("summary")!.textContent).toBe("The server's answer");
  });

  it("reads the same in French", async () => {
    mockApi();
    await i18n.changeLanguage("fr");
    try {
      renderAt("/", "/", <ErrorAlert error={refused} />);
      const alert = screen.getByTestId("error-alert");
      expect(within(alert).getByText(/supprimez-les ou modifiez-les d’abord/)).toBeInTheDocument();
      expect(alert.querySelector("summary")!.textContent).toBe("La réponse du serveur");
      expect(
        within(alert).getByRole("link", { name: "accès à un service de données « Auditor → Stock API »" }),
      ).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage("en");
    }
  });
});

import { kindsByName } from "@orrery/model";
function kindOf(name: string) {
  return kindsByName.get(name)!;
}
