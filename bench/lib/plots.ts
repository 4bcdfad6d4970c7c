/**
 * The plots of docs/performance.md, drawn with vega-lite and rendered to SVG by vega headless
 * (renderer "none": no canvas, no browser). Two kinds:
 * - cost against size on log-log axes, one chart per area (broker, api, console), size unit and cost
 *   unit, from every `growth` array found anywhere in a results file (bench/lib/growth.ts), so a
 *   bench that starts writing one shows without a change here;
 * - each catalogued figure against its goal (bench/lib/figures.ts), one bar chart per area: the
 *   figure as a share of its goal, where under 1 is met, for the benches that record no growth yet.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { Growth } from "./growth.ts";
import { BENCHES, type Area, type FigureSpec, type Goal, type Reading } from "./figures.ts";

export interface ResultsFile {
  /** The file's name without .json: the bench's name. */
  bench: string;
  data: any;
}

export interface Chart {
  /** File name under docs/performance/, such as "growth-broker-entities-ms.svg". */
  file: string;
  title: string;
  spec: TopLevelSpec;
}

/** Every results file of a folder, by name. A file that is not JSON is an error worth seeing. */
export function readResults(dir: string): ResultsFile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), "utf8");
      try {
        return { bench: file.slice(0, -".json".length), data: JSON.parse(text) };
      } catch (error) {
        throw new Error(`${join(dir, file)} is not JSON: ${(error as Error).message}`, { cause: error });
      }
    });
}

const isGrowth = (value: any): value is Growth =>
  value != null &&
  typeof value === "object" &&
  typeof value.name === "string" &&
  Array.isArray(value.steps) &&
  value.steps.every((s: any) => Number.isFinite(s?.size) && Number.isFinite(s?.cost));

/**
 * Every Growth under a `growth` key, at any depth: a top-level array, or one per driver (where a
 * Growth without its own storage takes the driver's name).
 */
export function growthsOf(data: unknown): Growth[] {
  const found: Growth[] = [];
  const walk = (node: unknown, storage: string | undefined) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, storage);
      return;
    }
    if (node == null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const here = typeof record.driver === "string" ? record.driver : storage;
    for (const [key, value] of Object.entries(record)) {
      if (key === "growth") {
        for (const g of Array.isArray(value) ? value : [value]) {
          if (isGrowth(g)) found.push(g.storage || !here ? g : { ...g, storage: here });
        }
      } else walk(value, here);
    }
  };
  walk(data, undefined);
  return found;
}

/** The area a bench belongs to; a bench absent from the catalogue is its own. */
export const areaOf = (bench: string): string => BENCHES[bench]?.area ?? bench;

const AREA_TITLES: Record<Area, string> = { broker: "Broker", api: "API", console: "Console" };
const areaTitle = (area: string) => AREA_TITLES[area as Area] ?? area;

/** A file-name-safe word: letters, digits and dashes only (names come from results files). */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "x";

const series = (g: Growth, bench: string) =>
  `${g.name}${g.storage ? ` (${g.storage})` : ""}${bench ? ` [${bench}]` : ""}`;

/** The powers of ten around some values: a log axis ticked at decades only stays readable. */
export function decades(values: number[]): number[] {
  const low = Math.floor(Math.log10(Math.min(...values)));
  const high = Math.max(Math.ceil(Math.log10(Math.max(...values))), low + 1);
  return Array.from({ length: high - low + 1 }, (_, i) => Number((10 ** (low + i)).toPrecision(1)));
}

