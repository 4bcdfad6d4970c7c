import type { ImportReport } from "@orrery/model";
import { call } from "../api.ts";
import { apiError, authorization, paths } from "./entityQueries.ts";

/** What is imported: the CSV file as it is, or a sheet's rows as objects keyed by column. */
export type ImportSource = { csv: string } | { rows: Array<Record<string, string>> };

/** The first rows of a CSV, parsed as the server will: header row, no casting (papaparse, loaded on demand). */
export async function previewCsv(text: string, rows = 10) {
  const { default: Papa } = await import("papaparse");
  const result = Papa.parse<Record<string, string>>(text, {
    header: true,
    dynamicTyping: false,
    skipEmptyLines: true,
    preview: rows,
  });
  return { fields: result.meta.fields ?? [], rows: result.data, errors: result.errors };
}

/** A sheet (2-D array, header first) as objects keyed by column. */
export function sheetRows(sheet: string[][]): { fields: string[]; rows: Array<Record<string, string>> } {
  const [header = [], ...body] = sheet;
  return {
    fields: header,
    rows: body
      .filter((row) => row.some((cell) => cell !== ""))
      .map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ""]))),
  };
}

/**
 * Sends an import (a dry run when asked). The real one asks for a stream of progress lines
 * (application/x-ndjson) and reports each; a server that answers plain JSON is read the same.
 */
export async function sendImport(
  ws: string,
  typeId: string,
  source: ImportSource,
  options: { dryRun?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<ImportReport> {
  return postImport(`${paths.entities(ws)}/import`, { typeId }, source, options);
}

/** An import to any API path that answers an ImportReport (entities, an attribute's history). */
export async function postImport(
  path: string,
  params: Record<string, string>,
  source: ImportSource,
  options: { dryRun?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<ImportReport> {
  const query = new URLSearchParams({ ...params, ...(options.dryRun ? { dryRun: "true" } : {}) });
  const response = await fetch(`/api${path}?${query}`, {
    method: "POST",
    headers: {
      ...authorization(path),
      accept: options.dryRun ? "application/json" : "application/x-ndjson, application/json",
      "content-type": "csv" in source ? "text/csv" : "application/json",
    },
    body: "csv" in source ? source.csv : JSON.stringify(source.rows),
  });
  if (!response.ok) throw await apiError(response);
  if (!(response.headers.get("content-type") ?? "").includes("ndjson") || !response.body)
    return (await response.json()) as ImportReport;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let report: ImportReport | undefined;
  const line = (text: string) => {
    if (!text.trim()) return;
    const message = JSON.parse(text) as { progress?: { done: number; total: number }; report?: ImportReport };
    if (message.progress) options.onProgress?.(message.progress.done, message.progress.total);
    if (message.report) report = message.report;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    lines.forEach(line);
  }
  line(buffer);
  if (!report) throw new Error("The import ended without a report.");
  return report;
}

/** Downloads the type's CSV (bearer token, then a Blob link): `<TypeName>.csv`. */
export async function downloadCsv(ws: string, typeId: string, typeName: string, bom: boolean) {
  const query = new URLSearchParams({ typeId, ...(bom ? { bom: "true" } : {}) });
  const response = await fetch(`/api${paths.entities(ws)}/export?${query}`, {
    headers: { ...authorization(paths.entities(ws)), accept: "text/csv" },
  });
  if (!response.ok) throw await apiError(response);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `${typeName}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const sheetQuery = (spreadsheetId: string, sheetName: string) => ({ spreadsheetId, sheetName });

export const sheets = {
  read: async (spreadsheetId: string, sheetName: string) =>
    (
      await call<string[][]>("/proxies/google-sheets/read-sheet", {
        query: sheetQuery(spreadsheetId, sheetName),
      })
    ).data,
  /** The type's rows (header first) written into the sheet. */
  write: async (ws: string, typeId: string, spreadsheetId: string, sheetName: string) => {
    const rows = (
      await call<string[][]>(`${paths.entities(ws)}/export`, { query: { typeId, format: "rows" } })
    ).data;
    await call("/proxies/google-sheets/write-sheet", {
      method: "POST",
      query: sheetQuery(spreadsheetId, sheetName),
      body: rows,
    });
    return rows.length - 1;
  },
};
