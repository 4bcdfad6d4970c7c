import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development (`npm run dev -w @orrery/console`) the API runs on :3000 with CONSOLE_URL=http://localhost:5173.
export default defineConfig({
  plugins: [react()],
  server: { proxy: { "/api": "http://127.0.0.1:3000", "/idm": "http://127.0.0.1:3000" } },
  build: { sourcemap: true, chunkSizeWarningLimit: 700 },
});
