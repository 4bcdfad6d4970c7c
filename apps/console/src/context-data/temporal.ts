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

const dated = (v: Instance) => !!v.observedAt && !Number.isNaN(Date.parse(v.observedAt));

/** The answer's dated values (one or a list), newest first: a value without observedAt has no place in a history. */
export function sortedValues(answer: TemporalAnswer | undefined): Instance[] {
  const data = answer?.data;
  const list = Array.isArray(data) ? data : data ? [data] : [];
  return list.filter(dated).sort((a, b) => Date.parse(b.observedAt!) - Date.parse(a.observedAt!));
}

/** Every sub-property name among the values, in first-seen order (one table column each). */
export function subPropertyNames(values: Instance[]): string[] {
  const names: string[] = [];
  for (const v of values)
    for (const [name] of subPropertiesOf(v)) if (!names.includes(name)) names.push(name);
  return names;
}

/** Numeric values as [unix seconds ascending, values] for the line chart; empty when none is numeric. */
export function numericSeries(values: Instance[]): [number[], number[]] {
  const points = values
    .filter((v) => typeof v.value === "number" && dated(v))
    .map((v) => [Date.parse(v.observedAt!) / 1000, v.value as number] as const)
    .sort((a, b) => a[0] - b[0]);
  return [points.map((p) => p[0]), points.map((p) => p[1])];
}
