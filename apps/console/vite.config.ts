import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { inlineStartEarly } from "./inline-start-early.ts";
import { precompress } from "./precompress.ts";
import { cut, languages, textAreas as areas, type Texts } from "./src/i18n/areas.ts";

const i18n = fileURLToPath(new URL("./src/i18n/", import.meta.url));

/**
 * The catalogues' parts (src/i18n/areas.ts). `texts:<language>/<area>` (or `/base`) is that part of
 * `<language>.json`. `texts:<area>`, which a screen's module imports, registers the area's texts
 * before the module runs: its English inline, so that it comes with the screen's code (and with the
 * code that the start-up preloads), the other languages as their own files, loaded when shown.
 */
function textAreas(): Plugin {
  return {
    name: "orrery:text-areas",
    resolveId: (id) => (id.startsWith("texts:") ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith("\0texts:")) return undefined;
      const [area, language] = id.slice("\0texts:".length).split("/").reverse() as [string, string?];
      if (!areas[area] && !(language && area === "base"))
        this.error(`${id}: no such text area (src/i18n/areas.ts)`);
      const part = (language: string) => {
        const file = `${i18n}${language}.json`;
        this.addWatchFile(file);
        return JSON.stringify(JSON.stringify(cut(JSON.parse(readFileSync(file, "utf8")) as Texts, area)));
      };
      // JSON.parse of a string: quicker to parse and run than the same object as code.
      if (language) return `export default JSON.parse(${part(language)});`;
      const others = languages
        .filter((other) => other !== "en")
        .map((other) => `${other}: () => import("texts:${other}/${area}")`);
      return [
        `import { addArea } from ${JSON.stringify(`${i18n}index.ts`)};`,
        `await addArea(${JSON.stringify(area)}, JSON.parse(${part("en")}), { ${others.join(", ")} });`,
      ].join("\n");
    },
  };
}

/**
 * React Router's package exports only its development build (warnings on, checks on every render);
 * the production build beside it is the same API without them. The console's build takes it: its
 * first screen runs less code (bench/console, bench/entities-console).
 */
const reactRouterProduction = fileURLToPath(
  import.meta.resolve("react-router").replace("/dist/development/", "/dist/production/"),
);

// In development (`npm run dev -w @orrery/console`) the API runs on :3000 with CONSOLE_URL=http://localhost:5173.
export default defineConfig(({ command }) => ({
  plugins: [react(), inlineStartEarly(), textAreas(), precompress()],
  resolve:
    command === "build" ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  server: { proxy: { "/api": "http://127.0.0.1:3000", "/idm": "http://127.0.0.1:3000" } },
  build: {
    sourcemap: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Few files a screen: the browser opens six connections to the server, and each file waits
        // for one (behind the start-up's API calls on a workspace). What the entry loads is one
        // chunk; each screen loads with its route (app/screens.tsx) its own chunk and two shared
        // ones: react-bootstrap's parts that screens use, and the console's small shared modules.
        // A large shared module (the forms' inputs, with react-hook-form) keeps a chunk of its own,
        // so that the first screen stays the same however many screens there are (bench/console).
        codeSplitting: {
          groups: [
            { name: "start", tags: ["$initial"], priority: 3 },
            // Each text area's English (src/i18n/areas.ts) a file of its own, loaded by the screens
            // that use it, rather than in the shared chunk of their domain's small modules, which
            // other screens load without needing these texts (the workspaces list). Another
            // language's part is a file of its own already (a dynamic import).
            {
              name: (id) => `texts-${id.slice("\0texts:".length)}`,
              debugName: "texts",
              test: /^\0texts:[\w-]+$/,
              priority: 2,
            },
            {
              name: "bootstrap",
              test: /node_modules\/(react-bootstrap|@restart|dom-helpers|react-transition-group|uncontrollable)\//,
              priority: 2,
            },
            // What a list page draws (the first screen after the sign-in, bench/console): a chunk
            // of its own, without react-bootstrap (app/bootstrapMarkup.tsx), rather than in the
            // shared chunk whose forms' and show pages' modules load react-bootstrap.
            {
              name: "lists",
              test: /\/apps\/console\/src\/(resources\/(ListPage|RecordTable|FieldValue|fieldLabel)|errors\/(ErrorAlert|JsonTree|Blockers)|context-data\/(links|entityModel)|data-services\/direction)\.tsx?$/,
              priority: 2,
            },
            {
              name: "common",
              test: /\/apps\/console\/src\/(?!(context-data|workspaces|wot|audit|health|fdsc|brokers|trust|tools|contracts)\/)/,
              minShareCount: 2,
              maxModuleSize: 6000,
              priority: 1,
            },
            // The small modules that the screens of one domain share (the context data's, the
            // workspace's, the trust's...): a chunk of their own, which the first screen (sign-in,
            // a list) does not load, however many such modules the screens add.
            {
              name: "screens-common",
              test: /\/apps\/console\/src\/(context-data|workspaces|wot|audit|health|fdsc|brokers|trust|tools|contracts)\//,
              minShareCount: 2,
              maxModuleSize: 6000,
              priority: 1,
            },
          ],
        },
      },
    },
  },
}));
