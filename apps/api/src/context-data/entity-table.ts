import Papa from "papaparse";
import { rowToEntity, type ColumnSpec, type Entity, type NgsiLdClient } from "@orrery/ngsi-ld";
import { csvExportOptions, fromCsvCell, type ImportReport } from "@orrery/model";
import { say, type Language, type MessageCode, type Params } from "../messages/say.ts";
import type { Item } from "../resources/records.ts";
import { listOrEmpty } from "./broker-access.ts";

/**
 * Entities of one type as a table, in the original's layout (notes/original-app.md 3.6): id, type,
 * then one column per top-level single-valued property of the type, in data-model order.
 */
export function columnsOf(type: Item, propertyList: Item[]): ColumnSpec[] {
  return propertyList
    .filter((p) => p.hasType === type.id && !p.hasProperty && p.multiValued !== true)
    .map((p) => ({
      name: String(p.name),
      ngsiLdType: p.ngsiLdType as ColumnSpec["ngsiLdType"],
      ...(p.propertyNgsiLdValueType
        ? { valueType: p.propertyNgsiLdValueType as ColumnSpec["valueType"] }
        : {}),
      ...(p.temporal === true ? { temporal: true } : {}),
    }));
}

export interface ImportRow {
  /** Row number as in the file: the header is row 1. */
  row: number;
  cells: Record<string, string>;
}

/** CSV text as rows keyed by header: delimiter and line ends detected, BOM dropped, no casting, blank lines skipped. */
export function parseCsv(text: string): ImportRow[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\ufeff/, ""), { header: false, skipEmptyLines: false });
  const [header = [], ...records] = parsed.data;
  const names = header.map((h) => h.trim());
  const rows: ImportRow[] = [];
  records.forEach((cells, i) => {
    if (cells.every((c) => c.trim() === "")) return;
    // A cell exported as text (a formula's `'`, see csvExportOptions) is read back as it was.
    rows.push({
      row: i + 2,
      cells: Object.fromEntries(names.map((n, j) => [n, fromCsvCell(cells[j] ?? "")])),
    });
  });
  return rows;
}

/** Parsed rows (Google Sheets, or a client that parsed the file itself): objects keyed by column. */
export function jsonRows(body: unknown[]): ImportRow[] {
  return body.map((cells, i) => ({
    row: i + 2,
    cells: Object.fromEntries(
      Object.entries((cells ?? {}) as Record<string, unknown>).map(([k, v]) => [
        k.replace(/^\ufeff/, "").trim(),
        v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v),
      ]),
    ),
  }));
}

/** Rows a batch request (under the 1 MB body a broker takes by default), IN_FLIGHT requests at a time. */
const CHUNK = 500;
const IN_FLIGHT = 3;
/** Ids per lookup: 50 URNs keep the query string well under the 16 kB a Node server accepts. */
const LOOKUP = 50;
const PREVIEW = 100;

/** Which of these ids the broker holds (for the created/updated counts); a tenant never written holds none. */
async function existingIds(client: NgsiLdClient, type: string, ids: string[]): Promise<Set<string>> {
  const groups: string[][] = [];
  for (let i = 0; i < ids.length; i += LOOKUP) groups.push(ids.slice(i, i + LOOKUP));
  const pages = await Promise.all(
    groups.map((id) =>
      listOrEmpty(() => client.queryEntities({ type, id, limit: id.length, options: "keyValues" }), {
        entities: [],
      }),
    ),
  );
  return new Set(pages.flatMap((p) => p.entities.map((e) => e.id)));
}

/**
 * Applies rows to the broker with batch upsert (update mode: attributes not in the file are kept),
 * a chunk at a time. A bad row is rejected with its reason and the others go on; a row is accepted
 * only when its type is the selected type. With dryRun nothing is written.
 */
