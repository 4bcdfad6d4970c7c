import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import type { OutputBundle, OutputChunk } from "rolldown";
import type { Plugin } from "vite";

const entry = fileURLToPath(new URL("./src/start-early.ts", import.meta.url));

/**
 * The files of the workspace view's code that the entry does not already load: its chunk and the
 * chart's, the chunks they import and their stylesheets, as URLs. The start-up script loads them
 * early on a workspace's address.
 */
function viewCode(bundle: OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === "chunk");
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const withImports = (files: string[], into = new Set<string>()) => {
    for (const file of files) {
      if (into.has(file)) continue;
      into.add(file);
      withImports(byFile.get(file)?.imports ?? [], into);
    }
    return into;
  };
  const loaded = withImports(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
  const chunkOf = (module: string) => {
    const found = chunks.find((c) => c.facadeModuleId?.endsWith(module));
    if (!found) throw new Error(`inlineStartEarly: no chunk for ${module}`);
    return found.fileName;
  };
  const view = ["/src/workspaces/WorkspaceView.tsx", "/src/workspaces/DataModelChart.tsx"].map(chunkOf);
  // The view's and the chart's own chunks first: the browser fetches six files at a time, and the
  // chart's (the largest) came last behind the text and shared chunks (bench/data-model).
  const files = [...new Set([...view, ...withImports(view)])].filter((file) => !loaded.has(file));
  const css = files.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]);
  return [...files, ...css].map((file) => `/${file}`);
}

/**
 * Inlines src/start-early.ts in index.html, ahead of the console's own script: it asks for the
 * start-up data and the view's code while the browser is still fetching the console's code, instead
 * of after it has been evaluated (bench/entities-console). Built on its own as a small script.
 */
export function inlineStartEarly(): Plugin {
  return {
    name: "orrery:inline-start-early",
    transformIndexHtml: {
      order: "post",
      async handler(html, context) {
        const files = context.bundle ? viewCode(context.bundle) : [];
        const build = await rolldown({
          input: entry,
          platform: "browser",
          transform: { define: { __VIEW_CODE__: JSON.stringify(files) } },
        });
        try {
          const { output } = await build.generate({ format: "iife", minify: true });
          // Right after the charset (which must come within the first 1024 bytes) and before the
          // stylesheet: an inline script placed after a stylesheet waits for it to load.
          const charset = /<meta charset[^>]*>/i;
          if (!charset.test(html)) throw new Error("inlineStartEarly: index.html has no <meta charset>");
          return html.replace(charset, (meta) => `${meta}\n    <script>${output[0].code}</script>`);
        } finally {
          await build.close();
        }
      },
    },
  };
}
