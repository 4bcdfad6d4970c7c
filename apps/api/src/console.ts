import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { Config } from "./config.ts";
import { serviceAccountEmail } from "./proxies/google-sheets.ts";

/**
 * Serves the built console at / with history-mode routing: any GET outside /api, /idm and
 * /ngsi-ld that is not a file answers index.html. Also the console's runtime settings.
 */
export async function registerConsole(
  app: FastifyInstance,
  config: Config,
  signIn: { signOutUrl?: string } = {},
): Promise<void> {
  app.get(
    "/api/console-config",
    {
      config: { access: "public" },
      schema: { tags: ["console"], summary: "Runtime settings of the console" },
    },
    async () => ({
      trustModule: config.trustModule,
      authProvider: config.authProvider,
      dataModelsUrl: config.dataModelsUrl,
      mapTileUrl: config.mapTileUrl,
      googleSheets: config.googleSheets ? { serviceAccountEmail: serviceAccountEmail(config) } : null,
      // Where the browser goes after signing out, to end the identity manager's own session too.
      signOutUrl: signIn.signOutUrl ?? null,
    }),
  );
  const distDir = config.consoleDir;
  if (!existsSync(distDir)) {
    app.log.warn(`console not built (${distDir} missing): run npm run build -w @orrery/console`);
    return;
  }
  const assets = join(distDir, "assets") + sep;
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: "/",
    wildcard: false,
    index: ["index.html"],
    // The build writes .br and .gz copies (apps/console/precompress.ts): sent to the browsers that accept them.
    preCompressed: true,
    // Hashed assets never change; index.html (on / and on every deep link) must always be
    // revalidated. Set on the files served only: a hook on every answer cost each API request.
    cacheControl: false,
    setHeaders: (res, served) => {
      const path = served.replace(/\.(br|gz)$/, "");
      res.setHeader("vary", "Accept-Encoding");
      if (path.startsWith(assets)) res.setHeader("cache-control", "public, max-age=31536000, immutable");
      else if (path.endsWith(".html")) res.setHeader("cache-control", "no-cache");
      else res.setHeader("cache-control", "public, max-age=3600");
    },
  });
  const serveIndex = /^\/(?!api(\/|$)|idm(\/|$)|ngsi-ld(\/|$)|assets\/)/;
  app.get("/*", { schema: { hide: true } }, async (request, reply) => {
    if (!serveIndex.test(request.url)) return reply.callNotFound();
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}
