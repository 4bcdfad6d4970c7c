import type { FastifyInstance, FastifyRequest } from "fastify";
import { hostileValue, maxJsonDepth, type HostileFlaw } from "@orrery/model";
import type { Message } from "./messages/say.ts";
import { problem } from "./problems.ts";

const flaws: Record<HostileFlaw, Message> = {
  nul: { code: "request.hostile.nul" },
  surrogate: { code: "request.hostile.surrogate" },
  deep: { code: "request.hostile.deep", params: { depth: maxJsonDepth } },
};

/** The embedded broker's routes: it checks its own requests, and answers in NGSI-LD's terms. */
const isBrokerRoute = (request: FastifyRequest) => request.routeOptions.url?.startsWith("/ngsi-ld/") === true;

/**
 * Refuses, before any handler runs, requests whose path parameters, query or body carry what
 * storage or a broker would choke on (NUL, lone surrogates, absurd nesting): nothing is stored and
 * no 500 follows, on every route (the API's, the public thing descriptions, the development identity
 * manager). An id that no storage can keep names nothing: 404, whatever the route. The embedded
 * broker checks its own requests.
 */
export function registerHostileInputCheck(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (isBrokerRoute(request)) return;
    const inPath = hostileValue(request.params);
    if (inPath)
      throw problem(404, "request.nothingAtPath", {
        name: inPath.at.replace(/^\./, ""),
        flaw: flaws[inPath.flaw],
      });
    for (const [where, value] of [
      ["request.where.query", request.query],
      ["request.where.body", request.body],
    ] as const) {
      const found = hostileValue(value);
      if (found)
        throw problem(400, "request.hostile", {
          where: { code: where },
          at: found.at,
          flaw: flaws[found.flaw],
        });
    }
  });
}