/** One log-log chart per area, size unit and cost unit. */
export function growthCharts(results: ResultsFile[]): Chart[] {
  type Row = { series: string; size: number; cost: number };
  const groups = new Map<string, { area: string; sizeUnit: string; unit: string; rows: Row[] }>();
  for (const { bench, data } of results) {
    for (const g of growthsOf(data)) {
      const area = areaOf(bench);
      const key = JSON.stringify([area, g.sizeUnit, g.unit]);
      const group = groups.get(key) ?? { area, sizeUnit: g.sizeUnit, unit: g.unit, rows: [] };
      groups.set(key, group);
      for (const step of g.steps) {
        // A log scale has no place for 0: a cost too small to measure sits at the floor.
        group.rows.push({ series: series(g, bench), size: step.size, cost: Math.max(step.cost, 1e-3) });
      }
    }
  }
  return [...groups.values()]
    .sort((a, b) => (a.area + a.sizeUnit + a.unit).localeCompare(b.area + b.sizeUnit + b.unit))
    .map(({ area, sizeUnit, unit, rows }) => {
      const title = `${areaTitle(area)}: cost (${unit}) against ${sizeUnit}`;
      const xs = decades(rows.map((r) => r.size));
      const ys = decades(rows.map((r) => r.cost));
      return {
        file: `growth-${slug(area)}-${slug(sizeUnit)}-${slug(unit)}.svg`,
        title,
        spec: {
          $schema: "https://vega.github.io/schema/vega-lite/v6.json",
          title,
          width: 480,
          height: 300,
          data: { values: rows },
          mark: { type: "line", point: true },
          encoding: {
            x: {
              field: "size",
              type: "quantitative",
              scale: { type: "log", domain: [xs[0], xs.at(-1)] },
              axis: { values: xs, format: "," },
              title: `${sizeUnit} (log scale)`,
            },
            y: {
              field: "cost",
              type: "quantitative",
              scale: { type: "log", domain: [ys[0], ys.at(-1)] },
              axis: { values: ys, format: "," },
              title: `${unit} (log scale)`,
            },
            color: {
              field: "series",
              type: "nominal",
              title: "measure",
              legend: { orient: "bottom", columns: 1, labelLimit: 600 },
            },
          },
        } as TopLevelSpec,
      };
    });
}

/** How much of its goal a figure uses: value / limit for a ceiling, limit / value for a floor. */
export function shareOfGoal(value: number, goal: Goal): number {
  return goal.op === ">=" ? goal.limit / value : value / goal.limit;
}

/** A goal applies to a reading on its storage and at (at least) its size. */
export function goalApplies(goal: Goal, reading: Reading): boolean {
  if (goal.storage && reading.storage !== goal.storage) return false;
  if (goal.size != null && (reading.size == null || reading.size < goal.size)) return false;
  return true;
}

export interface Judged {
  bench: string;
  figure: FigureSpec;
  reading: Reading;
}

/** Every catalogued figure of the results, one per storage. */
export function judgedFigures(results: ResultsFile[]): Judged[] {
  return results.flatMap(({ bench, data }) =>
    (BENCHES[bench]?.figures ?? []).flatMap((figure) => {
      const readings = figure.read(data);
      return (readings.length ? readings : [{ value: undefined }]).map((reading) => ({
        bench,
        figure,
        reading,
      }));
    }),
  );
}

/** One bar chart per area of each figure's share of its goal (log scale; the rule at 1 is the goal). */
export function goalCharts(results: ResultsFile[]): Chart[] {
  const byArea = new Map<string, object[]>();
  for (const { bench, figure, reading } of judgedFigures(results)) {
    const goal = figure.goal;
    if (!goal || reading.value == null || reading.value <= 0 || !goalApplies(goal, reading)) continue;
    const area = areaOf(bench);
    const rows = byArea.get(area) ?? [];
    byArea.set(area, rows);
    const share = shareOfGoal(reading.value, goal);
    rows.push({
      figure: `${figure.label}${reading.storage ? ` (${reading.storage})` : ""}`,
      share: Math.round(share * 1000) / 1000,
      outcome: share < 1 || (share === 1 && goal.op !== "<") ? "met" : "not met",
    });
  }
  return [...byArea.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, rows]) => {
      const title = `${areaTitle(area)}: figures against their goals (under 1 is met)`;
      return {
        file: `goals-${slug(area)}.svg`,
        title,
        spec: {
          $schema: "https://vega.github.io/schema/vega-lite/v6.json",
          title,
          width: 420,
          data: { values: rows },
          layer: [
            {
              // Each bar runs from the goal (1) to the figure: left of the line is met.
              mark: "bar",
              encoding: {
                y: { field: "figure", type: "nominal", sort: null, title: null, axis: { labelLimit: 420 } },
                x: {
                  field: "share",
                  type: "quantitative",
                  scale: { type: "log" },
                  title: "figure / goal (log scale)",
                },
                x2: { datum: 1 },
                color: {
                  field: "outcome",
                  type: "nominal",
                  scale: { domain: ["met", "not met"], range: ["#4c9a2a", "#c0392b"] },
                  title: "goal",
                },
              },
            },
            { mark: { type: "rule", strokeDash: [4, 3] }, encoding: { x: { datum: 1 } } },
          ],
        } as TopLevelSpec,
      };
    });
}

/** A chart as SVG text, rendered without a canvas or a browser. */
export async function toSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
