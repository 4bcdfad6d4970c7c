/**
 * The fake FIWARE trusted-issuers-list as a process of its own, for the browser tests
 * (playwright.config.ts); GET /_fake/issuers lists what it holds.
 *
 *   FAKE_TIL_PORT=3314 node --import tsx test/fakes/trusted-issuers-list-server.ts
 */
import { startFakeTrustedIssuersList } from "./trusted-issuers-list.ts";

const port = Number(process.env.FAKE_TIL_PORT);
if (!port) {
  console.error("FAKE_TIL_PORT is required");
  process.exit(2);
}
const fake = await startFakeTrustedIssuersList(port);
console.log(`fake trusted issuers list at ${fake.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void fake.close().finally(() => process.exit(0));
  });
