import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import cors from "@fastify/cors";
import helmet from "helmet";
import type { FastifyInstance } from "fastify";
import type { Config } from "./config.ts";

/** The CSP source of each inline script of a page (the console's start-up script is inlined in index.html). */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash("sha256").update(body!).digest("base64")}'`,
  );
}

/** The origin a tile URL template loads from (`https://{s}.tile.example/{z}/...` -> `https://*.tile.example`). */
function tileOrigin(template: string): string | undefined {
  if (!template) return undefined;
  try {
    const url = new URL(template.replace(/\{s\}/g, "tiles").replace(/\{[^}]*\}/g, "0"));
    return template.includes("{s}.") ? `${url.protocol}//*.${url.host.replace(/^tiles\./, "")}` : url.origin;
  } catch {
    return undefined;
  }
}

const originOf = (url: string) => {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Security headers on every answer (helmet): a Content-Security-Policy that fits the console (its
 * own scripts, and only the hashed inline start-up script; no framing by anyone), nosniff, no
 * referrer (the login callback carries a token in its query), popups kept by their opener. And CORS for consoles served from
 * another origin (CORS_ORIGINS, none by default), whose preflights need no login.
 */
export async function registerHttpHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const indexHtml = join(config.consoleDir, "index.html");
  const consoleHtml = existsSync(indexHtml) ? readFileSync(indexHtml, "utf8") : "";
  const tiles = tileOrigin(config.mapTileUrl);
  const consoleOrigin = originOf(config.consoleUrl);
  // helmet itself, built once: @fastify/helmet built it again (and parsed the policy again) on
  // every request, a few per cent of a create's time.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(consoleHtml)],
        // React, Leaflet and the chart set style attributes; the development login page has a <style>.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...(tiles ? [tiles] : [])],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        // The development login form's answer redirects to the console, which may live elsewhere.
        formAction: ["'self'", ...(consoleOrigin ? [consoleOrigin] : [])],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: config.publicUrl.startsWith("https:") ? { maxAge: 31536000 } : false,
    crossOriginResourcePolicy: { policy: "same-site" },
    // The SIOP-2 login polls while its popup on the VC verifier is open: the console keeps its
    // opener reference (same-origin would cut it, and the popup would read as closed at once).
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
  });
  app.addHook("onRequest", (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined)),
  );
  await app.register(cors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: [
      "Authorization",
      "Content-Type",
      "Accept",
      "Accept-Language",
      "If-Match",
      "X-Request-Id",
    ],
    exposedHeaders: [
      "ETag",
      "Location",
      "Content-Disposition",
      "X-Total-Count",
      "X-Order",
      "NGSILD-Results-Count",
    ],
    maxAge: 600,
  });
}
