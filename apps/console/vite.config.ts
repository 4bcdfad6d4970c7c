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
        // Few files for a first screen: the browser opens six connections to the server, and each
        // file waits for one. What the entry loads is one chunk; what lazy screens share is another.
        codeSplitting: {
          groups: [
            { name: "start", tags: ["$initial"], priority: 2 },
          ],
        },
      },
    },
  },
});
