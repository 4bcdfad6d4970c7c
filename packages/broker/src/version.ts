import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { CORE_CONTEXT_URL } from "./contexts.ts";
import { spatialSupport } from "./spatial.ts";
import type { BrokerDatabase } from "./storage.ts";

/**
 * Orrery's version, the one of the repository's root package.json: the broker ships with Orrery, and
 * its own workspace package's version (0.0.0, never published) says nothing to whoever asks.
 */
export const { version } = createRequire(import.meta.url)("../../../package.json") as { version: string };
/** The NGSI-LD API version the broker follows: the one of its core @context (…-v1.8.jsonld). */
const ngsiLd = /-v(\d+(?:\.\d+)*)\.jsonld$/.exec(CORE_CONTEXT_URL)?.[1] ?? "";

/**
 * The broker's version, where Orion-LD gives its own outside the standard API (its non-standard
 * `/ngsi-ld/ex/v1/version`), so that a console asks any of them the same way. Register it without
 * a prefix, beside ngsiLdBroker. Given the broker's database, it also says what answers geo-queries
 * (`spatial`: PostGIS and its version, or why the broker does without it, spatial.ts).
 */
export async function brokerVersion(app: FastifyInstance, options: { db?: BrokerDatabase }): Promise<void> {
  app.get("/ngsi-ld/ex/v1/version", async () => {
    const spatial = options.db && (await spatialSupport(options.db));
    return {
      "orrery-broker": {
        version,
        "ngsi-ld": ngsiLd,
        ...(spatial && { spatial: { postgis: spatial.postgis, detail: spatial.detail } }),
      },
    };
  });
}
