import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium.ts";

// The server is started exactly as the README says (`npm start`), on its own port and an empty data directory.
const port = Number(process.env.E2E_PORT ?? 3310);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "orrery-e2e-"));
process.env.E2E_DATA_DIR = dataDir; // the workers re-read this file: keep one directory

// A fake Google (token endpoint, Sheets v4 values API) started first, on a port the server is told of.
// E2E_GOOGLE_PORT is pinned like E2E_DATA_DIR: e2e/google-sheets.spec.ts seeds and reads its sheets.
const googlePort = Number(process.env.E2E_GOOGLE_PORT ?? port + 1);
process.env.E2E_GOOGLE_PORT = String(googlePort);
const googleUrl = `http://127.0.0.1:${googlePort}`;
const googleKeyFile = join(dataDir, "google-service-account.json");
// A fake iSHARE authorization registry; e2e/trust.spec.ts registers it from the file it writes.
const registryPort = Number(process.env.E2E_REGISTRY_PORT ?? port + 2);
process.env.E2E_REGISTRY_FILE = join(dataDir, "fake-registry.json");
// A fake VC verifier (SIOP-2 login), at this port.
const verifierPort = Number(process.env.E2E_VERIFIER_PORT ?? port + 3);
process.env.E2E_VERIFIER_PORT = String(verifierPort);
// A fake FIWARE trusted issuers list (contract synchronisation), at this port.
const tilPort = Number(process.env.E2E_TIL_PORT ?? port + 4);
process.env.E2E_TIL_PORT = String(tilPort);

export default defineConfig({
  testDir: "e2e",
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 900 },
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  webServer: [
    {
      command: "node --import tsx test/fakes/google-sheets-server.ts",
      url: `${googleUrl}/_fake/sheets`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_GOOGLE_PORT: String(googlePort), FAKE_GOOGLE_KEY_FILE: googleKeyFile },
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "node --import tsx test/fakes/ishare-registry-server.ts",
      url: `http://127.0.0.1:${registryPort}/_fake/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_REGISTRY_PORT: String(registryPort), FAKE_REGISTRY_FILE: process.env.E2E_REGISTRY_FILE },
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "node --import tsx test/fakes/vc-verifier-server.ts",
      url: `http://127.0.0.1:${verifierPort}/_fake/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_VERIFIER_PORT: String(verifierPort) },
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "node --import tsx test/fakes/trusted-issuers-list-server.ts",
      url: `http://127.0.0.1:${tilPort}/_fake/issuers`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_TIL_PORT: String(tilPort) },
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "npm start",
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      // PROXY_ALLOW_PRIVATE_NETWORKS: e2e/data-model.spec.ts imports from a fake Smart Data Models host on 127.0.0.1.
      // MAP_TILE_URL empty: the map draws no tiles, so nothing is fetched from the internet.
      // GOOGLE_*: the Sheets proxy talks to the fake above (e2e/google-sheets.spec.ts).
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        PROXY_ALLOW_PRIVATE_NETWORKS: "true",
        MAP_TILE_URL: "",
        GOOGLE_SERVICE_ACCOUNT_KEY_FILE: googleKeyFile,
        GOOGLE_SHEETS_URL: googleUrl,
        GOOGLE_TOKEN_URL: `${googleUrl}/token`,
      },
      stdout: "ignore",
      stderr: "pipe",
    },
  ],
});
