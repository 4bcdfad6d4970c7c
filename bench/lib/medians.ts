/**
 * One results file from several runs of a bench (issue 38: "quiet, three runs, medians"). Each run
 * writes the whole bench/results/<bench>.json; `mediansOf` merges them leaf by leaf:
 * - a number: the median of the runs' numbers at the same place (the middle one for an odd count,
 *   so a figure is always one that was measured);
 * - a list of one run's samples (a key named `runs` or ending in `Runs`/`RunsMs`, such as `runsMs`):
 *   every run's samples, one after the other;
 * - another list: merged item by item where every run has as many items, else the last run's;
 * - a yes/no: what most runs said (the middle one sorted, as for numbers);
 * - anything else (a date, a name): the last run's.
 * A growth (`growth` lists, see growth.ts) gets its slopes again from the median costs.
 */
import { growth as growthOf, type Growth } from "./growth.ts";
import { median } from "./measure.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isSamples = (key: string) => key === "runs" || /Runs(Ms|S)?$/.test(key) || /^runs[A-Z]/.test(key);
const isObject = (v: Json | undefined): v is { [key: string]: Json } =>
  v != null && typeof v === "object" && !Array.isArray(v);

function merge(values: Json[], key: string): Json {
  const last = values[values.length - 1]!;
  if (values.every((v) => typeof v === "number")) return median(values as number[]);
  if (values.every((v) => typeof v === "boolean")) return median(values.map((v) => (v ? 1 : 0))) === 1;
  if (values.every(Array.isArray)) {
    const lists = values as Json[][];
    if (isSamples(key)) return lists.flat();
    const length = lists[0]!.length;
    if (lists.some((list) => list.length !== length)) return last;
    return lists[0]!.map((_, i) =>
      merge(
        lists.map((list) => list[i]!),
        key,
      ),
    );
  }
  if (values.every(isObject)) {
    const objects = values as { [key: string]: Json }[];
    const merged: { [key: string]: Json } = {};
    for (const k of Object.keys(objects[objects.length - 1]!)) {
      const present = objects.filter((o) => k in o).map((o) => o[k]!);
      merged[k] = present.length === objects.length ? merge(present, k) : objects[objects.length - 1]![k]!;
    }
    if (Array.isArray(merged.growth)) merged.growth = merged.growth.map(regrow);
    return merged;
  }
  return last;
}

/** A growth whose costs are medians: its slopes and flag from those costs. */
function regrow(g: Json): Json {
  if (!isObject(g) || !Array.isArray(g.steps) || typeof g.name !== "string") return g;
  const steps = g.steps.filter(isObject).map((s) => ({ size: Number(s.size), cost: Number(s.cost) }));
  const again: Growth = growthOf(
    g.name,
    String(g.sizeUnit ?? ""),
    String(g.unit ?? ""),
    steps,
    typeof g.storage === "string" ? g.storage : undefined,
  );
  return {
    ...g,
    steps: again.steps as unknown as Json,
    slopes: again.slopes,
    fasterThanLinear: again.fasterThanLinear,
  };
}

export interface RunNote {
  date?: string;
  loadAverage?: { before: number; after: number };
}

/** The merged results of `runs` (in run order), with a `repeat` record of how they were taken. */
export function mediansOf(runs: Record<string, unknown>[], command: string): Record<string, unknown> {
  if (runs.length === 0) throw new Error("no run to merge");
  const merged = merge(runs as unknown as Json[], "") as Record<string, unknown>;
  const notes = runs as RunNote[];
  const loads = notes.map((r) => r.loadAverage).filter((l): l is { before: number; after: number } => !!l);
  return {
    ...merged,
    // The run table shows the worst load any run started or ended at, not a median of it.
    ...(loads.length
      ? {
          loadAverage: {
            before: Math.max(...loads.map((l) => l.before)),
            after: Math.max(...loads.map((l) => l.after)),
          },
        }
      : {}),
    repeat: {
      runs: runs.length,
      figures: "median of the runs at every place; samples lists hold every run's samples",
      command,
      dates: notes.map((r) => r.date ?? null),
      loadAverages: notes.map((r) => r.loadAverage ?? null),
    },
  };
}
