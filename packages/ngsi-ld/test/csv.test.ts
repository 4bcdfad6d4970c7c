import { describe, expect, it } from "vitest";
import { entityToRow, parseNumber, rowToEntity, type ColumnSpec, type Entity } from "../src/index.ts";
import { say, type MessageCode } from "../../../apps/api/src/messages/say.ts";

/** The entity ↔ row mapping of CSV import/export (notes/original-app.md §3.6, without its bugs). */
const columns: ColumnSpec[] = [
  { name: "name", ngsiLdType: "Property", valueType: "String" },
  { name: "height", ngsiLdType: "Property", valueType: "Number" },
  { name: "open", ngsiLdType: "Property", valueType: "Boolean" },
  { name: "address", ngsiLdType: "Property", valueType: "Object" },
  { name: "tags", ngsiLdType: "Property", valueType: "Array" },
  { name: "location", ngsiLdType: "GeoProperty" },
  { name: "owner", ngsiLdType: "Relationship" },
];

const building: Entity = {
  id: "urn:ngsi-ld:Building:farm001",
  type: "Building",
  name: { type: "Property", value: 'Farm, "north"' },
  height: { type: "Property", value: 12.5, unitCode: "MTR" },
  open: { type: "Property", value: false },
  address: { type: "Property", value: { streetAddress: "Main 1", addressLocality: "Berlin" } },
  tags: { type: "Property", value: ["a", "b"] },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [13.4, 52.5] } },
  owner: { type: "Relationship", object: "urn:ngsi-ld:Person:alice" },
};

const row = (cells: Record<string, string>) => ({
  id: "urn:ngsi-ld:Building:b1",
  type: "Building",
  ...cells,
});
// Reasons are codes; the API words them (here in English, as a reader would see them).
const reasonOf = (r: ReturnType<typeof rowToEntity>) =>
  "reason" in r ? say("en", `row.${r.reason.code}` as MessageCode, r.reason.params) : undefined;
const entityOf = (r: ReturnType<typeof rowToEntity>) => {
  if ("reason" in r) throw new Error(reasonOf(r));
  return r.entity;
};

describe("entityToRow", () => {
  it("writes id, type, then raw values; Object/Array and geometry as JSON text; Relationship as URN", () => {
    expect(entityToRow(building, columns)).toEqual([
      "urn:ngsi-ld:Building:farm001",
      "Building",
      'Farm, "north"',
      "12.5",
      "false",
      '{"streetAddress":"Main 1","addressLocality":"Berlin"}',
      '["a","b"]',
      '{"type":"Point","coordinates":[13.4,52.5]}',
      "urn:ngsi-ld:Person:alice",
    ]);
  });

  it("leaves absent and multi-valued attributes empty", () => {
    const e: Entity = {
      id: "urn:ngsi-ld:Building:x",
      type: "Building",
      name: [
        { type: "Property", value: "a", datasetId: "urn:ngsi-ld:Dataset:1" },
        { type: "Property", value: "b", datasetId: "urn:ngsi-ld:Dataset:2" },
      ],
    };
    expect(entityToRow(e, columns)).toEqual([
      "urn:ngsi-ld:Building:x",
      "Building",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
    ]);
  });

  it("reads keyValues entities too", () => {
    const e: Entity = {
      id: "urn:x:1",
      type: "Building",
      height: 3,
      tags: [1, 2],
      owner: "urn:ngsi-ld:Person:bob",
    };
    expect(entityToRow(e, columns)).toEqual([
      "urn:x:1",
      "Building",
      "",
      "3",
      "",
      "",
      "[1,2]",
      "",
      "urn:ngsi-ld:Person:bob",
    ]);
  });

  it("round-trips through rowToEntity (false booleans, objects and arrays survive)", () => {
    const [id, type, ...cells] = entityToRow(building, columns);
    const back = entityOf(
      rowToEntity(
        { id, type, ...Object.fromEntries(columns.map((c, i) => [c.name, cells[i]])) },
        "Building",
        columns,
      ),
    );
    const { height: _h, ...rest } = building;
    expect(back).toEqual({ ...rest, height: { type: "Property", value: 12.5 } });
  });

  it("writes an Array value a broker compacted to its one element as an array, which imports back", () => {
    const compacted = { ...building, tags: { type: "Property", value: "a" } };
    const cells = entityToRow(compacted, columns);
    expect(cells[2 + columns.findIndex((c) => c.name === "tags")]).toBe('["a"]');
  });
});

