import { describe, expect, it } from "vitest";
import { growth } from "../lib/growth.ts";
import { mediansOf } from "../lib/medians.ts";

const run = (n: number, extra: Record<string, unknown> = {}) => ({
  benchmark: "load",
  date: `2026-11-29T07:0${n}:00.000Z`,
  loadAverage: { before: 0.5 * n, after: 0.4 * n },
  drivers: [
    {
      driver: "pglite",
      brokers: { perSecond: [1800, 2100, 1950][n - 1], p95Ms: [40, 31, 55][n - 1] },
      signIn: { median: [900, 700, 800][n - 1], runs: [n, n + 10] },
      goals: { ok: [true, false, true][n - 1] },
    },
  ],
  growth: [
    growth("list", "records", "ms", [
      { size: 1000, cost: 1 },
      { size: 10000, cost: [10, 30, 20][n - 1]! },
    ]),
  ],
  ...extra,
});

describe("bench/repeat: the medians of several runs of a bench", () => {
  const merged = mediansOf([run(1), run(2), run(3)], "npm run bench:repeat -- load") as any;

  it("keeps at every place the median of the runs, which is a figure one run measured", () => {
    expect(merged.drivers[0].brokers).toEqual({ perSecond: 1950, p95Ms: 40 });
    expect(merged.drivers[0].signIn.median).toBe(800);
    expect(merged.drivers[0].driver).toBe("pglite");
  });

  it("keeps every run's samples, and what most runs said", () => {
    expect(merged.drivers[0].signIn.runs).toEqual([1, 11, 2, 12, 3, 13]);
    expect(merged.drivers[0].goals.ok).toBe(true);
  });

  it("takes a growth's slopes again from the median costs", () => {
    expect(merged.growth[0].steps).toEqual([
      { size: 1000, cost: 1 },
      { size: 10000, cost: 20 },
    ]);
    expect(merged.growth[0].slopes).toEqual([1.3]);
    expect(merged.growth[0].fasterThanLinear).toBe(true);
  });

  it("says how it was taken, with the worst load any run saw", () => {
    expect(merged.repeat).toMatchObject({
      runs: 3,
      command: "npm run bench:repeat -- load",
      dates: [run(1).date, run(2).date, run(3).date],
    });
    expect(merged.loadAverage.before).toBe(1.5);
    expect(merged.loadAverage.after).toBeCloseTo(1.2);
    expect(merged.date).toBe(run(3).date);
  });

  it("keeps the last run's list where the runs' lists differ in length, and refuses no runs", () => {
    const a = run(1, { steps: [1, 2] });
    const b = run(2, { steps: [1, 2, 3] });
    expect((mediansOf([a, b], "x") as any).steps).toEqual([1, 2, 3]);
    expect(() => mediansOf([], "x")).toThrow(/no run/);
  });
});
