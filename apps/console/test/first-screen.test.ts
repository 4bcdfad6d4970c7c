import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Rolldown } from "vite";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** The console as `npm run build` makes it, kept in memory. */
async function bundle(): Promise<Rolldown.OutputChunk[]> {
  const mode = process.env.NODE_ENV;
  process.env.NODE_ENV = "production"; // vitest's "test" would build React's development code
  const result = await build({
    root,
    configFile: resolve(root, "vite.config.ts"),
    logLevel: "silent",
    build: { write: false, sourcemap: false },
  }).finally(() => (process.env.NODE_ENV = mode));
  const { output } = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  return output.filter((file): file is Rolldown.OutputChunk => file.type === "chunk");
}

// Issue 26: the sign-in page and a list (bench/console's first screen) load under 170 kB of gzipped
// JavaScript however many screens there are: each screen's code loads with its route. Issue 38 asks
// under 130 kB: without react-bootstrap it was about 136 kB, and about 119 kB with the texts looked up
// by rosetta instead of i18next and react-i18next (src/i18n/index.ts).
describe("first screen", () => {
  it("is under 130 kB of gzipped JavaScript, without the forms', the chart's or the map's code, nor the screens' texts", async () => {
    const chunks = await bundle();
    const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const loaded = new Set<string>();
    const load = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      byFile.get(file)!.imports.forEach(load);
    };
    chunks.filter((chunk) => chunk.isEntry).forEach((chunk) => load(chunk.fileName));
    const list = chunks.find((chunk) => chunk.facadeModuleId?.endsWith("/src/app/KindIndexPage.tsx"));
    load(list!.fileName);
    const files = [...loaded].map((file) => byFile.get(file)!);
    const gzippedKB = files.reduce((sum, chunk) => sum + gzipSync(chunk.code).length, 0) / 1024;
    expect(gzippedKB).toBeLessThan(130);
    const modules = files.flatMap((chunk) => chunk.moduleIds);
    // Texts: the base's English only, no screen's (src/i18n/areas.ts), no other language's. No
    // react-bootstrap either (issue 38): the first screen writes Bootstrap's markup itself
    // (app/bootstrapMarkup.tsx) and a dialog's modal loads when one opens (errors/Dialogs.tsx).
    const screenCode =
      /react-hook-form|\/zod\/|@xyflow|@dagrejs|leaflet|uplot|papaparse|react-bootstrap|@restart\/ui|\/i18n\/\w+\.json|texts:(?!en\/base$)/;
    expect(modules.filter((id) => screenCode.test(id))).toEqual([]);
  }, 120_000);
});
