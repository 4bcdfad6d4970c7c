/**
 * BENCH_SMOKE=1: a bench at a tiny size, through the same code path, printing its figures and
 * writing no results file (bench/results keeps the real runs). `npm run bench:smoke` runs every
 * bench this way in CI, so that none can stop working unnoticed; its figures are not judged.
 */
export const smoke = process.env.BENCH_SMOKE === "1";

/** The bench's real size, or its tiny one in a smoke run. */
export const sized = (full: number, tiny: number) => (smoke ? tiny : full);
