import type { ImportReport } from "@orrery/model";
import { call } from "../api.ts";
import { postImport } from "./importExport.ts";

/**
 * Writes to one attribute's history through the API (temporal-routes.ts): add a value, correct
 * one (value, time, unit; it keeps its instanceId), delete one, import a CSV of time, value, unit.
 * Values travel as the text typed, read by the API as the entity import reads a cell.
 */
export interface HistoryRow {
  /** ISO 8601; without a zone, UTC. */
  time?: string;
  value?: string;
  unit?: string;
}

export const historyPath = (ws: string, entityId: string, propertyId: string) =>
  `/workspace/${ws}/temporal-entities/${encodeURIComponent(entityId)}/properties/${encodeURIComponent(propertyId)}/instances`;

const instancePath = (base: string, instanceId: string) => `${base}/${encodeURIComponent(instanceId)}`;

export const historyWrites = {
  add: (base: string, row: HistoryRow) => call(base, { method: "POST", body: row }),
  correct: (base: string, instanceId: string, row: HistoryRow) =>
    call(instancePath(base, instanceId), { method: "PATCH", body: row }),
  remove: (base: string, instanceId: string) => call(instancePath(base, instanceId), { method: "DELETE" }),
  import: (base: string, csv: string, dryRun: boolean): Promise<ImportReport> =>
    postImport(`${base}/import`, {}, { csv }, { dryRun }),
};

/** "YYYY-MM-DDTHH:mm:ss" of an ISO time in UTC, for a datetime-local input (step 1 s) read as UTC. */
export const utcSecondsInput = (iso: string | undefined) =>
  iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso).toISOString().slice(0, 19) : "";

/** The text of a value for its input: a string as is, anything else as JSON. */
export const valueText = (value: unknown) =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
