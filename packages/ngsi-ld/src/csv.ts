import { randomUUID } from "node:crypto";
import { contentOf, isAttributeKind } from "@orrery/model";
import type { Entity } from "./client.ts";

/**
 * Entities of one type as table rows and back, for CSV and Google Sheets import/export.
 * Layout as the original's (notes/original-app.md §3.6): `id`, `type`, then one column per
 * top-level single-valued property of the type in data-model order. Property → the raw value
 * (Object/Array as JSON text), GeoProperty → the GeoJSON geometry as JSON text, Relationship → the
 * target URN, absent → empty cell. Import fixes the original's bugs listed there: BOM, booleans,
 * comma decimals, JSON that does not parse, and it never guesses: a cell it cannot read rejects the
 * row with a reason naming the column. Parsing the CSV text itself is the caller's (papaparse).
 */
export interface ColumnSpec {
  name: string;
  ngsiLdType: "Property" | "GeoProperty" | "Relationship";
  valueType?: "String" | "Number" | "Boolean" | "Object" | "Array";
  /** Kept in a temporal service: a value set by the import gets an observedAt. */
  temporal?: boolean;
}

/**
 * Why a row was rejected, as a stable code and its parameters, for the caller to word in the
 * reader's language (the API's catalogue has `row.<code>`).
 */
export interface RowReason {
  code:
    | "notJson"
    | "notUri"
    | "notGeometry"
    | "geometryType"
    | "geometryCoordinates"
    | "notNumber"
    | "notBoolean"
    | "notObject"
    | "notArray"
    | "noType"
    | "otherType"
    | "idNotUri"
    | "observedAt";
  params: Record<string, string>;
}

export type RowResult = { entity: Entity } | { reason: RowReason };

/** The attribute's value in normalized form, or the raw value of a keyValues/concise one. */
function valueOf(attribute: unknown, column: ColumnSpec): unknown {
  if (typeof attribute === "object" && attribute !== null && !Array.isArray(attribute)) {
    const a = attribute as Record<string, unknown>;
    // Each kind's own member: the languageMap of a LanguageProperty, the vocab of a VocabProperty...
    if (isAttributeKind(a.type)) return contentOf(a);
    if (column.ngsiLdType === "Relationship" && "object" in a) return a.object;
    if (column.ngsiLdType !== "GeoProperty" && "value" in a && Object.keys(a).length === 1) return a.value;
  }
  return attribute;
}

const isInstance = (i: unknown) =>
  typeof i === "object" && i !== null && isAttributeKind((i as { type?: unknown }).type);

function cellOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** One entity as a row: id, type, then one cell per column. Multi-valued attributes (arrays of instances) are left empty. */
export function entityToRow(entity: Entity, columns: ColumnSpec[]): string[] {
  const type = Array.isArray(entity.type) ? entity.type.join(",") : entity.type;
  return [
    entity.id,
    type,
    ...columns.map((c) => {
      const attribute = entity[c.name];
      // Several instances (datasetId) are not representable in one cell (notes/original-app.md §3.6).
      if (Array.isArray(attribute) && attribute.some(isInstance)) return "";
      const value = valueOf(attribute, c);
      // A broker gives an array of one element back as the element (JSON-LD compaction); the cell keeps it an array.
      return cellOf(c.valueType === "Array" && value != null && !Array.isArray(value) ? [value] : value);
    }),
  ];
}

const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s"<>\\^`{|}]+$/;
export const isUri = (text: string) => uriPattern.test(text);

const booleans: Record<string, boolean> = {
  true: true,
  false: false,
  "1": true,
  "0": false,
  yes: true,
  no: false,
};

