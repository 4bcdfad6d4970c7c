import { eq } from "drizzle-orm";
import {
  contextBrokers,
  identityManagerGrants,
  identityManagers,
  services,
  temporalServices,
  dataActions,
} from "@orrery/model";
import type { Config } from "../config.ts";
import type { Records } from "../resources/records.ts";
import type { Database } from "../storage/database.ts";
import { settings } from "../storage/schema.ts";

const MARK = "demo-data-loaded";
/** Where the demo workspaces find the development identity manager and its grant. */
export const DEV_DIRECTORY = "demo-dev-directory";

/**
 * A small platform on first start: the embedded broker registered as a context broker, an
 * identity manager with a grant, a service and a temporal service. Runs once; deleting the demo
 * records afterwards does not bring them back.
 */
export async function loadDemoData(db: Database, records: Records, config: Config): Promise<boolean> {
  const [done] = await db.select().from(settings).where(eq(settings.key, MARK));
  if (done) return false;
  const url = new URL(config.publicUrl);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const scheme = url.protocol === "https:" ? "https" : "http";

  const broker = await records.create(contextBrokers, {
    name: "Embedded broker",
    description: "The NGSI-LD broker built into Orrery, served at /ngsi-ld/v1 by this process.",
    scheme,
    host: url.hostname,
    port,
    multiTenancyEnabled: true,
    paginationMaxLimit: 1000,
    implementationName: "orrery",
    implementationVersion: "0.1",
  });
  const idm = await records.create(identityManagers, {
    name: "Keyrock (example)",
    description: "An example FIWARE Keyrock; point it at your own identity manager.",
    scheme: "https",
    disableCertificateVerification: false,
    host: "idm.example.org",
    port: 443,
    oauth2TokenPath: "/oauth2/token",
    userPath: "/user",
    implementationName: "keyrock",
    implementationVersion: "8.4.0",
  });
  const grant = await records.create(identityManagerGrants, {
    name: "Orrery client credentials (example)",
    hasIdentityManager: idm.item.id,
    grantType: "client_credentials",
    clientId: "orrery-demo-client",
    clientSecret: "change-me",
  });
  // The development identity manager's user directory (/idm/v1), for the users of the demo workspaces.
  if (config.authProvider === "dev") {
    const devIdm = await records.create(identityManagers, {
      name: "Development identity manager",
      description:
        "The identity manager built into Orrery for development: its demo users, and the roles of an application, at /idm/v1 as Keyrock's management API has them.",
      scheme,
      host: url.hostname,
      port,
      path: "/idm",
      oauth2TokenPath: "/oauth2/token",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    });
    const devGrant = await records.create(identityManagerGrants, {
      name: "Demo data space application",
      description: "The demo administrator's password grant: it manages the roles of the application.",
      hasIdentityManager: devIdm.item.id,
      grantType: "password",
      clientId: "orrery-demo-data-space",
      clientSecret: "demo-client-secret",
      username: "admin",
      password: "admin",
    });
    await db.insert(settings).values({
      key: DEV_DIRECTORY,
      value: JSON.stringify({
        hasIdentityManager: devIdm.item.id,
        hasIdentityManagerGrant: devGrant.item.id,
      }),
    });
  }
  await records.create(services, {
    name: "Demo service",
    description: "Open access to the embedded broker.",
    hasContextBroker: broker.item.id,
    authorizationRequired: false,
  });
  await records.create(services, {
    name: "Protected demo service",
    description: "The embedded broker behind an OAuth 2.0 grant.",
    hasContextBroker: broker.item.id,
    authorizationRequired: true,
    authorizationMode: "oauth2",
    hasIdentityManager: idm.item.id,
    hasIdentityManagerGrant: grant.item.id,
  });
  await records.create(temporalServices, { name: "Embedded temporal API", temporalServiceType: "ngsi-ld" });
  // The seeded data actions: HTTP methods, as iSHARE policies name actions, and a notification
  // action (":Notification") for Web of Things events. Administration > Data actions adds others.
  for (const [name, description] of [
    ["GET", "Read entities"],
    ["POST", "Create entities"],
    ["PATCH", "Update attributes"],
    ["DELETE", "Delete entities"],
    ["POST:Notification", "Receive notifications of changes"],
  ])
    await records.create(dataActions, { name, description });
  await db.insert(settings).values({ key: MARK, value: new Date().toISOString() });
  return true;
}
