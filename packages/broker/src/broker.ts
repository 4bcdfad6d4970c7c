import type { FastifyError, FastifyInstance } from "fastify";
import { registerBatchRoutes } from "./batch.ts";
import { DeliveryWorker, defaultDeliveryOptions, type DeliveryOptions } from "./delivery.ts";
import type { FederationOptions } from "./federation.ts";
import { History } from "./history.ts";
import { Notifier } from "./notifier.ts";
import { periodicNotifications } from "./periodic.ts";
import { ContextResolver } from "./contexts.ts";
import { registerDiscoveryRoutes } from "./discovery.ts";
import { registerEntityRoutes } from "./entities.ts";
import { hostileValue, maxJsonDepth, type HostileFlaw } from "@orrery/model";
import { NgsiLdError, badRequest, invalidRequest } from "./problems.ts";
import { registerQueryRoutes } from "./query.ts";
import { entityReader, type EntityReader } from "./reader.ts";
import { registerRegistrationRoutes } from "./registrations.ts";
import { EntityStore, type BrokerDatabase } from "./storage.ts";
import { spatialSupport, type SpatialSupport } from "./spatial.ts";
import { SubscriptionStore } from "./subscription-store.ts";
import { registerSubscriptionRoutes } from "./subscriptions.ts";
import { TemporalStore } from "./temporal-store.ts";
import { registerTemporalRoutes } from "./temporal.ts";
import { TypeCounts } from "./type-counts.ts";

const hostileReasons: Record<HostileFlaw, string> = {
  nul: "contains a NUL character (\\u0000), which cannot be stored",
  surrogate: "contains a lone UTF-16 surrogate, which is not Unicode text",
  deep: `is nested deeper than ${maxJsonDepth} levels`,
};

