import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateDocs } from "../lib/generate-docs.ts";

const fixtures = join(import.meta.dirname, "fixtures/results");

const DOC = `# Performance

Hand-written prose stays.

<!-- generated:runs:start -->
old runs
<!-- generated:runs:end -->

Between the tables, prose too.

<!-- generated:figures:start -->
<!-- generated:figures:end -->
<!-- generated:growth:start -->
<!-- generated:growth:end -->
<!-- generated:plots:start -->
<!-- generated:plots:end -->

The end.
`;

/** The texts an SVG shows (titles, axis titles, tick and legend labels), unescaped once. */
const textsOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

describe("bench/plot: docs/performance.md and its plots from bench/results", () => {
  let dir: string;
  let plotsDir: string;
  let docFile: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "orrery-plot-"));
    plotsDir = join(dir, "performance");
    docFile = join(dir, "performance.md");
    mkdirSync(plotsDir);
    writeFileSync(join(plotsDir, "growth-gone-rows-ms.svg"), "<svg/>");
    writeFileSync(join(plotsDir, "a-hand-drawing.png"), "not generated");
    writeFileSync(docFile, DOC);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const generate = () => generateDocs({ resultsDir: fixtures, plotsDir, docFile, write: true });

  it("draws every growth array it finds, per driver or top level, on log-log axes", async () => {
    const { svgs } = await generate();
    const broker = readFileSync(join(plotsDir, "growth-broker-entities-ms.svg"), "utf8");
    expect(broker).toBe(svgs["growth-broker-entities-ms.svg"] + "\n");
    const texts = textsOf(broker);
    expect(texts).toContain("Broker: cost (ms) against entities");
    expect(texts).toContain("entities (log scale)");
    expect(texts).toContain("ms (log scale)");
    // Decades on the size axis: a log scale, not a linear one.
    expect(texts).toEqual(expect.arrayContaining(["10,000", "100,000", "1,000,000"]));
    // A growth under drivers[] takes the driver's name as its storage.
    expect(texts).toContain("type + q query, page one (pglite) [broker]");
    expect(texts).toContain("CSV export (postgresql) [broker]");

    // A bench outside the catalogue gets its own chart; hostile names stay text, not markup.
    const city = readFileSync(join(plotsDir, "growth-city-workspaces-s.svg"), "utf8");
    expect(textsOf(city)).toContain("city: cost (s) against workspaces");
    expect(city).not.toContain("<b>");
    expect(city).toContain("map &lt;b&gt;|bbox|&lt;/b&gt; .*+?(|\\ (postgresql) [city]");
  });

  it("draws the figures against their goals, and removes plots no longer drawn", async () => {
    await generate();
    expect(readdirSync(plotsDir).sort()).toEqual([
      "a-hand-drawing.png",
      "goals-broker.svg",
      "goals-console.svg",
      "growth-broker-entities-ms.svg",
      "growth-city-workspaces-s.svg",
    ]);
    const texts = textsOf(readFileSync(join(plotsDir, "goals-broker.svg"), "utf8"));
    expect(texts).toContain("Broker: figures against their goals (under 1 is met)");
    expect(texts).toContain("figure / goal (log scale)");
    expect(texts).toContain("Batch upsert against a raw insert (pglite)");
    expect(texts).toContain("Temporal load (postgresql)");
    // The temporal goal is PostgreSQL's only: PGlite's rate is not drawn against it.
    expect(texts).not.toContain("Temporal load (pglite)");
  });

  it("writes the runs and the figures beside their goals between the markers, keeping the prose", async () => {
    const { doc } = await generate();
    expect(readFileSync(docFile, "utf8")).toBe(doc);
    expect(doc).toContain("Hand-written prose stays.\n\n<!-- generated:runs:start -->\n| Bench |");
    expect(doc).toContain("Between the tables, prose too.");
    expect(doc).toContain("The end.\n");
    expect(doc).not.toContain("old runs");

    expect(doc).toContain(
      "| broker | 2026-01-02 03:04:05, one run | v20.20.2 | 2 x Test CPU | 0.5 → 0.75 | `npx tsx bench/broker.ts` |",
    );
    expect(doc).toContain(
      "| console | 2026-01-02 06:00:00, median of 3 runs | v20.20.2 | - | - | `npx tsx bench/console.ts` |",
    );
    expect(doc).toContain(
      "| city | 2026-01-02 05:00:00, one run | v20.20.2 | 2 x Test CPU | 1 → 1 | `npx tsx bench/city.ts` |",
    );

    expect(doc).toContain(
      "| broker | Batch upsert against a raw insert | pglite | 1.4x | ≤ 1.5x [issue 38] | met |",
    );
    expect(doc).toContain(
      "| broker | Batch upsert against a raw insert | postgresql | 1.6x | ≤ 1.5x [issue 38] | **not met** |",
    );
    expect(doc).toContain(
      "| broker | Type + q page one (count=true) after a write, p50 | postgresql | not in results | < 20 ms [issue 38] | - |",
    );
    expect(doc).toContain(
      "| broker | Temporal load | pglite | 12,000/s | ≥ 100,000/s (postgresql) [issue 38] | - |",
    );
    expect(doc).toContain(
      "| broker | Temporal load | postgresql | 120,000/s | ≥ 100,000/s (postgresql) [issue 38] | met |",
    );
    expect(doc).toContain(
      "| console | First screen JS, gzipped | - | 120.4 kB | < 130 kB [issue 38] | met |",
    );
    expect(doc).toContain(
      "| console | Sign-in to a usable list, median | - | 612 ms | < 500 ms [issue 38] | **not met** |",
    );
    expect(doc).toContain("| city | All of the bench's own goals | - | - | [bench] | **not met** |");

    expect(doc).toContain(
      "- broker: CSV export (postgresql): 10,000 → 100 ms, 100,000 → 2500 ms (slope 1.40)  FASTER THAN LINEAR",
    );
    // Markdown in a name from a results file is escaped, not rendered.
    expect(doc).toContain("- city: map \\<b\\>\\|bbox\\|\\</b\\> .\\*+?(\\|\\\\ (postgresql)");
    expect(doc).toContain("![Broker: cost (ms) against entities](performance/growth-broker-entities-ms.svg)");
  });

  it("gives the same page and plots when run again", async () => {
    const first = await generate();
    const second = await generate();
    expect(second.doc).toBe(first.doc);
    expect(second.svgs).toEqual(first.svgs);
  });

  it("refuses a page whose markers were lost, and writes nothing", async () => {
    writeFileSync(docFile, DOC.replace("<!-- generated:figures:end -->", ""));
    await expect(generate()).rejects.toThrow(
      "<!-- generated:figures:start --> ... <!-- generated:figures:end -->",
    );
    expect(readdirSync(plotsDir)).toContain("growth-gone-rows-ms.svg");
  });
});
