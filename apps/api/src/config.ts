import { resolve } from "node:path";

/** Everything the server reads from its environment, with the embedded defaults of `npm start`. */
export interface Config {
  port: number;
  host: string;
  /** Public base address of the API process (console, /api, dev IdM), used in redirects. */
  publicUrl: string;
  /** Where the console lives when it is not served by this process (vite dev server). */
  consoleUrl: string;
  /** This process's address as the brokers reach it, for the live channel's notifications (LIVE_NOTIFY_URL, default publicUrl). */
  liveNotifyUrl: string;
  /** Origins whose pages may call the API (CORS), exact scheme://host[:port]. */
  corsOrigins: string[];
  /** The built console (index.html and assets). */
  consoleDir: string;
  /** Public base of the generated JSON-LD contexts: {dataModelsUrl}/{dataModelName}/{version}/context.jsonld. */
  dataModelsUrl: string;
  /** Let proxies (Smart Data Models) fetch from loopback and private networks: off, so they cannot reach the server's neighbours. */
  proxyAllowPrivateNetworks: boolean;
  dataDir: string;
  databaseUrl?: string;
  encryptionKey?: string;
  authProvider: "dev" | "keyrock" | "oidc";
  sessionTtlSeconds: number;
  /** How often a session's permissions are read again from the identity manager (Keyrock). */
  permissionsRefreshSeconds: number;
  permissionsFile: string;
  trustModule: boolean;
  loadDemo: boolean;
  logLevel: string;
  keyrock: {
    url: string;
    clientId: string;
    clientSecret: string;
    adminUsername: string;
    adminPassword: string;
  };
  oidc: { issuer: string; clientId: string; clientSecret: string; rolesClaim: string; scope: string };
  /** The audit trail of every change (AUDIT_TRAIL, on; off only to measure what it costs). */
  auditTrail: boolean;
  /** Days an audit event is kept before the background retention removes it (AUDIT_RETENTION_DAYS, 365). */
  auditRetentionDays: number;
  /** Tile URL template of the console's map; empty: no tiles (nothing fetched, as in tests). */
  mapTileUrl: string;
  /** A Google service account for the Sheets proxy; without it the proxy answers 501. */
  googleSheets?: { keyFile: string; sheetsUrl: string; tokenUrl?: string };
  /**
   * Health of the registered components (Status page): how often each is checked in the background
   * (HEALTH_CHECK_INTERVAL_SECONDS, 0 = only on demand) and how long one check waits (HEALTH_CHECK_TIMEOUT_SECONDS).
   */
  health: { intervalSeconds: number; timeoutSeconds: number };
  /**
   * Who may call the embedded broker (/ngsi-ld/v1): `enforce` (default) decides every request in the
   * policy enforcement point (src/pep); `open` answers anyone, for a local tutorial, and only when
   * the process listens on a loopback address (BROKER_AUTH).
   */
  brokerAuth: "enforce" | "open";
  /** How long a data-space consumer's decision (holder, role, target) is reused (PEP_DECISION_CACHE_SECONDS, 30). */
  pepDecisionCacheSeconds: number;
  /** What one user may hold of the live channel (LIVE_MAX_STREAMS_PER_USER 50, LIVE_MAX_CHANNELS_PER_USER 25). */
  live: { streamsPerUser: number; channelsPerUser: number };
  /**
   * GET /metrics without credentials on a port of its own, for a scraper (METRICS_PORT; unset: none,
   * then only administrators read /metrics on the main port), bound to METRICS_HOST (127.0.0.1).
   */
  metrics: { port?: number; host: string };
}

/** Paths given relative are taken from where the user ran npm, not from the workspace folder. */
const baseDir = process.env.INIT_CWD ?? process.cwd();
const repoRoot = resolve(import.meta.dirname, "../../..");

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  return !["0", "false", "off", "no"].includes(value.toLowerCase());
}

/**
 * CORS_ORIGINS, comma-separated, each an exact origin; a console served elsewhere (CONSOLE_URL) is
 * allowed too. A wildcard or a path would be a mistake an operator does not see, so it stops the start.
 */
function corsOrigins(list: string, consoleUrl: string): string[] {
  const origins = list
    .split(",")
    .map((o) => o.trim().replace(/\/$/, ""))
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin || origin.includes("*"))
      throw new Error(
        `CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path, no wildcard)`,
      );
  }
  if (consoleUrl) origins.push(new URL(consoleUrl).origin);
  return [...new Set(origins)];
}

