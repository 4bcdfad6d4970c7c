import formbody from "@fastify/formbody";
import Fastify, { type FastifyInstance } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { brokerVersion, ngsiLdBroker } from "@orrery/broker";
import { allKinds, type KindDefinition } from "@orrery/model";
import { registerGuard } from "./auth/guard.ts";
import { registerDevDirectory } from "./auth/providers/dev-directory.ts";
import { loadPolicy } from "./auth/policy.ts";
import { devProvider } from "./auth/providers/dev.ts";
import { keyrockProvider } from "./auth/providers/keyrock.ts";
import { oidcProvider } from "./auth/providers/oidc.ts";
import type { IdentityProvider } from "./auth/providers/provider.ts";
import { registerAudit } from "./audit/routes.ts";
import { registerAuthRoutes } from "./auth/routes.ts";
import { Sessions } from "./auth/sessions.ts";
import { createCipher, loadKey } from "./cipher.ts";
import type { Config } from "./config.ts";
import { registerConsole } from "./console.ts";
import { registerEntityRoutes } from "./context-data/entities-routes.ts";
import { registerImportExportRoutes } from "./context-data/import-export-routes.ts";
import type { OwnBroker } from "./context-data/own-broker.ts";
import { registerRegistrationRoutes } from "./context-data/registrations-routes.ts";
import { registerSubscriptionRoutes } from "./context-data/subscriptions-routes.ts";
import { registerTemporalRoutes } from "./context-data/temporal-routes.ts";
import { registerImportRoutes } from "./data-model/import-routes.ts";
import { registerDataModelRoutes } from "./data-model/routes.ts";
import { workspaceHooks } from "./data-model/rules.ts";
import { registerHostileInputCheck } from "./hostile-input.ts";
import { registerHttpHeaders } from "./http-headers.ts";
import { registerOpenApi } from "./openapi.ts";
import { registerAuthorizationRegistryProxies } from "./proxies/authorization-registry.ts";
import { registerGoogleSheetsProxy } from "./proxies/google-sheets.ts";
import { frameworkError, registerProblems } from "./problems.ts";
import { registerKindRoutes } from "./resources/kind-routes.ts";
import { dataServiceHooks } from "./data-services/rules.ts";
import { contractHooks } from "./contracts/rules.ts";
import { wotHooks } from "./wot/rules.ts";
import { trustHooks } from "./trust/rules.ts";
import { registerSynchronizeRoutes } from "./trust/synchronize-routes.ts";
import { registerFdscRoutes } from "./fdsc/routes.ts";
import { registerSiop2Routes } from "./trust/siop2-routes.ts";
import { registerWotRoutes } from "./wot/routes.ts";
import { registerLiveRoutes } from "./live/routes.ts";
import { registerHealthRoutes } from "./health/routes.ts";
import { registerRequestMetrics } from "./metrics/requests.ts";
import { registerMetricsRoutes, type MetricsEndpoint } from "./metrics/routes.ts";
import { addSource } from "./metrics/sources.ts";
import { registerDataAccess } from "./pep/data-access.ts";
import { BROKER_PREFIX } from "./pep/enforce.ts";
import { registerDataServiceLinkRoutes } from "./data-services/link-routes.ts";
import { registerUsersRoutes } from "./users/users-routes.ts";
import { Records } from "./resources/records.ts";
import { BrokerClientKeys } from "./pep/broker-clients.ts";
import { brokerClientHooks, registerBrokerClientRoutes } from "./broker-clients/routes.ts";
import type { Storage } from "./storage/database.ts";

export interface RouteEntry {
  method: string;
  url: string;
  access: "public" | "session" | "permission";
}

export interface App {
  app: FastifyInstance;
  /** Every /api route with its access level, as registered (the access tests walk it). */
  routes: RouteEntry[];
  /** Every route of the embedded broker (method and pattern): the enforcement tests walk them. */
  brokerRoutes: { method: string; url: string }[];
  records: Records;
  sessions: Sessions;
  /** The broker clients' keys, as the policy enforcement point of /ngsi-ld/v1 finds them (pep/broker-clients.ts). */
  brokerClientKeys: BrokerClientKeys;
  /** GET /metrics, and its own port when METRICS_PORT is set. */
  metrics: MetricsEndpoint;
}

/** Fields whose values must never reach a log line. */
const redact = ["req.headers.authorization", "req.headers.cookie", "res.headers['set-cookie']"];