/** "3.5", "3,5", "1 234,5", "1,234.5", "1.234,5", "-2e3" → number; anything else → undefined. */
export function parseNumber(text: string): number | undefined {
  let t = text.trim().replace(/[\s\u00a0\u202f']/g, "");
  const comma = t.lastIndexOf(",");
  const dot = t.lastIndexOf(".");
  if (comma >= 0 && dot >= 0) {
    // Both: the last one is the decimal separator, the other groups thousands.
    t = comma > dot ? t.replaceAll(".", "").replace(",", ".") : t.replaceAll(",", "");
  } else if (comma >= 0) {
    if (t.indexOf(",") !== comma) return undefined;
    t = t.replace(",", ".");
  }
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

const isPosition = (p: unknown) =>
  Array.isArray(p) &&
  (p.length === 2 || p.length === 3) &&
  p.every((n) => typeof n === "number" && Number.isFinite(n));
const isPositions = (ps: unknown, min: number) =>
  Array.isArray(ps) && ps.length >= min && ps.every(isPosition);
const isRing = (r: unknown) =>
  isPositions(r, 4) &&
  (r as number[][])[0].every((n, i) => n === (r as number[][])[(r as number[][]).length - 1][i]);
const isPolygon = (p: unknown) => Array.isArray(p) && p.length >= 1 && p.every(isRing);

/** Why a value is not one of the six GeoJSON geometries NGSI-LD GeoProperties hold, or undefined when it is. */
function geometryProblem(value: unknown, column: string): RowReason | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { code: "notGeometry", params: { column } };
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  const valid: Record<string, (c: unknown) => boolean> = {
    Point: isPosition,
    MultiPoint: (c) => isPositions(c, 1),
    LineString: (c) => isPositions(c, 2),
    MultiLineString: (c) => Array.isArray(c) && c.length >= 1 && c.every((l) => isPositions(l, 2)),
    Polygon: isPolygon,
    MultiPolygon: (c) => Array.isArray(c) && c.length >= 1 && c.every(isPolygon),
  };
  if (typeof type !== "string" || !(type in valid))
    return {
      code: "geometryType",
      params: { column, type: JSON.stringify(type) ?? "", types: Object.keys(valid).join(", ") },
    };
  if (!valid[type](coordinates)) return { code: "geometryCoordinates", params: { column, type } };
  return undefined;
}

type Parsed = { value: unknown } | { reason: RowReason };

function parseCell(cell: string, column: ColumnSpec): Parsed {
  const because = (code: RowReason["code"], value = cell): Parsed => ({
    reason: { code, params: { column: column.name, value: JSON.stringify(value.slice(0, 60)) } },
  });
  const json = (): Parsed => {
    try {
      return { value: JSON.parse(cell) };
    } catch {
      return because("notJson");
    }
  };
  if (column.ngsiLdType === "Relationship") {
    const target = cell.trim();
    return isUri(target) ? { value: target } : because("notUri", target);
  }
  if (column.ngsiLdType === "GeoProperty") {
    const parsed = json();
    if ("reason" in parsed) return parsed;
    const problem = geometryProblem(parsed.value, column.name);
    return problem ? { reason: problem } : parsed;
  }
  switch (column.valueType) {
    case "Number": {
      const n = parseNumber(cell);
      return n === undefined ? because("notNumber") : { value: n };
    }
    case "Boolean": {
      const b = booleans[cell.trim().toLowerCase()];
      return b === undefined ? because("notBoolean") : { value: b };
    }
    case "Object": {
      const parsed = json();
      if ("reason" in parsed) return parsed;
      return typeof parsed.value === "object" && parsed.value !== null && !Array.isArray(parsed.value)
        ? parsed
        : because("notObject");
    }
    case "Array": {
      const parsed = json();
      if ("reason" in parsed) return parsed;
      return Array.isArray(parsed.value) ? parsed : because("notArray");
    }
    default:
      return { value: cell };
  }
}

/**
 * One row (cells keyed by header) as an entity of `typeName`. Empty cells leave the attribute out;
 * with `existing`, the row is applied on top of it: attributes not in the row, and the metadata
 * (observedAt, unitCode, sub-properties) of those it sets, are kept.
 */
export function rowToEntity(
  row: Record<string, string>,
  typeName: string,
  columns: ColumnSpec[],
  options: { existing?: Entity; now?: string } = {},
): RowResult {
  // Excel writes a UTF-8 BOM, which ends up in the first header (notes/original-app.md §3.6).
  const cells: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) cells[k.replace(/^\ufeff/, "").trim()] = v ?? "";
  const type = (cells.type ?? "").trim();
  if (!type) return { reason: { code: "noType", params: {} } };
  if (type !== typeName)
    return { reason: { code: "otherType", params: { type: JSON.stringify(type), expected: typeName } } };
  let id = (cells.id ?? "").trim();
  if (!id) id = options.existing?.id ?? `urn:ngsi-ld:${typeName}:${randomUUID()}`;
  else if (!isUri(id)) return { reason: { code: "idNotUri", params: { id: JSON.stringify(id) } } };

  // The values of temporal attributes are dated: by an `observedAt` column when the file has one, else now.
  const stamp = (cells.observedAt ?? "").trim();
  if (stamp && Number.isNaN(Date.parse(stamp)))
    return { reason: { code: "observedAt", params: { value: JSON.stringify(stamp) } } };
  const observedAt = stamp ? new Date(stamp).toISOString() : (options.now ?? new Date().toISOString());

  const entity: Entity = options.existing
    ? { ...structuredClone(options.existing), id, type: typeName }
    : { id, type: typeName };
  for (const column of columns) {
    const cell = cells[column.name];
    if (cell === undefined || cell.trim() === "") continue;
    const parsed = parseCell(cell, column);
    if ("reason" in parsed) return parsed;
    const key = column.ngsiLdType === "Relationship" ? "object" : "value";
    const current = entity[column.name];
    const keep =
      typeof current === "object" &&
      current !== null &&
      !Array.isArray(current) &&
      (current as { type?: unknown }).type === column.ngsiLdType
        ? (current as Record<string, unknown>)
        : {};
    entity[column.name] = {
      ...keep,
      type: column.ngsiLdType,
      [key]: parsed.value,
      ...(column.temporal ? { observedAt } : {}),
    };
  }
  return { entity };
}