describe("rowToEntity: id and type", () => {
  it("strips a UTF-8 BOM from the first header", () => {
    const r = rowToEntity(
      { "\ufeffid": "urn:ngsi-ld:Building:b1", type: "Building", name: "x" },
      "Building",
      columns,
    );
    expect(entityOf(r).id).toBe("urn:ngsi-ld:Building:b1");
  });

  it("generates urn:ngsi-ld:<type>:<uuid> for an empty id", () => {
    const r = entityOf(rowToEntity({ id: "", type: "Building" }, "Building", columns));
    expect(r.id).toMatch(
      /^urn:ngsi-ld:Building:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const other = entityOf(rowToEntity({ id: " ", type: "Building" }, "Building", columns));
    expect(other.id).not.toBe(r.id);
  });

  it("rejects an id that is not a URI", () => {
    expect(reasonOf(rowToEntity({ id: "farm 1", type: "Building" }, "Building", columns))).toMatch(
      /id "farm 1" is not a URI/,
    );
  });

  it("rejects a missing type and a type other than the selected one", () => {
    expect(reasonOf(rowToEntity({ id: "urn:x:1" }, "Building", columns))).toBe("the type is missing");
    expect(reasonOf(rowToEntity({ id: "urn:x:1", type: "" }, "Building", columns))).toBe(
      "the type is missing",
    );
    expect(reasonOf(rowToEntity({ id: "urn:x:1", type: "Shelf" }, "Building", columns))).toMatch(
      /"Shelf" is not Building/,
    );
  });
});

describe("rowToEntity: cells", () => {
  it("leaves empty cells out, ignores unknown columns, keeps strings as written", () => {
    expect(
      entityOf(rowToEntity(row({ name: " Barn ", height: "", other: "zzz" }), "Building", columns)),
    ).toEqual({
      id: "urn:ngsi-ld:Building:b1",
      type: "Building",
      name: { type: "Property", value: " Barn " },
    });
  });

  it.each([
    ["true", true],
    ["FALSE", false],
    ["1", true],
    ["0", false],
    ["yes", true],
    ["No", false],
  ])("reads the boolean %s", (cell, value) => {
    expect(entityOf(rowToEntity(row({ open: cell }), "Building", columns)).open).toEqual({
      type: "Property",
      value,
    });
  });

  it("rejects any other boolean, naming the column", () => {
    expect(reasonOf(rowToEntity(row({ open: "maybe" }), "Building", columns))).toMatch(
      /^column open: "maybe" is not a boolean/,
    );
  });

  it.each([
    ["3,5", 3.5],
    ["1 234,5", 1234.5],
    ["1\u00a0234,5", 1234.5],
    ["1,234.5", 1234.5],
    ["1.234,5", 1234.5],
    ["-12", -12],
    ["2.5e3", 2500],
    [" 7 ", 7],
  ])("reads the number %j", (cell, value) => {
    expect(entityOf(rowToEntity(row({ height: cell }), "Building", columns)).height).toEqual({
      type: "Property",
      value,
    });
  });

  it.each(["abc", "3,5,1", "12m", "1..2", "NaN", "Infinity"])(
    "rejects the number %j naming the column",
    (cell) => {
      expect(reasonOf(rowToEntity(row({ height: cell }), "Building", columns))).toMatch(
        /^column height: .* is not a number$/,
      );
      expect(parseNumber(cell)).toBeUndefined();
    },
  );

  it("parses quoted JSON for Object and Array, and rejects invalid or mistyped JSON naming the column", () => {
    const e = entityOf(rowToEntity(row({ address: '{"a":1}', tags: '["x",2]' }), "Building", columns));
    expect(e.address).toEqual({ type: "Property", value: { a: 1 } });
    expect(e.tags).toEqual({ type: "Property", value: ["x", 2] });
    expect(reasonOf(rowToEntity(row({ address: "{a:1}" }), "Building", columns))).toMatch(
      /^column address: .* is not valid JSON$/,
    );
    expect(reasonOf(rowToEntity(row({ address: "[1]" }), "Building", columns))).toBe(
      "column address: the value is not a JSON object",
    );
    expect(reasonOf(rowToEntity(row({ tags: '{"a":1}' }), "Building", columns))).toBe(
      "column tags: the value is not a JSON array",
    );
  });

  it.each([
    { type: "Point", coordinates: [1, 2] },
    {
      type: "MultiPoint",
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    },
    {
      type: "LineString",
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    },
    {
      type: "MultiLineString",
      coordinates: [
        [
          [1, 2],
          [3, 4],
        ],
      ],
    },
    {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    },
    {
      type: "MultiPolygon",
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      ],
    },
  ])("reads a $type GeoProperty", (geometry) => {
    const e = entityOf(rowToEntity(row({ location: JSON.stringify(geometry) }), "Building", columns));
    expect(e.location).toEqual({ type: "GeoProperty", value: geometry });
  });

  it.each([
    ["not JSON", "{type:Point}", /is not valid JSON/],
    ["an unknown type", '{"type":"Circle","coordinates":[1,2]}', /geometry type "Circle"/],
    ["a Feature", '{"type":"Feature","geometry":null}', /geometry type "Feature"/],
    ["bad Point coordinates", '{"type":"Point","coordinates":["1",2]}', /not a valid Point/],
    [
      "an open Polygon ring",
      '{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}',
      /not a valid Polygon/,
    ],
    ["a one-point LineString", '{"type":"LineString","coordinates":[[0,0]]}', /not a valid LineString/],
    ["an array", "[1,2]", /not a GeoJSON geometry object/],
  ])("rejects a GeoProperty with %s, naming the column", (_what, cell, reason) => {
    const r = reasonOf(rowToEntity(row({ location: cell }), "Building", columns));
    expect(r).toMatch(/^column location: /);
    expect(r).toMatch(reason);
  });

  it("writes a Relationship's target and rejects one that is not a URI", () => {
    expect(
      entityOf(rowToEntity(row({ owner: "urn:ngsi-ld:Person:bob" }), "Building", columns)).owner,
    ).toEqual({
      type: "Relationship",
      object: "urn:ngsi-ld:Person:bob",
    });
    expect(reasonOf(rowToEntity(row({ owner: "bob" }), "Building", columns))).toMatch(
      /^column owner: "bob" is not an entity id/,
    );
  });
});

describe("rowToEntity on an existing entity", () => {
  it("overwrites only the values of non-empty cells, keeping other attributes and metadata", () => {
    const existing: Entity = {
      ...building,
      height: { type: "Property", value: 12.5, unitCode: "MTR", observedAt: "2024-01-01T00:00:00Z" },
      extra: { type: "Property", value: "kept" },
    };
    const e = entityOf(
      rowToEntity({ id: building.id, type: "Building", height: "13,5", name: "" }, "Building", columns, {
        existing,
      }),
    );
    expect(e.height).toEqual({
      type: "Property",
      value: 13.5,
      unitCode: "MTR",
      observedAt: "2024-01-01T00:00:00Z",
    });
    expect(e.name).toEqual(building.name);
    expect(e.extra).toEqual({ type: "Property", value: "kept" });
    expect((existing.height as { value: number }).value).toBe(12.5);
  });
});