export async function buildApp(
  config: Config,
  storage: Storage,
  options: { logStream?: { write(line: string): void } } = {},
): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact,
      // Tokens travel in query strings (the console's login callback): log paths, never queries.
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          path: req.url.split("?")[0],
          id: req.id,
        }),
      },
    },
    requestIdHeader: "x-request-id",
    bodyLimit: 5 * 1024 * 1024,
    // NGSI-LD ids are URIs of any length: a route parameter up to 2,000 characters (Fastify stops at 100).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2_000 },
    frameworkErrors: frameworkError,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Zod schemas document responses; serialising with JSON.stringify keeps lists of thousands fast.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerProblems(app);
  registerRequestMetrics(app);
  const routes: RouteEntry[] = [];
  app.addHook("onRoute", (route) => {
    // The OpenAPI description and its browsable page are public documentation.
    if (route.url.startsWith("/api/docs")) route.config = { ...(route.config as object), access: "public" };
  });
  const brokerRoutes: App["brokerRoutes"] = [];
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith(`${BROKER_PREFIX}/`))
      for (const method of [route.method].flat()) brokerRoutes.push({ method, url: route.url });
    if (!route.url.startsWith("/api")) return;
    for (const method of [route.method].flat()) {
      if (method !== "HEAD")
        routes.push({ method, url: route.url, access: route.config?.access ?? "permission" });
    }
  });
  await app.register(formbody);
  await registerOpenApi(app);

  const { db } = storage;
  const policy = loadPolicy(config.permissionsFile);
  const kinds: readonly KindDefinition[] = allKinds;
  const key = loadKey(config.encryptionKey, config.dataDir);
  const cipher = createCipher(key);
  const records = new Records(db, cipher, kinds, storage.driver === "postgresql" ? 2 : 1);
  await records.sealPlainValues();
  const provider: IdentityProvider =
    config.authProvider === "keyrock"
      ? keyrockProvider(config.keyrock)
      : config.authProvider === "oidc"
        ? await oidcProvider(config.oidc, policy)
        : devProvider(app, db, policy, config.publicUrl);
  if (config.authProvider === "dev") registerDevDirectory(app, db);
  const sessions = new Sessions(db, {
    cipher,
    ...(provider.refresh ? { refresh: provider.refresh.bind(provider) } : {}),
    refreshMs: config.permissionsRefreshSeconds * 1000,
    log: app.log,
  });
  // A provider whose settings cannot work says so once at start-up, and on the sign-in page.
  const signInProblem = await provider.check?.();
  if (signInProblem) app.log.error(`sign-in will fail: ${signInProblem}`);
  app.addHook("onClose", async () => provider.close?.());

  // Before the guard: a refused request still carries the headers (and CORS, so another origin can read the 401).
  await registerHttpHeaders(app, config);
  registerGuard(app, sessions);
  registerHostileInputCheck(app);
  registerAudit(app, records, config);
  // Before the routes: the PEP's tenants are read again after a write to a route that changes them.
  const brokerClientKeys = new BrokerClientKeys(db);
  registerDataAccess(app, records, config, key, sessions, brokerClientKeys);

  registerAuthRoutes(app, { config, db, sessions, provider, policy, signInProblem });

  app.get("/api/health", { config: { access: "public" }, schema: { tags: ["health"] } }, async () => ({
    status: "ok",
    storage: { driver: storage.driver, version: storage.version },
    authProvider: config.authProvider,
    trustModule: config.trustModule,
  }));

  const hooks = {
    ...workspaceHooks(records, config),
    ...dataServiceHooks(records),
    ...contractHooks(records, config),
    ...wotHooks(records),
    ...trustHooks(records),
    ...brokerClientHooks(brokerClientKeys),
  };
  for (const kind of kinds) registerKindRoutes(app, kind, records, hooks[kind.kind]);
  registerDataModelRoutes(app, records, config, { types: hooks.types!, properties: hooks.properties! });
  registerImportRoutes(app, records, hooks.properties!, config);
  registerDataServiceLinkRoutes(app, records);
  registerBrokerClientRoutes(app, records, brokerClientKeys);
  registerUsersRoutes(app, records, config);
  const live = registerLiveRoutes(app, records, config, sessions);
  registerWotRoutes(app, records, config, live, { sessions, cipher });
  const ownBroker: OwnBroker = {};
  registerEntityRoutes(app, records, config, ownBroker);
  registerImportExportRoutes(app, records, config, ownBroker);
  registerSubscriptionRoutes(app, records, config);
  registerRegistrationRoutes(app, records);
  registerTemporalRoutes(app, records, config);
  registerAuthorizationRegistryProxies(app, records);
  registerSynchronizeRoutes(app, records);
  registerFdscRoutes(app, records);
  const health = registerHealthRoutes(app, records, db, config);
  const removeSource = addSource({
    health,
    liveChannels: () => live.channels.size,
    storage: { driver: storage.driver, ...(storage.pool ? { pool: storage.pool } : {}) },
    warn: (message, err) => app.log.warn({ err }, message),
  });
  app.addHook("onClose", async () => removeSource());
  const metrics = registerMetricsRoutes(app, sessions, config);
  await registerSiop2Routes(app, records, db, config);
  registerGoogleSheetsProxy(app, config);
  // The embedded NGSI-LD broker, behind its own policy enforcement point (src/pep); it delivers
  // the notifications of this process's live channels inside the process.
  await app.register(ngsiLdBroker, {
    prefix: BROKER_PREFIX,
    db,
    notifications: { local: live.localDelivery },
    reader: (reader) => (ownBroker.reader = reader),
  });
  await app.register(brokerVersion, { db });
  await registerConsole(app, config, { signOutUrl: provider.signOutUrl });
  return { app, routes, brokerRoutes, records, sessions, brokerClientKeys, metrics };
}
