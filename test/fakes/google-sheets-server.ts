/**
 * The fake Google (token endpoint and Sheets v4 values API) as a process of its own, for a server
 * that must know its address when it starts: playwright.config.ts launches it before `npm start`.
 *
 *   FAKE_GOOGLE_PORT=3311 FAKE_GOOGLE_KEY_FILE=/tmp/x/service-account.json \
 *     node --import tsx test/fakes/google-sheets-server.ts
 *
 * The service-account key file is written at FAKE_GOOGLE_KEY_FILE (its token_uri pointing here), and
 * the tests seed and read sheets through /_fake/sheets (see FakeGoogleSheetsOptions.testEndpoint).
 */
import { startFakeGoogleSheets } from "./google-sheets.ts";

const port = Number(process.env.FAKE_GOOGLE_PORT);
const keyFile = process.env.FAKE_GOOGLE_KEY_FILE;
if (!port || !keyFile) {
  console.error("FAKE_GOOGLE_PORT and FAKE_GOOGLE_KEY_FILE are required");
  process.exit(2);
}

const fake = await startFakeGoogleSheets({ port, keyFile, testEndpoint: true });
console.log(`fake Google Sheets at ${fake.url}, service account ${fake.email}, key file ${fake.keyFile}`);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void fake.close().finally(() => process.exit(0));
  });
