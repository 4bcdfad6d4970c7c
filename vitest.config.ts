import { defineConfig } from "vitest/config";

// Two projects: fast unit tests, and API tests that need a database (run once per driver, see scripts/test-api.mjs).
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["packages/*/test/**/*.test.ts", "bench/test/**/*.test.ts"] } },
      {
        extends: "./apps/console/vite.config.ts",
        test: {
          name: "console",
          root: "./apps/console",
          environment: "happy-dom",
          include: ["test/**/*.test.{ts,tsx}"],
          setupFiles: ["./test/setup.ts"],
        },
      },
      {
        test: {
          name: "api",
          include: ["apps/api/test/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
