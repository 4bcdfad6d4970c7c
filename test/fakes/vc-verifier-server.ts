/**
 * The fake FIWARE VC verifier as a process of its own, for the browser tests (playwright.config.ts):
 *
 *   FAKE_VERIFIER_PORT=3313 node --import tsx test/fakes/vc-verifier-server.ts
 */
import { startFakeVerifier } from "./vc-verifier.ts";

const port = Number(process.env.FAKE_VERIFIER_PORT);
if (!port) {
  console.error("FAKE_VERIFIER_PORT is required");
  process.exit(2);
}
const fake = await startFakeVerifier(port);
console.log(`fake VC verifier at ${fake.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void fake.close().finally(() => process.exit(0));
  });
