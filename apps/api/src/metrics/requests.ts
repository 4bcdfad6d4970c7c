import type { FastifyInstance } from "fastify";
import { httpRequests } from "./registry.ts";

type Labels = { method: string; route: string; status_class: string };

/** The label sets of one route and method, one per status class (1xx to 5xx), made once. */
const labelSets = (method: string, route: string): Labels[] =>
  ["1xx", "2xx", "3xx", "4xx", "5xx"].map((status_class) => ({ method, route, status_class }));

/** A request no route matched: one label for them all, whatever they asked. */
const UNMATCHED = "unmatched";

/**
 * Counts every request answered, with its duration, under the route the router matched (its
 * pattern, `/api/context-brokers/:id`, never the URL: no id, token nor query in a label, and as
 * many series as routes). The label objects of a route are made on its first request and reused.
 * A stream handed to the raw socket (server-sent events) is not counted: it lasts for minutes.
 */
export function registerRequestMetrics(app: FastifyInstance): void {
  const byRoute = new WeakMap<object, Map<string, Labels[]>>();
  const unmatched = new Map<string, Labels[]>();
  app.addHook("onResponse", (request, reply, done) => {
    const options = request.routeOptions;
    const route = options.url;
    const config = options.config as object | undefined;
    let byMethod = route === undefined || !config ? unmatched : byRoute.get(config);
    if (!byMethod) {
      byMethod = new Map();
      byRoute.set(config!, byMethod);
    }
    const method = request.method;
    let sets = byMethod.get(method);
    if (!sets) {
      sets = labelSets(method, route ?? UNMATCHED);
      byMethod.set(method, sets);
    }
    const status = reply.statusCode;
    const labels = sets[Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1]!;
    httpRequests.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
