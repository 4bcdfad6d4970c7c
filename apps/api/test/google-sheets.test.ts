import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleSheets, type FakeGoogleSheets } from "../../../test/fakes/google-sheets.ts";
import { client, driver, startTestApp, useTestApp, type TestApp } from "./support/harness.ts";

const unconfigured = useTestApp();
let google: FakeGoogleSheets;
let t: TestApp;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  google = await startFakeGoogleSheets();
  t = await startTestApp({ GOOGLE_SERVICE_ACCOUNT_KEY_FILE: google.keyFile, GOOGLE_SHEETS_URL: google.url });
  api = client(t, await t.tokenFor("admin"));
});
afterAll(async () => {
  await t?.close();
  await google?.close();
});

const sheet = (sheetName: string) => `spreadsheetId=sheet-1&sheetName=${encodeURIComponent(sheetName)}`;

describe(`Google Sheets proxy with a service account (${driver})`, () => {
  it("reads a sheet's rows through a JWT bearer grant", async () => {
    google.sheets.set("sheet-1/Buildings", [
      ["id", "type", "name"],
      ["urn:ngsi-ld:Building:1", "Building", "Town hall"],
    ]);
    const res = await api("GET", `/api/proxies/google-sheets/read-sheet?${sheet("Buildings")}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual([
      ["id", "type", "name"],
      ["urn:ngsi-ld:Building:1", "Building", "Town hall"],
    ]);
    expect(google.refusedAssertions).toBe(0);
  });

  it("replaces a sheet's content with the rows written", async () => {
    google.sheets.set("sheet-1/Export", [["old"], ["rows"], ["here"]]);
    const rows = [
      ["id", "type"],
      ["urn:ngsi-ld:Building:2", "Building"],
    ];
    const res = await api("POST", `/api/proxies/google-sheets/write-sheet?${sheet("Export")}`, rows);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(google.sheets.get("sheet-1/Export")).toEqual(rows);
    const empty = await api("GET", `/api/proxies/google-sheets/read-sheet?${sheet("Nothing")}`);
    expect(empty.status).toBe(404);
    expect(empty.body.detail).toContain("Unable to parse range");
  });

  it("gives the console the service account to share sheets with", async () => {
    const res = await api("GET", "/api/console-config");
    expect(res.body.googleSheets).toEqual({ serviceAccountEmail: google.email });
  });

  it("asks for the spreadsheet id and the sheet name", async () => {
    const res = await api("GET", "/api/proxies/google-sheets/read-sheet?spreadsheetId=x");
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["querystring.sheetName"]);
  });

  it("answers a clear 501 without a configured account, and the console hides the choice", async () => {
    const res = await unconfigured.api("GET", `/api/proxies/google-sheets/read-sheet?${sheet("Buildings")}`);
    expect(res.status).toBe(501);
    expect(res.body.detail).toContain("GOOGLE_SERVICE_ACCOUNT_KEY_FILE");
    expect((await unconfigured.api("GET", "/api/console-config")).body.googleSheets).toBeNull();
  });
});
