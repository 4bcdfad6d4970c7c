/**
 * How a cost grows with size (issue 38): a bench measures the same thing at several sizes (say 10k,
 * 100k and 1M entities) and reports a `Growth` in its results file, under the key `growth` (an
 * array, one per measured thing). Between two steps the slope is the exponent k in cost ∝ size^k,
 * taken on a log-log scale: 0 for a cost that does not grow (an indexed page), 1 for a linear one
 * (an export), 2 for a quadratic one. A slope above LINEAR_LIMIT is called faster than linear.
 * The plots of docs/performance.md are drawn from these (bench/plot.ts).
 */

/** One measure at one size. `cost` is in `unit` (ms for a latency, s for a whole run). */
export interface Step {
  size: number;
  cost: number;
}

export interface Growth {
  /** What was measured, such as "type + q query, page one". */
  name: string;
  /** What the size counts, such as "entities", "workspaces", "rows". */
  sizeUnit: string;
  /** The cost's unit, such as "ms" or "s". */
  unit: string;
  /** The storage, where one is involved ("pglite", "postgresql"). */
  storage?: string;
  steps: Step[];
  /** Slope between each step and the next (steps.length - 1 of them). */
  slopes: number[];
  /** Any slope above LINEAR_LIMIT. */
  fasterThanLinear: boolean;
}

/** Measure noise makes a linear cost read 1.0-1.1; above this it grows faster than linear. */
export const LINEAR_LIMIT = 1.15;

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Slope of cost against size on a log-log scale between two steps. */
export function slope(a: Step, b: Step): number {
  if (a.size <= 0 || b.size <= 0 || a.size === b.size) return NaN;
  const costA = Math.max(a.cost, 1e-9);
  const costB = Math.max(b.cost, 1e-9);
  return Math.log(costB / costA) / Math.log(b.size / a.size);
}

/** The Growth of measures taken at several sizes (sorted by size). */
export function growth(
  name: string,
  sizeUnit: string,
  unit: string,
  steps: Step[],
  storage?: string,
): Growth {
  const sorted = [...steps].sort((a, b) => a.size - b.size);
  const slopes = sorted.slice(1).map((step, i) => round(slope(sorted[i]!, step)));
  return {
    name,
    sizeUnit,
    unit,
    ...(storage ? { storage } : {}),
    steps: sorted.map((s) => ({ size: s.size, cost: round(s.cost, 3) })),
    slopes,
    fasterThanLinear: slopes.some((k) => k > LINEAR_LIMIT),
  };
}

/** A printable line: "type + q query (pglite): 10,000 → 3.1 ms, 100,000 → 3.4 ms (slope 0.04)". */
export function growthLine(g: Growth): string {
  const steps = g.steps.map((s) => `${s.size.toLocaleString("en-US")} → ${s.cost} ${g.unit}`).join(", ");
  const slopes = g.slopes.map((k) => (Number.isFinite(k) ? k.toFixed(2) : "-")).join(", ");
  const flag = g.fasterThanLinear ? "  FASTER THAN LINEAR" : "";
  return `${g.name}${g.storage ? ` (${g.storage})` : ""}: ${steps} (slope ${slopes})${flag}`;
}
