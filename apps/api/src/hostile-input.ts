import type { FastifyInstance, FastifyRequest } from "fastify";
import { hostileValue, maxJsonDepth, type HostileFlaw } from "@orrery/model";
import type { Message } from "./messages/say.ts";
import { problem } from "./problems.ts";

const flaws: Record<HostileFlaw, Message> = {
  nul: { code: "request.hostile.nul" },
  surrogate: { code: "request.hostile.surrogate" },
  deep: { code: "request.hostile.deep", params: { depth: maxJsonDepth } },
};

const isApiRoute = (request: FastifyRequest) => request.routeOptions.url?.startsWith("/api") === true;

/**
 * Refuses, with a 400 before any handler runs, API requests whose path parameters, query or body
 * carry what storage or a broker would choke on (NUL, lone surrogates, absurd nesting): nothing is
 * stored and no 500 follows. The embedded broker checks its own requests.
 */
export function registerHostileInputCheck(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (!isApiRoute(request)) return;
    for (const [where, value] of [
      ["request.where.path", request.params],
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
