import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import { ngsiLdBroker, type BrokerOptions } from "./broker.ts";
import { brokerVersion } from "./version.ts";
import { openBrokerStorage, type BrokerStorage } from "./database.ts";

/**
 * The broker alone, on its own port and database, so that it can be registered in Orrery like
 * any remote broker: `npm run broker`. Environment: BROKER_PORT (1026), BROKER_HOST (127.0.0.1),
 * DATA_DIR (./data-broker, for PGlite), DATABASE_URL (PostgreSQL instead), LOG_LEVEL (info).
 */
export interface StandaloneOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  logLevel?: string;
  broker?: Partial<Omit<BrokerOptions, "db">>;
}

export interface StandaloneBroker {
  app: FastifyInstance;
  storage: BrokerStorage;
  /** Base URL of the NGSI-LD API, e.g. http://127.0.0.1:1026/ngsi-ld/v1 */
  url: string;
  close(): Promise<void>;
}

export async function startStandalone(options: StandaloneOptions = {}): Promise<StandaloneBroker> {
  const storage = await openBrokerStorage({
    dataDir: resolve(options.dataDir ?? "./data-broker"),
    databaseUrl: options.databaseUrl || undefined,
  });
  const app = Fastify({
    logger: { level: options.logLevel ?? "info" },
    // Entity and subscription ids are URIs of any length (Fastify stops parameters at 100 characters).
    routerOptions: { maxParamLength: 2_000 },
  });
  try {
    await app.register(ngsiLdBroker, { prefix: "/ngsi-ld/v1", ...options.broker, db: storage.db });
    await app.register(brokerVersion, { db: storage.db });
    await app.listen({ port: options.port ?? 1026, host: options.host ?? "127.0.0.1" });
  } catch (error) {
    await app.close().catch(() => undefined);
    await storage.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host ?? "127.0.0.1";
  let closing: Promise<void> | undefined;
  return {
    app,
    storage,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/ngsi-ld/v1`,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await storage.close();
      })()),
  };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  const env = process.env;
  const port = Number(env.BROKER_PORT ?? 1026);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`BROKER_PORT ${env.BROKER_PORT} is not a port number`);
    process.exit(1);
  }
  try {
    const broker = await startStandalone({
      port,
      host: env.BROKER_HOST ?? "127.0.0.1",
      dataDir: env.DATA_DIR ?? "./data-broker",
      databaseUrl: env.DATABASE_URL,
      logLevel: env.LOG_LEVEL ?? "info",
    });
    broker.app.log.info(
      `NGSI-LD broker at ${broker.url} (${broker.storage.driver === "pglite" ? `PGlite in ${resolve(env.DATA_DIR ?? "./data-broker")}` : "PostgreSQL"})`,
    );
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        broker.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
  } catch (error) {
    console.error("The NGSI-LD broker did not start:", error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
