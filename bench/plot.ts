/**
 * bench/plot: docs/performance.md's figures and plots, regenerated from bench/results/*.json.
 * Run: `npm run bench:plot` after a bench run (then commit bench/results, docs/performance.md and
 * docs/performance/*.svg together). The tables between the markers of docs/performance.md and every
 * SVG under docs/performance/ are generated; the prose around them is written by hand.
 * In the smoke run (BENCH_SMOKE=1) it renders everything and writes nothing, so CI notices a plotter
 * that no longer runs on the committed results.
 */
import { join, resolve } from "node:path";
import { generateDocs } from "./lib/generate-docs.ts";
import { smoke } from "./lib/smoke.ts";

const root = resolve(import.meta.dirname, "..");
const { svgs } = await generateDocs({
  resultsDir: join(root, "bench/results"),
  plotsDir: join(root, "docs/performance"),
  docFile: join(root, "docs/performance.md"),
  write: !smoke,
});
const files = Object.keys(svgs);
console.log(
  `${smoke ? "rendered (smoke run, nothing written)" : "wrote docs/performance.md and"} ${files.length} plots` +
    (files.length ? `: ${files.join(", ")}` : ""),
);
