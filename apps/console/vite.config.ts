import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { inlineStartEarly } from "./inline-start-early.ts";

// In development (`npm run dev -w @orrery/console`) the API runs on :3000 with CONSOLE_URL=http://localhost:5173.
export default defineConfig({
  plugins: [react(), inlineStartEarly()],
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
            {
              name: "bootstrap",
              test: /node_modules\/(react-bootstrap|@restart|dom-helpers|react-transition-group|uncontrollable)\//,
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
});
