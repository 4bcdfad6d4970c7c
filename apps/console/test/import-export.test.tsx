import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import ImportExportDialog from "../src/context-data/ImportExportDialog.tsx";
import { mockContextApi, T, type RawAnswer, type RawCall } from "./context-data-support.tsx";
import { allow, renderAt, settled } from "./support.tsx";

const type = { id: T.building, name: "Building" };
const csv = [
  "id,type,name,height",
  ...Array.from({ length: 14 }, (_, i) => `urn:ngsi-ld:Building:b${i},Building,Building ${i},${i}`),
  "urn:ngsi-ld:Shelf:x,Shelf,Wrong,1",
].join("\n");

const plan = {
  total: 15,
  created: 12,
  updated: 2,
  rejected: [{ row: 16, id: "urn:ngsi-ld:Shelf:x", reason: "type Shelf is not Building" }],
};

function renderDialog(
  permissions = [allow("GET", ".*"), allow("POST", "^/api/workspace/ws1/entities$")],
  routes: Record<string, RawAnswer> = {},
) {
  const calls = mockContextApi(
    {
      "POST /workspace/ws1/entities/import": (call: RawCall) =>
        call.query.get("dryRun") === "true"
          ? { body: plan }
          : {
              headers: { "content-type": "application/x-ndjson" },
              raw: [
                JSON.stringify({ progress: { done: 10, total: 15 } }),
                JSON.stringify({ progress: { done: 15, total: 15 } }),
                JSON.stringify({ report: plan }),
              ].join("\n"),
            },
      ...routes,
    },
    permissions,
  );
  const view = renderAt(
    "/workspace/ws1",
    "/workspace/:workspaceId",
    <ImportExportDialog workspaceId="ws1" type={type} onClose={() => {}} />,
  );
  return { calls, ...view };
}

describe("import/export dialog", () => {
  it("disables the import tab without the permission to store entities, and keeps export open", async () => {
    const { client } = renderDialog([allow("GET", ".*")]);
    await settled(client);
    expect(await screen.findByRole("tab", { name: "Import" })).toBeDisabled();
    expect(screen.getByRole("tab", { name: "Export" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("button", { name: "Download Building.csv" })).toBeInTheDocument();
    expect(screen.getByLabelText("Add a UTF-8 BOM for Excel")).not.toBeChecked();
    // No Google Sheets account on the server: CSV only.
    expect(screen.queryByLabelText("Google Sheets")).toBeNull();
  });

  it("previews the first 10 rows, shows the dry run, then imports with a report per row", async () => {
    const { calls, user, client } = renderDialog();
    await settled(client);
    expect(await screen.findByRole("tab", { name: "Import" })).toHaveAttribute("aria-selected", "true");
    const file = new File([csv], "buildings.csv", { type: "text/csv" });
    await user.upload(screen.getByLabelText("CSV file"), file);
    const preview = await screen.findByRole("table", { name: "Preview of the rows" });
    expect(preview.querySelectorAll("tbody tr")).toHaveLength(10);
    expect(preview).toHaveTextContent("Building 9");
    expect(preview).not.toHaveTextContent("Building 10");
    expect(await screen.findByText("12 to create, 2 to update, 1 rejected.")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Rejected rows" })).toHaveTextContent(
      "type Shelf is not Building",
    );
    const dryRun = calls.find((c) => c.query.get("dryRun") === "true")!;
    expect(dryRun.headers["content-type"]).toBe("text/csv");
    expect(dryRun.text).toBe(csv);
    expect(dryRun.query.get("typeId")).toBe(T.building);

    await user.click(screen.getByRole("button", { name: "Import" }));
    expect(await screen.findByText("12 created, 2 updated, 1 rejected.")).toBeInTheDocument();
    const run = calls.filter((c) => c.path === "/workspace/ws1/entities/import").at(-1)!;
    expect(run.query.get("dryRun")).toBeNull();
    expect(run.headers.accept).toContain("application/x-ndjson");
    // A rejected row makes the overall result a failure (spec section 4).
    expect(
      await screen.findByText("The import of the entities has failed for some rows."),
    ).toBeInTheDocument();
  });

  it("offers Google Sheets when the server has a service account, with both fields required", async () => {
    const { user, client } = renderDialog(undefined, {
      "GET /console-config": {
        body: {
          trustModule: true,
          authProvider: "dev",
          googleSheets: { serviceAccountEmail: "sa@example.iam" },
        },
      },
    });
    await settled(client);
    await user.click(await screen.findByRole("tab", { name: "Export" }));
    const panel = await screen.findByRole("tabpanel", { name: "Export" });
    await user.click(within(panel).getByLabelText("Google Sheets"));
    expect(screen.getByText("sa@example.iam")).toBeInTheDocument();
    await user.click(within(panel).getByRole("button", { name: "Write to the sheet" }));
    await waitFor(() => expect(within(panel).getAllByText("This field is required.")).toHaveLength(2));
  });
});
