import { describe, expect, it } from "vitest";
import { driver } from "../support/harness.ts";
import { useEmbeddedWorkspace } from "../support/embedded-workspace.ts";

const ctx = useEmbeddedWorkspace();

/** POSTs a CSV file as is. */
async function importCsv(path: string, typeId: string, csv: string, query = "") {
  return ctx.api("POST", `${path}/entities/import?typeId=${typeId}${query}`, csv, {
    "content-type": "text/csv",
  });
}

const header = "id,type,name,floors,open,address,tags,location,owner";
const geo = (lon: number, lat: number) => `"{""type"":""Point"",""coordinates"":[${lon},${lat}]}"`;

describe(`entity import and export through the API (${driver})`, () => {
  it("imports a spreadsheet's CSV (BOM, CRLF, comma decimals, booleans, empty cells) and rejects bad rows with reasons", async () => {
    const ws = await ctx.another();
    const lines = [
      `\ufeff${header}`,
      `urn:ngsi-ld:Building:a,Building,Alpha,"3,5",false,"{""city"":""Paris""}","[1,2]",${geo(2.35, 48.85)},urn:ngsi-ld:Person:ada`,
      `urn:ngsi-ld:Building:b,Building,Beta,4,TRUE,,,,`,
      `,Building,Generated,1,no,,,,`,
      `urn:ngsi-ld:Building:c,Building,Gamma,many,true,,,,`,
      `urn:ngsi-ld:Building:d,Building,Delta,1,true,"{not json",,,`,
      `urn:ngsi-ld:Room:e,Room,Wrong type,1,true,,,,`,
      `urn:ngsi-ld:Building:f,Building,Foxtrot,1,maybe,,,,`,
      `urn:ngsi-ld:Building:g,Building,Golf,1,true,,,"{""type"":""Point""}",`,
      ``,
      `urn:ngsi-ld:Building:a,Building,Alpha again,1,true,,,,`,
    ];
    const res = await importCsv(ws.path, ws.types.Building!, lines.join("\r\n"));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total: 9, created: 3, updated: 0 });
    const rejected = res.body.rejected as Array<{ row: number; id?: string; reason: string }>;
    expect(rejected.map((r) => r.row)).toEqual([5, 6, 7, 8, 9, 11]);
    expect(rejected.find((r) => r.row === 5)!.reason).toContain("floors");
    expect(rejected.find((r) => r.row === 6)!.reason).toContain("address");
    expect(rejected.find((r) => r.row === 7)!.reason).toMatch(/type/i);
    expect(rejected.find((r) => r.row === 8)!.reason).toContain("open");
    expect(rejected.find((r) => r.row === 9)!.reason).toContain("location");
    expect(rejected.find((r) => r.row === 11)!.reason).toContain("row 2");

    const a = (await ctx.api("GET", `${ws.path}/entities/urn:ngsi-ld:Building:a`)).body;
    expect(a.floors.value).toBe(3.5);
    expect(a.open.value).toBe(false);
    expect(a.address.value).toEqual({ city: "Paris" });
    expect(a.tags.value).toEqual([1, 2]);
    expect(a.location.value).toEqual({ type: "Point", coordinates: [2.35, 48.85] });
    expect(a.owner.object).toBe("urn:ngsi-ld:Person:ada");
    const b = (await ctx.api("GET", `${ws.path}/entities/urn:ngsi-ld:Building:b`)).body;
    expect(b.open.value).toBe(true);
    expect(b.address).toBeUndefined();
    const listed = await ctx.api("GET", `${ws.path}/entities?type=Building&count=true`);
    expect(listed.headers["x-total-count"]).toBe("3");
    expect(listed.body.find((e: { name: { value: string } }) => e.name.value === "Generated").id).toMatch(
      /^urn:ngsi-ld:Building:[0-9a-f-]{36}$/,
    );
  });

  it("updates existing entities keeping the attributes the file does not carry, and previews without writing", async () => {
    const ws = await ctx.another();
    await ctx.api("POST", `${ws.path}/entities`, {
      id: "urn:ngsi-ld:Building:keep",
      type: "Building",
      name: { type: "Property", value: "Old" },
      tags: { type: "Property", value: ["x"] },
    });
    const csv = `id,type,name\nurn:ngsi-ld:Building:keep,Building,New\nurn:ngsi-ld:Building:new,Building,Fresh\n`;
    const dry = await importCsv(ws.path, ws.types.Building!, csv, "&dryRun=true");
    expect(dry.body).toMatchObject({ created: 1, updated: 1, rejected: [] });
    expect(dry.body.preview).toEqual([
      { row: 2, id: "urn:ngsi-ld:Building:keep", action: "update" },
      { row: 3, id: "urn:ngsi-ld:Building:new", action: "create" },
    ]);
    expect((await ctx.api("GET", `${ws.path}/entities/urn:ngsi-ld:Building:new`)).status).toBe(404);
    const real = await importCsv(ws.path, ws.types.Building!, csv);
    expect(real.body).toMatchObject({ created: 1, updated: 1, rejected: [] });
    const kept = (await ctx.api("GET", `${ws.path}/entities/urn:ngsi-ld:Building:keep`)).body;
    expect(kept.name.value).toBe("New");
    // Kept: the broker answers an array of one element compacted to the element (JSON-LD, as Orion-LD).
    expect(kept.tags.value).toBe("x");
  });

  it("takes parsed rows as JSON and streams progress as NDJSON when asked", async () => {
    const ws = await ctx.another();
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      id: `urn:ngsi-ld:Building:r${i}`,
      type: "Building",
      name: `Row ${i}`,
      floors: String(i),
    }));
    const res = await ctx.api("POST", `${ws.path}/entities/import?typeId=${ws.types.Building}`, rows, {
      accept: "application/x-ndjson",
    });
    expect(res.headers["content-type"]).toContain("application/x-ndjson");
    const lines = res.raw
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.progress).map((l) => l.progress.done)).toEqual([500, 1000, 1200]);
    expect(lines.at(-1).report).toMatchObject({ total: 1200, created: 1200, updated: 0, rejected: [] });
  });

  it("exports every entity of the type as CSV (beyond one broker page), and importing the file gives the same entities", async () => {
    const ws = await ctx.another();
    const entities = Array.from({ length: 1105 }, (_, i) => ({
      id: `urn:ngsi-ld:Building:e${String(i).padStart(4, "0")}`,
      type: "Building",
      name: `Export, "quoted" ${i}`,
      floors: String(i % 7),
      open: i % 2 ? "true" : "false",
      address: JSON.stringify({ n: i }),
      tags: JSON.stringify(["a", i]),
      location: JSON.stringify({ type: "Point", coordinates: [i / 100, 45] }),
      owner: "urn:ngsi-ld:Person:p1",
    }));
    const imported = await ctx.api(
      "POST",
      `${ws.path}/entities/import?typeId=${ws.types.Building}`,
      entities,
    );
    expect(imported.body).toMatchObject({ created: 1105, rejected: [] });

    const exported = await ctx.api("GET", `${ws.path}/entities/export?typeId=${ws.types.Building}&bom=true`);
    expect(exported.status).toBe(200);
    expect(exported.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(exported.headers["content-disposition"]).toBe('attachment; filename="Building.csv"');
    expect(exported.raw.startsWith("\ufeffid,type,")).toBe(true);
    const lines = exported.raw.trim().split("\r\n");
    expect(lines).toHaveLength(1106);

    const copy = await ctx.another();
    const back = await importCsv(copy.path, copy.types.Building!, exported.raw);
    expect(back.body).toMatchObject({ total: 1105, created: 1105, rejected: [] });
    const one = async (path: string) =>
      (await ctx.api("GET", `${path}/entities/urn:ngsi-ld:Building:e0042`)).body;
    expect(await one(copy.path)).toEqual(await one(ws.path));
    const again = await ctx.api("GET", `${copy.path}/entities/export?typeId=${copy.types.Building}`);
    expect(again.raw).toBe(exported.raw.slice(1));

    const rows = await ctx.api("GET", `${ws.path}/entities/export?typeId=${ws.types.Building}&format=rows`);
    expect(rows.body).toHaveLength(1106);
    expect(rows.body[0]).toEqual([
      "id",
      "type",
      "address",
      "floors",
      "location",
      "name",
      "open",
      "owner",
      "tags",
      "temperature",
    ]);
  });

  it("exports and imports the embedded broker's entities in-process: the export asks no broker page, the import one write a chunk", async () => {
    const ws = await ctx.another();
    /** The API's calls to brokers through its NGSI-LD client, as GET /metrics counts them. */
    const brokerCalls = async () => {
      const text = (await ctx.api("GET", "/metrics")).raw as string;
      return [...text.matchAll(/^orrery_broker_call_duration_seconds_count\{[^}]*\} (\d+)/gm)].reduce(
        (sum, m) => sum + Number(m[1]),
        0,
      );
    };
    // Ids that sort differently as text and as numbers, names with the bytes a regular expression fears.
    const rows = Array.from({ length: 2300 }, (_, i) => ({
      id: `urn:ngsi-ld:Building:${i}`,
      type: "Building",
      name: `.*+?(|\\ ${i}`,
      floors: String(i % 9),
    }));
    // A tenant never written to holds no entity: the file is its header (a 404 of the broker before).
    const empty = await ctx.api("GET", `${ws.path}/entities/export?typeId=${ws.types.Building}`);
    expect(empty.status).toBe(200);
    expect(empty.raw).toBe("id,type,address,floors,location,name,open,owner,tags,temperature\r\n");
    let before = await brokerCalls();
    const created = await ctx.api("POST", `${ws.path}/entities/import?typeId=${ws.types.Building}`, rows);
    expect(created.body).toMatchObject({ total: 2300, created: 2300, updated: 0, rejected: [] });
    // Five chunks of 500: five batch upserts, and no lookup of which ids exist over HTTP (50 before).
    expect((await brokerCalls()) - before).toBe(5);

    before = await brokerCalls();
    const exported = await ctx.api("GET", `${ws.path}/entities/export?typeId=${ws.types.Building}`);
    expect(exported.status).toBe(200);
    expect(await brokerCalls()).toBe(before); // three pages of 1,000 over HTTP before
    const lines = exported.raw.trim().split("\r\n");
    expect(lines).toHaveLength(2301);
    const ids = lines.slice(1).map((l: string) => l.split(",")[0]);
    expect(ids).toEqual(rows.map((r) => r.id).sort());
    expect(lines).toContain(`urn:ngsi-ld:Building:42,Building,,6,,.*+?(|\\ 42,,,,`);

    const again = await ctx.api("POST", `${ws.path}/entities/import?typeId=${ws.types.Building}`, rows);
    expect(again.body).toMatchObject({ total: 2300, created: 0, updated: 2300, rejected: [] });
  });

  it("dates the values of temporal attributes: by the file's observedAt column, else now", async () => {
    const ws = await ctx.another();
    const before = Date.now();
    const csv = [
      "id,type,name,temperature,observedAt",
      "urn:ngsi-ld:Building:t1,Building,Dated,21.5,2026-01-02T03:04:05Z",
      "urn:ngsi-ld:Building:t2,Building,Now,22,",
      "urn:ngsi-ld:Building:t3,Building,Bad date,23,yesterday",
    ].join("\r\n");
    const res = await importCsv(ws.path, ws.types.Building!, csv);
    expect(res.body).toMatchObject({ created: 2 });
    expect(res.body.rejected).toEqual([
      expect.objectContaining({ row: 4, reason: expect.stringContaining("observedAt") }),
    ]);
    const read = async (id: string) => (await ctx.api("GET", `${ws.path}/entities/${id}`)).body;
    const dated = await read("urn:ngsi-ld:Building:t1");
    expect(dated.temperature.observedAt).toBe("2026-01-02T03:04:05.000Z");
    expect(dated.name.observedAt).toBeUndefined(); // not temporal
    const now = await read("urn:ngsi-ld:Building:t2");
    expect(Date.parse(now.temperature.observedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("exports the attributes of NGSI-LD 1.8 written by another client, never as empty cells", async () => {
    const ws = await ctx.another();
    const written = await fetch(`${ctx.base}/ngsi-ld/v1/entities`, {
      method: "POST",
      headers: {
        ...ctx.brokerAuth,
        "NGSILD-Tenant": String(ws.workspace.contextBrokerTenant),
        "content-type": "application/json",
      },
      body: JSON.stringify({
        id: "urn:ngsi-ld:Building:v18",
        type: "Building",
        name: { type: "LanguageProperty", languageMap: { en: "Annex", fr: "Annexe" } },
        address: { type: "JsonProperty", json: { city: "Lyon" } },
        tags: { type: "ListProperty", valueList: ["a", "b"] },
        owner: { type: "ListRelationship", objectList: [{ object: "urn:ngsi-ld:Person:p1" }] },
      }),
    });
    expect(written.status).toBe(201);
    const rows = await ctx.api("GET", `${ws.path}/entities/export?typeId=${ws.types.Building}&format=rows`);
    const [header, row] = rows.body as string[][];
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(JSON.parse(cell("name")!)).toEqual({ en: "Annex", fr: "Annexe" });
    expect(JSON.parse(cell("address")!)).toEqual({ city: "Lyon" });
    expect(JSON.parse(cell("tags")!)).toEqual(["a", "b"]);
    expect(JSON.parse(cell("owner")!)).toEqual([{ object: "urn:ngsi-ld:Person:p1" }]);
  });

  it("answers 400 for an empty file and 404 for an unknown type", async () => {
    const ws = await ctx.another();
    expect((await importCsv(ws.path, ws.types.Building!, "id,type\r\n")).status).toBe(400);
    expect((await importCsv(ws.path, "urn:ngsi-ld:Type:nope", "id,type\r\nx,y")).status).toBe(404);
  });
});
