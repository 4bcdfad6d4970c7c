/**
 * The fake ODRL-PAP as a process of its own, for the browser tests (playwright.config.ts), with
 * its validation OPA; GET /_fake/health says how many policies and services it holds.
 *
 *   FAKE_PAP_PORT=3315 node --import tsx test/fakes/odrl-pap-server.ts
 */
import { startFakePap } from "./odrl-pap.ts";

const port = Number(process.env.FAKE_PAP_PORT);
if (!port) {
  console.error("FAKE_PAP_PORT is required");
  process.exit(2);
}
const fake = await startFakePap({ port, validation: true });
console.log(`fake ODRL-PAP at ${fake.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void fake.close().finally(() => process.exit(0));
  });
