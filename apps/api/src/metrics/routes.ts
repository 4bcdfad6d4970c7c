import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { bearerSession } from "../auth/guard.ts";
import type { Sessions } from "../auth/sessions.ts";
import type { Config } from "../config.ts";
import { isAdministrator } from "../pep/enforce.ts";
import { problem } from "../problems.ts";
import { registry } from "./registry.ts";

export interface MetricsEndpoint {
  /** Where the separate metrics port listens (METRICS_PORT), once the app is ready; undefined without one. */
  address(): AddressInfo | undefined;
}

/**
 * GET /metrics in Prometheus' text format: for administrators (the same bearer tokens as /api: 401
 * without one, 403 for any other role), and, with METRICS_PORT, on a port of its own without
 * credentials for a scraper (METRICS_HOST, 127.0.0.1 by default: only this machine reaches it
 * unless the operator says otherwise). That port answers GET /metrics and nothing else.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  sessions: Sessions,
  config: Config,
): MetricsEndpoint {
  app.get(
    "/metrics",
    {
      config: { access: "session" },
      schema: {
        tags: ["metrics"],
        summary: "Metrics in Prometheus' text format (administrators; or METRICS_PORT without credentials)",
        response: {
          200: {
            description: "The metrics, one sample a line",
            content: { [registry.contentType]: { schema: z.string() } },
          },
        },
      },
      onRequest: async (request) => {
        const session = await bearerSession(request, sessions);
        if (!isAdministrator(session)) throw problem(403, "auth.metricsForAdministrators");
      },
    },
    async (_request, reply) => {
      const text = await registry.metrics();
      return reply.type(registry.contentType).header("cache-control", "no-store").send(text);
    },
  );

  const { port, host } = config.metrics;
  if (port === undefined) return { address: () => undefined };
  let server: Server | undefined;
  app.addHook("onReady", async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? "").split("?")[0];
      if ((request.method !== "GET" && request.method !== "HEAD") || path !== "/metrics") {
        response.writeHead(404, { "content-type": "application/problem+json" });
        response.end(
          JSON.stringify({
            type: "about:blank",
            title: "Not Found",
            status: 404,
            detail: "This port serves GET /metrics only.",
          }),
        );
        return;
      }
      registry.metrics().then(
        (text) => {
          response.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
          response.end(request.method === "HEAD" ? undefined : text);
        },
        (err: unknown) => {
          app.log.error({ err }, "metrics not collected");
          response.writeHead(500, { "content-type": "application/problem+json" });
          response.end(JSON.stringify({ type: "about:blank", title: "Internal Server Error", status: 500 }));
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(port, host, () => {
        server!.off("error", reject);
        resolve();
      });
    });
    app.log.info(`metrics for a scraper at http://${host}:${(server.address() as AddressInfo).port}/metrics`);
  });
  app.addHook("onClose", async () => {
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  });
  return { address: () => (server?.address() as AddressInfo | null) ?? undefined };
}
