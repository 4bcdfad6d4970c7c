import { subPropertiesOf, type Instance } from "./entityModel.ts";

export interface TemporalAnswer {
  id?: string;
  name?: string;
  fromTime?: number;
  toTime?: number;
  data?: Instance | Instance[];
}

/** "YYYY-MM-DDTHH:mm" of a time, in UTC (the value of a datetime-local input read as UTC). */
export const utcInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/** Unix seconds of a datetime-local value read as UTC; NaN when it is not a date. */
export function utcSeconds(value: string): number {
  const iso = value.length === 16 ? `${value}:00Z` : `${value}Z`;
  return Math.floor(Date.parse(iso) / 1000);
}

/** The default window: the last hour, up to now. */
export function lastHour(now = Date.now()) {
  return { from: utcInput(now - 3600_000), to: utcInput(now) };
}

/** Where a value's time comes from: when it was observed, else when the broker wrote it. */
export type TimeSource = "observedAt" | "modifiedAt" | "createdAt";

/**
 * A value's place in the history: its observedAt, else (a value written without one: a WoT
 * action, an API write) its modifiedAt, else its createdAt, which the API asks the broker for
 * (sysAttrs). Undefined when it has no time at all.
 */
export function timeOf(v: Instance): { at: string; source: TimeSource } | undefined {
  for (const source of ["observedAt", "modifiedAt", "createdAt"] as const) {
    const at = v[source];
    if (typeof at === "string" && !Number.isNaN(Date.parse(at))) return { at, source };
  }
  return undefined;
}

const millis = (v: Instance) => Date.parse(timeOf(v)!.at);

/** The answer's timed values (one or a list), newest first: a value without any time has no place in a history. */
export function sortedValues(answer: TemporalAnswer | undefined): Instance[] {
  const data = answer?.data;
  const list = Array.isArray(data) ? data : data ? [data] : [];
  return list.filter((v) => timeOf(v)).sort((a, b) => millis(b) - millis(a));
}

/** Every sub-property name among the values, in first-seen order (one table column each). */
export function subPropertyNames(values: Instance[]): string[] {
  const names: string[] = [];
  for (const v of values)
    for (const [name] of subPropertiesOf(v)) if (!names.includes(name)) names.push(name);
  return names;
}

/**
 * Numeric values for the line chart: [unix seconds ascending, values, the values that have no
 * observedAt (null elsewhere), drawn marked]; empty when none is numeric.
 */
export function numericSeries(values: Instance[]): [number[], number[], Array<number | null>] {
  const points = values
    .filter((v) => typeof v.value === "number" && timeOf(v))
    .map((v) => [millis(v) / 1000, v.value as number, timeOf(v)!.source !== "observedAt"] as const)
    .sort((a, b) => a[0] - b[0]);
  return [points.map((p) => p[0]), points.map((p) => p[1]), points.map((p) => (p[2] ? p[1] : null))];
}
