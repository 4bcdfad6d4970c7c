import { screen, waitFor, within } from "@testing-library/react";
import i18n from "../src/i18n/index.ts";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { TopBar } from "../src/app/TopBar.tsx";
import ActivityPage from "../src/audit/ActivityPage.tsx";
import { allow, mockApi, renderAt, type Call } from "./support.tsx";

const broker = "urn:ngsi-ld:ContextBroker:b1";
const updated = {
  id: "12",
  at: "2026-11-20T10:15:00.000Z",
  subject: "admin-sub",
  username: "admin",
  provider: "dev",
  action: "update",
  kind: "context-brokers",
  recordId: broker,
  title: "Orion North",
  workspaceId: "",
  outcome: "success",
  changes: [
    { field: "port", before: 1026, after: 1027 },
    { field: "host", before: "a.example.org", after: "b.example.org" },
  ],
  detail: null,
};
const grantChanged = {
  ...updated,
  id: "11",
  kind: "identity-manager-grants",
  recordId: "urn:ngsi-ld:IdentityManagerGrant:g",
  title: "Console grant",
  changes: [{ field: "clientSecret", secret: true }],
};

/** The query string of each GET /api/audit the page sent. */
const auditQueries = () =>
  vi
    .mocked(fetch)
    .mock.calls.map(([input]) => new URL(String(input), "http://localhost"))
    .filter((u) => u.pathname === "/api/audit")
    .map((u) => Object.fromEntries(u.searchParams));

function renderActivity(pages: Record<string, unknown> = {}) {
  const calls: Call[] = mockApi({
    "GET /workspaces": { body: [{ id: "urn:ngsi-ld:Workspace:w", name: "Retail" }] },
    [`GET /context-brokers/${broker}`]: { body: { id: broker, name: "Orion North" } },
    "GET /audit": () => {
      const [query] = auditQueries().slice(-1);
      return { body: pages[query?.cursor ?? ""] ?? { items: [updated, grantChanged], next: "11" } };
    },
  });
  return { calls, ...renderAt("/activity", "/activity", <ActivityPage />) };
}

afterEach(async () => {
  await i18n.changeLanguage("en");
});

describe("the Activity page", () => {
  it("lists who changed what, and a row shows the change as a diff with a link to the record", async () => {
    const { user } = renderActivity();
    const row = (await screen.findByText("Orion North")).closest("tr")!;
    expect(row).toHaveTextContent("admin");
    expect(row).toHaveTextContent("Updated");
    expect(row).toHaveTextContent("Success");
    await user.click(within(row).getByRole("button"));
    const card = await screen.findByLabelText("Change");
    const diff = within(card).getByRole("table", { name: "Fields changed" });
    const port = within(diff).getByRole("row", { name: /Port/ });
    expect(within(port).getByText("1026").tagName).toBe("DEL");
    expect(within(port).getByText("1027").tagName).toBe("INS");
    expect(within(card).getByText(/By admin \(dev\)/)).toBeInTheDocument();
    const open = await within(card).findByRole("link", { name: "Open the record" });
    expect(open.getAttribute("href")).toBe(`/context-brokers/${encodeURIComponent(broker)}`);
  });

  it("says a secret changed without any value", async () => {
    const { user } = renderActivity();
    const row = (await screen.findByText("Console grant")).closest("tr")!;
    await user.click(within(row).getByRole("button"));
    expect(await screen.findByText("Secret changed (its value is never recorded)")).toBeInTheDocument();
  });

  it("sends the filters and pages older and newer by cursor", async () => {
    const older = { ...updated, id: "5", title: "Older broker" };
    const { user } = renderActivity({ "11": { items: [older], next: null } });
    await screen.findByText("Orion North");
    await user.type(screen.getByLabelText("User"), "ad.*+?(|\\");
    await user.selectOptions(screen.getByLabelText("Action"), "update");
    await user.selectOptions(screen.getByLabelText("Kind"), "context-brokers");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    await waitFor(() =>
      expect(auditQueries().at(-1)).toEqual({
        user: "ad.*+?(|\\",
        action: "update",
        kind: "context-brokers",
        limit: "50",
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Older" }));
    expect(await screen.findByText("Older broker")).toBeInTheDocument();
    expect(auditQueries().at(-1)).toMatchObject({ cursor: "11", user: "ad.*+?(|\\" });
    expect(screen.getByRole("button", { name: "Older" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Newer" }));
    expect(await screen.findByText("Orion North")).toBeInTheDocument();
  });

  it("exports the filtered list as JSON and CSV, every page", async () => {
    const blobs: Blob[] = [];
    const created = URL.createObjectURL;
    URL.createObjectURL = (b: Blob | MediaSource) => (blobs.push(b as Blob), "blob:x");
    onTestFinished(() => {
      URL.createObjectURL = created;
    });
    const older = { ...updated, id: "5", title: 'Older, "quoted" broker' };
    const { user } = renderActivity({ "11": { items: [older], next: null } });
    await screen.findByText("Orion North");
    await user.click(screen.getByRole("button", { name: "Export JSON" }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const json = JSON.parse(await blobs[0]!.text());
    expect(json.map((e: { id: string }) => e.id)).toEqual(["12", "11", "5"]);
    expect(auditQueries().at(-1)).toMatchObject({ cursor: "11", limit: "500" });
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(blobs).toHaveLength(2));
    const csv = await blobs[1]!.text();
    expect(csv.split("\r\n")[0]).toBe(
      "id,at,username,subject,provider,action,outcome,kind,recordId,title,workspaceId,changes,detail",
    );
    expect(csv).toContain('"Older, ""quoted"" broker"');
    expect(csv).not.toContain('secret":"');
  });

  it("speaks French", async () => {
    await i18n.changeLanguage("fr");
    renderActivity();
    expect(await screen.findByRole("heading", { name: "Activité" })).toBeInTheDocument();
    expect(await screen.findByText("Modifié")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Exporter en CSV" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Plus anciennes" })).toBeInTheDocument();
  });

  it("is in the Administration menu of administrators only", async () => {
    mockApi({});
    const admin = renderAt("/", "/", <TopBar />);
    await admin.user.click(await screen.findByRole("button", { name: "Administration" }));
    expect(await screen.findByRole("link", { name: "Activity" })).toHaveAttribute("href", "/activity");
    admin.unmount();
    mockApi({}, [allow("GET", "^/api/(?!audit(/|$)).*")]);
    const operator = renderAt("/", "/", <TopBar />);
    await operator.user.click(await screen.findByRole("button", { name: "Administration" }));
    expect(await screen.findByRole("link", { name: /Context brokers/ })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Activity" })).toBeNull();
  });
});
