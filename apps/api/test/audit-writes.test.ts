import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleSheets, type FakeGoogleSheets } from "../../../test/fakes/google-sheets.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

const ctx = useEmbeddedWorkspace();

/** The trail's events of one action, newest first. */
async function events(filters: Record<string, string>) {
  const res = await ctx.api("GET", `/api/audit?${new URLSearchParams(filters)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as Array<Record<string, any>>;
}

describe(`writes to the brokers are in the audit trail (${driver})`, () => {
  it("records each value added to, corrected in, deleted from or imported into a history", async () => {
    const ws = await ctx.another();
    const id = "urn:ngsi-ld:Building:rewritten";
    expect(
      (
        await ctx.api("POST", `${ws.path}/entities`, {
          id,
          type: "Building",
          name: { type: "Property", value: "B" },
        })
      ).status,
    ).toBe(201);
    const property = ws.properties["Building.temperature"]!;
    const prefix = `${ws.path}/temporal-entities/${encodeURIComponent(id)}/properties/${property}`;
    const instances = `${prefix}/instances`;
    expect((await ctx.api("POST", instances, { time: "2024-05-01T10:00:00Z", value: "21" })).status).toBe(
      204,
    );
    const history = await ctx.api("GET", `${prefix}/temporal-services/${ws.temporalServiceId}?fromTime=0`);
    const instanceId = (history.body.data as Array<{ instanceId: string; value: number }>).find(
      (v) => v.value === 21,
    )!.instanceId;
    const one = `${instances}/${encodeURIComponent(instanceId)}`;
    expect((await ctx.api("PATCH", one, { value: "-40" })).status).toBe(204);
    expect((await ctx.api("DELETE", one)).status).toBe(204);
    const csv = "time,value\n2024-05-02T10:00:00Z,19\n2024-05-02T11:00:00Z,nope\n";
    const dry = await ctx.api("POST", `${instances}/import?dryRun=true`, csv, { "content-type": "text/csv" });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const imported = await ctx.api("POST", `${instances}/import`, csv, { "content-type": "text/csv" });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);

    const written = (await events({ workspace: ws.workspace.id, kind: "entities" })).filter((e) =>
      String(e.action).startsWith("history."),
    );
    // The dry run wrote nothing and is not recorded.
    expect(written.map((e) => e.action)).toEqual([
      "history.import",
      "history.delete",
      "history.update",
      "history.add",
    ]);
    for (const e of written)
      expect(e).toMatchObject({
        recordId: id,
        username: "test",
        outcome: "success",
        detail: { propertyId: property },
      });
    expect(written[1]!.detail.instanceId).toBe(instanceId);
    expect(written[2]!.detail.instanceId).toBe(instanceId);
    expect(written[0]!.detail).toMatchObject({ total: 2, created: 1, rejected: 1 });
  });

  it("records subscriptions created, changed and deleted, and context source registrations", async () => {
    const ws = await ctx.another();
    const subscription = {
      type: "Subscription",
      subscriptionName: "Audited",
      entities: [{ type: "Building" }],
      notification: {
        format: "keyValues",
        endpoint: { uri: "http://127.0.0.1:9/notify", accept: "application/json" },
      },
    };
    const created = await ctx.api("POST", `${ws.path}/subscriptions`, subscription);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sid = created.body.id as string;
    const one = `${ws.path}/subscriptions/${encodeURIComponent(sid)}`;
    expect((await ctx.api("PUT", one, { ...subscription, subscriptionName: "Audited again" })).status).toBe(
      200,
    );
    expect((await ctx.api("DELETE", one)).status).toBe(204);
    const subs = await events({ workspace: ws.workspace.id, kind: "subscriptions" });
    expect(subs.map((e) => `${e.action} ${e.recordId}`)).toEqual([
      `delete ${sid}`,
      `update ${sid}`,
      `create ${sid}`,
    ]);

    const registrations = `/api/context-brokers/${ctx.brokerId}/registrations`;
    const registered = await ctx.api("POST", registrations, {
      registrationName: "Depot vehicles",
      endpoint: "http://depot.example.org:1026",
      information: [{ entities: [{ type: "Vehicle" }], propertyNames: ["speed"] }],
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const rid = registered.body.id as string;
    expect((await ctx.api("DELETE", `${registrations}/${encodeURIComponent(rid)}`)).status).toBe(204);
    const regs = await events({ kind: "registrations", record: rid });
    expect(regs.map((e) => e.action)).toEqual(["delete", "create"]);
    expect(regs[0]!.detail).toEqual({ of: ctx.brokerId });
  });
});

describe(`writes to a Google Sheet are in the audit trail (${driver})`, () => {
  let google: FakeGoogleSheets;
  let t: TestApp;
  beforeAll(async () => {
    google = await startFakeGoogleSheets();
    t = await startTestApp({
      GOOGLE_SERVICE_ACCOUNT_KEY_FILE: google.keyFile,
      GOOGLE_SHEETS_URL: google.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await google?.close();
  });

  it("records which sheet was replaced and how many rows, not the cells", async () => {
    const api = client(t, await t.tokenFor("admin"));
    const sheetName = "Export .*+?(|\\";
    const query = `spreadsheetId=sheet-1&sheetName=${encodeURIComponent(sheetName)}`;
    google.sheets.set(`sheet-1/${sheetName}`, [["old"]]);
    const rows = [
      ["id", "type"],
      ["urn:ngsi-ld:Building:2", "Building"],
      ["=SECRET()", "x"],
    ];
    expect((await api("POST", `/api/proxies/google-sheets/write-sheet?${query}`, rows)).status).toBe(204);
    const trail = await api("GET", "/api/audit?action=sheet.write");
    expect(trail.status).toBe(200);
    expect(trail.body.items).toHaveLength(1);
    expect(trail.body.items[0]).toMatchObject({
      kind: "google-sheets",
      recordId: "sheet-1",
      title: sheetName,
      detail: { rows: 3 },
    });
    expect(trail.raw).not.toContain("SECRET");
  });
});