export async function importRows(
  client: NgsiLdClient,
  typeName: string,
  columns: ColumnSpec[],
  rows: ImportRow[],
  options: {
    dryRun?: boolean;
    onProgress?: (done: number, total: number) => void;
    /** The language of the rejected rows' reasons. */
    language?: Language;
    /** Which ids of a chunk exist, when the broker can tell in one question (the embedded one, in-process). */
    existing?: (ids: string[]) => Promise<Set<string>>;
    /** Chunks in flight at a time (default IN_FLIGHT). */
    inFlight?: number;
  } = {},
): Promise<ImportReport> {
  const word = (code: string, params: Params) =>
    say(options.language ?? "en", `row.${code}` as MessageCode, params);
  const report: ImportReport = { total: rows.length, created: 0, updated: 0, rejected: [] };
  if (options.dryRun) report.preview = [];
  const firstRowOf = new Map<string, number>();
  const accepted: Array<{ row: number; entity: Entity }> = [];
  for (const { row, cells } of rows) {
    const result = rowToEntity(cells, typeName, columns);
    if ("reason" in result) {
      const reason = word(result.reason.code, result.reason.params);
      report.rejected.push({ row, ...(cells.id ? { id: cells.id } : {}), reason });
      continue;
    }
    const first = firstRowOf.get(result.entity.id);
    if (first !== undefined) {
      report.rejected.push({ row, id: result.entity.id, reason: word("duplicate", { first }) });
      continue;
    }
    firstRowOf.set(result.entity.id, row);
    accepted.push({ row, entity: result.entity });
  }
  let done = rows.length - accepted.length;
  const chunks: Array<typeof accepted> = [];
  for (let start = 0; start < accepted.length; start += CHUNK)
    chunks.push(accepted.slice(start, start + CHUNK));
  // Several chunks in flight: while the broker writes one, the next one's lookup and request go
  // out (bench/city: the API process sat idle 2/3 of a 100,000-row import, waiting on the store).
  // No two chunks hold the same id (duplicates are rejected above), so their order does not matter
  // to the store; the report is kept in row order.
  const outcomes: Array<{ existing: Set<string>; failed: Map<string, string> }> = [];
  let next = 0;
  let told = 0;
  const worker = async () => {
    for (let i = next++; i < chunks.length; i = next++) {
      const chunk = chunks[i]!;
      const ids = chunk.map((c) => c.entity.id);
      const existing = await (options.existing?.(ids) ?? existingIds(client, typeName, ids));
      const failed = new Map<string, string>();
      if (!options.dryRun) {
        const result = await client.batchUpsert(
          chunk.map((c) => c.entity),
          { mode: "update" },
        );
        for (const e of result.errors)
          failed.set(e.entityId, e.error.detail ?? e.error.title ?? word("refused", {}));
      }
      outcomes[i] = { existing, failed };
      // Progress in row order: a chunk done before those above it is told once they are.
      for (; told < chunks.length && outcomes[told]; told++) {
        done += chunks[told]!.length;
        options.onProgress?.(done, rows.length);
      }
    }
  };
  const inFlight = Math.max(1, options.inFlight ?? IN_FLIGHT);
  await Promise.all(Array.from({ length: Math.min(inFlight, chunks.length) }, worker));
  for (const [i, chunk] of chunks.entries()) {
    const { existing, failed } = outcomes[i]!;
    for (const { row, entity } of chunk) {
      const reason = failed.get(entity.id);
      const action = existing.has(entity.id) ? "update" : "create";
      if (reason) report.rejected.push({ row, id: entity.id, reason });
      else if (action === "update") report.updated++;
      else report.created++;
      if (report.preview && report.preview.length < PREVIEW)
        report.preview.push({ row, id: entity.id, action });
    }
  }
  report.rejected.sort((a, b) => a.row - b.row);
  return report;
}

/** CSV lines (CRLF, quoted only where needed) of some rows. */
export const csvLines = (rows: string[][]) =>
  rows.length ? `${Papa.unparse(rows, { newline: "\r\n", header: false, ...csvExportOptions })}\r\n` : "";
