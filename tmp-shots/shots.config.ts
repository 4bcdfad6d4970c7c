import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "../e2e/chromium.ts";
export default defineConfig({
  testDir: ".",
  timeout: 120_000,
  workers: 1,
  use: { baseURL: "http://127.0.0.1:3340", viewport: { width: 1280, height: 900 }, launchOptions: chromiumLaunchOptions },
});
