/**
 * Regenerates the figures of docs/performance.md and its plots from bench/results/*.json
 * (`npm run bench:plot`, bench/plot.ts). Folder arguments so the unit test runs it on a fixture.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { figuresTable, growthList, plotList, replaceGenerated, runsTable } from "./performance-doc.ts";
import { goalCharts, growthCharts, readResults, toSvg } from "./plots.ts";

export interface Generated {
  /** The SVG files written, by name. */
  svgs: Record<string, string>;
  doc: string;
}

export async function generateDocs(options: {
  resultsDir: string;
  /** The folder of the SVGs (docs/performance); SVGs in it that are no longer drawn are removed. */
  plotsDir: string;
  /** docs/performance.md, which must hold the markers. */
  docFile: string;
  /** false: render everything, write nothing (the smoke run). */
  write: boolean;
}): Promise<Generated> {
  const results = readResults(options.resultsDir);
  const charts = [...growthCharts(results), ...goalCharts(results)];
  const svgs: Record<string, string> = {};
  for (const chart of charts) svgs[chart.file] = await toSvg(chart.spec);

  let doc = readFileSync(options.docFile, "utf8");
  doc = replaceGenerated(doc, "runs", runsTable(results));
  doc = replaceGenerated(doc, "figures", figuresTable(results));
  doc = replaceGenerated(doc, "growth", growthList(results));
  doc = replaceGenerated(doc, "plots", plotList(charts));

  if (options.write) {
    mkdirSync(options.plotsDir, { recursive: true });
    for (const file of readdirSync(options.plotsDir)) {
      if (file.endsWith(".svg") && !(file in svgs)) rmSync(join(options.plotsDir, file));
    }
    for (const [file, svg] of Object.entries(svgs)) writeFileSync(join(options.plotsDir, file), svg + "\n");
    writeFileSync(options.docFile, doc);
  }
  return { svgs, doc };
}
