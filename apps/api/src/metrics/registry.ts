import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { observeCalls } from "@orrery/ngsi-ld";

/**
 * The process's metrics (GET /metrics, issue 38), in one registry of its own rather than
 * prom-client's global one. They are the process's, not one app's: Prometheus scrapes a process,
 * and the counters of requests and calls go on across the apps a test builds in one process. What
 * is read at scrape time from an app (health, live channels, database pool) comes from the sources
 * each app adds while it runs (sources.ts).
 */
export const registry = new Registry();

// Under their usual names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds…): the
// dashboards made for Node processes read them as they are.
collectDefaultMetrics({ register: registry });

/** Few buckets, in seconds: a request is a cheap read, a slow list, or something to look at. */
const requestBuckets = [0.005, 0.025, 0.1, 0.5, 2.5, 10];
/** A peer answers on the network; PEER_TIMEOUT_MS (10 s) ends the wait. */
const callBuckets = [0.05, 0.25, 1, 5, 10];

export const httpRequests = new Histogram({
  name: "orrery_http_request_duration_seconds",
  help: "Requests served (the _count is the request count) and their duration, by method, route pattern and status class.",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: requestBuckets,
  registers: [registry],
});

export const peerCalls = new Histogram({
  name: "orrery_peer_call_duration_seconds",
  help: "Calls from the API to the data space's peers (identity managers, registries, verifiers, issuer lists, Smart Data Models, Google Sheets), by peer kind and outcome.",
  labelNames: ["peer", "outcome"] as const,
  buckets: callBuckets,
  registers: [registry],
});

export const brokerCalls = new Histogram({
  name: "orrery_broker_call_duration_seconds",
  help: "Calls of the NGSI-LD client to context brokers (the embedded one included), by broker implementation and outcome.",
  labelNames: ["implementation", "outcome"] as const,
  buckets: callBuckets,
  registers: [registry],
});

observeCalls(({ implementation, outcome, seconds }) =>
  brokerCalls.observe({ implementation, outcome }, seconds),
);

export const enforcementDecisions = new Counter({
  name: "orrery_enforcement_decisions_total",
  help: "Decisions of the embedded broker's policy enforcement point (/ngsi-ld/v1), by holder kind, decision and reason.",
  labelNames: ["holder", "decision", "reason"] as const,
  registers: [registry],
});

export const databaseQueries = new Counter({
  name: "orrery_database_queries_total",
  help: "Statements sent to the database, by storage driver.",
  labelNames: ["driver"] as const,
  registers: [registry],
});

export const liveStreams = new Gauge({
  name: "orrery_live_streams_open",
  help: "Server-sent event streams open to browsers (the console's live entity changes, WoT observations).",
  registers: [registry],
});

/** Outcome of one call as a label: ok, the HTTP status class of an answer that is not, or why none came. */
export type CallOutcome =
  | "ok"
  | "3xx"
  | "4xx"
  | "5xx"
  | "timeout"
  | "refused"
  | "unreachable"
  | "cross_origin_redirect"
  | "redirect_refused"
  | "too_many_redirects"
  | "body_too_large"
  | "unusable";

/** The outcome of an answer with this status. */
export const outcomeOfStatus = (status: number): CallOutcome =>
  status >= 200 && status < 300 ? "ok" : status < 400 ? "3xx" : status < 500 ? "4xx" : "5xx";

/** The outcome of a call that got no answer, from the system error's code or the error's name. */
export function outcomeOfFailure(err: unknown): CallOutcome {
  const name = (err as { name?: string } | undefined)?.name;
  if (name === "TimeoutError" || name === "AbortError") return "timeout";
  const code = (err as { cause?: { code?: unknown }; code?: unknown } | undefined)?.cause?.code;
  if (code === "ECONNREFUSED") return "refused";
  return "unreachable";
}
