/**
 * The fake iSHARE authorization registry as a process of its own, for the browser tests:
 * playwright.config.ts launches it before `npm start`. It makes a test PKI for its own party and
 * writes it (the private key included) to FAKE_REGISTRY_FILE, from which the tests register the
 * registry and its grant in Orrery: as with Keyrock, only the registry's own party writes policies.
 *
 *   FAKE_REGISTRY_PORT=3312 FAKE_REGISTRY_FILE=/tmp/x/registry.json \
 *     node --import tsx test/fakes/ishare-registry-server.ts
 */
import { writeFileSync } from "node:fs";
import { startFakeRegistry } from "./ishare-registry.ts";
import { partyCredentials } from "./pki.ts";

const port = Number(process.env.FAKE_REGISTRY_PORT);
const file = process.env.FAKE_REGISTRY_FILE;
if (!port || !file) {
  console.error("FAKE_REGISTRY_PORT and FAKE_REGISTRY_FILE are required");
  process.exit(2);
}

const registryParty = await partyCredentials("EU.EORI.NLFAKEREGISTRY", "Fake registry");
const fake = await startFakeRegistry(
  { credentials: registryParty, trustedRoots: [registryParty.root] },
  port,
);
writeFileSync(
  file,
  JSON.stringify({
    url: fake.url,
    registry: { identifier: registryParty.identifier, certificates: registryParty.certificates },
    client: {
      identifier: registryParty.identifier,
      certificates: registryParty.certificates,
      privateKey: registryParty.privateKey,
    },
  }),
);
console.log(`fake authorization registry at ${fake.url}, credentials in ${file}`);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void fake.close().finally(() => process.exit(0));
  });