/** The SQLSTATE of a storage error, whether the driver's error comes bare or wrapped by the ORM. */
const sqlState = (error: unknown): string | undefined =>
  (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
const causeMessage = (error: unknown) => ((error as { cause?: Error }).cause ?? (error as Error)).message;

export interface BrokerOptions {
  /** The host's Drizzle database (PGlite or node-postgres), with brokerMigrations applied. */
  db: BrokerDatabase;
  /** Largest page a query may ask for; a larger limit is 403 TooManyResults (6.3.10). Default 1000. */
  pageSizeCap?: number;
  /** Page size when a query gives no limit. Default 20 (as Orion-LD). */
  defaultLimit?: number;
  /** How long to wait for a remote @context. Default 5000 ms. */
  contextTimeoutMs?: number;
  /** Largest request body in bytes; larger is 400 InvalidRequest. Default 1 MiB. */
  bodyLimit?: number;
  /** Context documents served locally by URL (e.g. workspace contexts the host generates). */
  localContexts?: Record<string, object>;
  /**
   * The notification delivery worker (delivery.ts). `enabled: false` leaves notifications in the
   * outbox table for another process to deliver.
   */
  notifications?: Partial<DeliveryOptions> & { enabled?: boolean };
  /** Most instances per attribute a temporal query returns (more is 206 Partial Content). Default 1000. */
  temporalInstanceCap?: number;
  /** The bounds of distributed reads over context source registrations (federation.ts). */
  federation?: Partial<FederationOptions>;
  /** Receives the in-process reader of whole types (reader.ts), for the host's exports. */
  reader?: (reader: EntityReader) => void;
}

/** What the route modules share. */
export interface Broker {
  store: EntityStore;
  subscriptions: SubscriptionStore;
  /** Called after a subscription is created, changed or deleted (wakes the delivery worker). */
  onSubscriptionChange(): void;
  contexts: ContextResolver;
  pageSizeCap: number;
  defaultLimit: number;
  temporalInstanceCap: number;
  /** The mount prefix, for Location headers. */
  prefix: string;
  /** Whether PostGIS answers geo-queries (spatial.ts), found as the broker starts and logged once. */
  spatial(): Promise<SpatialSupport>;
}

const jsonTypes = ["application/json", "application/ld+json", "application/merge-patch+json"];

/**
 * The embedded NGSI-LD broker as an encapsulated Fastify plugin: register it with a prefix
 * (`/ngsi-ld/v1`). It keeps its own body parsers and error handler, so every failure is an
 * NGSI-LD problem details body and never a crash.
 */
export async function ngsiLdBroker(app: FastifyInstance, options: BrokerOptions): Promise<void> {
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const broker: Broker = {
    store: new EntityStore(options.db),
    subscriptions: new SubscriptionStore(options.db),
    onSubscriptionChange: () => {},
    contexts: new ContextResolver({
      timeoutMs: options.contextTimeoutMs ?? 5000,
      localContexts: options.localContexts,
    }),
    pageSizeCap: options.pageSizeCap ?? 1000,
    defaultLimit: Math.min(options.defaultLimit ?? 20, options.pageSizeCap ?? 1000),
    temporalInstanceCap: options.temporalInstanceCap ?? 1000,
    prefix: app.prefix,
    spatial: () =>
      spatialSupport(options.db, (support) =>
        support.postgis
          ? app.log.info(`geo-queries: ${support.detail} decides on the bounding-box index's candidates`)
          : app.log.warn(
              `geo-queries: ${support.detail}; the bounding-box index selects the candidates and turf decides in the broker`,
            ),
      ),
  };
  await broker.contexts.core;
  // Found out now, not on the first geo-query or version request: installing PostGIS takes up to a
  // second or so, which a health check's version request (a 1-2 s timeout) must not wait for.
  void broker.spatial();

  const worker = new DeliveryWorker(
    options.db,
    broker.contexts,
    { ...defaultDeliveryOptions, ...options.notifications },
    app.log,
  );
  worker.periodic = periodicNotifications(options.db, broker.store);
  const temporal = new TemporalStore(options.db);
  // Type counts last: their rows stay locked from their update to the commit.
  broker.store.listeners.push(
    new History(temporal),
    new Notifier(broker.subscriptions, worker.wake),
    new TypeCounts(),
  );
  broker.onSubscriptionChange = worker.wake;
  if (options.notifications?.enabled !== false) {
    app.addHook("onReady", async () => worker.start());
    app.addHook("onClose", async () => worker.stop());
  }

  app.removeAllContentTypeParsers();
  // Fastify's parser rejects __proto__/constructor keys (prototype poisoning) as well as bad JSON.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser(jsonTypes, { parseAs: "string", bodyLimit }, (request, body, done) => {
    // A DELETE may carry a Content-Type and no body (the ETSI test suite sends one): no body then.
    if (body === "" && request.method === "DELETE") return done(null, undefined);
    parseJson(request, body as string, (error, value) => {
      if (error) done(invalidRequest(`the body is not valid JSON: ${error.message}`), undefined);
      else done(null, value);
    });
  });
  // What storage refuses (NUL, lone surrogates) and nesting that overflows a recursive walk: 400, before anything runs.
  app.addHook("preValidation", async (request) => {
    for (const [where, value] of [
      ["the path", request.params],
      ["the query", request.query],
      ["the body", request.body],
    ] as const) {
      const found = hostileValue(value);
      if (found) throw badRequest(`${where}${found.at} ${hostileReasons[found.flaw]}`);
    }
  });

  app.setErrorHandler((error: FastifyError | NgsiLdError, request, reply) => {
    let problem: NgsiLdError;
    if (error instanceof NgsiLdError) problem = error;
    else if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
      problem = invalidRequest(`the body is larger than this broker's limit of ${bodyLimit} bytes`);
    else if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
      problem = new NgsiLdError(
        "UnsupportedMediaType",
        `Content-Type ${request.headers["content-type"]} is not supported; use ${jsonTypes.join(" or ")}`,
      );
    else if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500)
      problem = invalidRequest(error.message);
    else if (sqlState(error) === "2201B")
      // An idPattern RE2 accepts but PostgreSQL's engine, which selects the rows, does not (a{1000}, \p{L}).
      problem = badRequest(
        `idPattern is not a regular expression this broker's storage runs: ${causeMessage(error)}`,
      );
    else {
      request.log.error({ err: error }, "NGSI-LD broker failure");
      problem = new NgsiLdError("InternalError", "the broker failed; the error is in its log");
    }
    if (problem.status >= 500 && problem.errorType !== "InternalError")
      request.log.warn({ problem: problem.detail }, "NGSI-LD request failed");
    // ETSI GS CIM 009 answers ProblemDetails as application/json (as Orion-LD and Scorpio do).
    return reply.code(problem.status).type("application/json").send(problem.toProblem());
  });

  registerEntityRoutes(app, broker);
  registerQueryRoutes(app, broker);
  registerBatchRoutes(app, broker);
  registerDiscoveryRoutes(app, broker);
  registerSubscriptionRoutes(app, broker);
  registerTemporalRoutes(app, broker, temporal);
  registerRegistrationRoutes(app, broker, options);
  options.reader?.(entityReader(options.db, broker));

  const noOperation = (method: string, url: string) =>
    new NgsiLdError("ResourceNotFound", `no NGSI-LD operation ${method} ${url.split("?")[0]} in this broker`);
  app.setNotFoundHandler((request) => {
    throw noOperation(request.method, request.url);
  });
  // The host may have a catch-all GET (the console's history routing): claim everything under the prefix.
  app.all("/*", async (request) => {
    throw noOperation(request.method, request.url);
  });
}