/** A whole number of at least 1, or the default when unset; anything else stops the start. */
function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number of at least 1 (got "${value}")`);
  return n;
}

/** A number of seconds from the environment; one that is not a number, or below `min`, stops the start. */
function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min)
    throw new Error(`${name} must be a number of seconds, at least ${min} (got "${raw}")`);
  return value;
}

/** METRICS_PORT: a port number (0: any free port, for tests), or unset for no metrics port. */
function metricsPort(value: string | undefined, mainPort: number): number | undefined {
  if (value === undefined || value === "") return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`METRICS_PORT must be a port number from 0 to 65535 (got "${value}")`);
  if (port !== 0 && port === mainPort)
    throw new Error(`METRICS_PORT must differ from PORT (${mainPort}): it serves the metrics alone`);
  return port;
}

const loopbackHosts = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** BROKER_AUTH: `open` only on a loopback address, where no other machine reaches the broker. */
function brokerAuth(value: string | undefined, host: string): Config["brokerAuth"] {
  const mode = (value || "enforce").toLowerCase();
  if (mode !== "enforce" && mode !== "open")
    throw new Error(`BROKER_AUTH must be enforce or open (got "${value}")`);
  if (mode === "open" && !loopbackHosts.has(host) && !/^127\./.test(host))
    throw new Error(
      `BROKER_AUTH=open answers anyone who reaches the broker: it needs HOST on a loopback address (127.0.0.1, ::1), not "${host}"`,
    );
  return mode;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): Config {
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? "127.0.0.1";
  const publicUrl = (env.PUBLIC_URL ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`).replace(
    /\/$/,
    "",
  );
  const authProvider = (env.AUTH_PROVIDER ?? "dev") as Config["authProvider"];
  if (!["dev", "keyrock", "oidc"].includes(authProvider)) {
    throw new Error(`AUTH_PROVIDER must be dev, keyrock or oidc (got "${authProvider}")`);
  }
  return {
    port,
    host,
    publicUrl,
    consoleUrl: (env.CONSOLE_URL ?? "").replace(/\/$/, ""),
    liveNotifyUrl: (env.LIVE_NOTIFY_URL || publicUrl).replace(/\/$/, ""),
    corsOrigins: corsOrigins(env.CORS_ORIGINS ?? "", env.CONSOLE_URL ?? ""),
    consoleDir: resolve(baseDir, env.CONSOLE_DIR ?? resolve(repoRoot, "apps/console/dist")),
    proxyAllowPrivateNetworks: bool(env.PROXY_ALLOW_PRIVATE_NETWORKS, false),
    dataModelsUrl: (env.DATA_MODELS_URL ?? `${publicUrl}/data-models`).replace(/\/$/, ""),
    dataDir: resolve(baseDir, env.DATA_DIR ?? "data"),
    databaseUrl: env.DATABASE_URL || undefined,
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    authProvider,
    sessionTtlSeconds: Number(env.SESSION_TTL_SECONDS ?? 8 * 3600),
    permissionsRefreshSeconds: Number(env.PERMISSIONS_REFRESH_SECONDS ?? 180),
    permissionsFile: resolve(baseDir, env.PERMISSIONS_FILE ?? resolve(repoRoot, "config/permissions.yaml")),
    trustModule: bool(env.TRUST_MODULE, true),
    loadDemo: !argv.includes("--no-demo") && bool(env.DEMO_DATA, true),
    logLevel: env.LOG_LEVEL ?? "info",
    keyrock: {
      url: (env.KEYROCK_URL ?? "").replace(/\/$/, ""),
      clientId: env.KEYROCK_CLIENT_ID ?? "",
      clientSecret: env.KEYROCK_CLIENT_SECRET ?? "",
      adminUsername: env.KEYROCK_ADMIN_USERNAME ?? "",
      adminPassword: env.KEYROCK_ADMIN_PASSWORD ?? "",
    },
    oidc: {
      issuer: env.OIDC_ISSUER ?? "",
      clientId: env.OIDC_CLIENT_ID ?? "",
      clientSecret: env.OIDC_CLIENT_SECRET ?? "",
      rolesClaim: env.OIDC_ROLES_CLAIM ?? "roles",
      scope: env.OIDC_SCOPE ?? "openid profile email",
    },
    auditTrail: bool(env.AUDIT_TRAIL, true),
    auditRetentionDays: positive("AUDIT_RETENTION_DAYS", env.AUDIT_RETENTION_DAYS, 365),
    mapTileUrl: env.MAP_TILE_URL ?? "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
    health: {
      intervalSeconds: seconds(env, "HEALTH_CHECK_INTERVAL_SECONDS", 60, 0),
      timeoutSeconds: seconds(env, "HEALTH_CHECK_TIMEOUT_SECONDS", 10, 0.1),
    },
    brokerAuth: brokerAuth(env.BROKER_AUTH, host),
    pepDecisionCacheSeconds: seconds(env, "PEP_DECISION_CACHE_SECONDS", 30, 0),
    live: {
      streamsPerUser: positive("LIVE_MAX_STREAMS_PER_USER", env.LIVE_MAX_STREAMS_PER_USER, 50),
      channelsPerUser: positive("LIVE_MAX_CHANNELS_PER_USER", env.LIVE_MAX_CHANNELS_PER_USER, 25),
    },
    metrics: { port: metricsPort(env.METRICS_PORT, port), host: env.METRICS_HOST || "127.0.0.1" },
    googleSheets: env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE
      ? {
          keyFile: resolve(baseDir, env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE),
          sheetsUrl: (env.GOOGLE_SHEETS_URL ?? "https://sheets.googleapis.com").replace(/\/$/, ""),
          tokenUrl: env.GOOGLE_TOKEN_URL || undefined,
        }
      : undefined,
  };
}
