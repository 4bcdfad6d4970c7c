/**
 * The fake credentials configuration service as a process of its own, for the browser tests
 * (playwright.config.ts): FAKE_CCS_VARIANT `ccs` (standalone, the default) or `verifier`.
 *
 *   FAKE_CCS_PORT=3316 node --import tsx test/fakes/credentials-config-server.ts
 */
import { startFakeCredentialsConfig } from "./credentials-config.ts";

const port = Number(process.env.FAKE_CCS_PORT);
if (!port) {
  console.error("FAKE_CCS_PORT is required");
  process.exit(2);
}
const variant = process.env.FAKE_CCS_VARIANT === "verifier" ? "verifier" : "ccs";
const fake = await startFakeCredentialsConfig({ port, variant });
console.log(`fake credentials config service (${variant}) at ${fake.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void fake.close().finally(() => process.exit(0));
  });
