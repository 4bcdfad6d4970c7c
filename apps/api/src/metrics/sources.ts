import { Gauge } from "prom-client";
import { registry } from "./registry.ts";

/** What one app tells GET /metrics of its state, read at each scrape. */
export interface MetricSource {
  /** The checked component kinds, and how many of each kind are in each state (the Status page's). */
  health?: {
    kinds: readonly string[];
    counts(): Promise<Array<{ kind: string; state: string; count: number }>>;
  };
  /** The live channels open on brokers (each one subscription), shared by the streams that watch alike. */
  liveChannels?(): number;
  storage: {
    driver: string;
    /** node-postgres's pool (PostgreSQL); PGlite has one connection inside the process and no pool. */
    pool?(): { total: number; idle: number; waiting: number };
  };
  /** Where a failed read is told (the app's log). */
  warn(message: string, err: unknown): void;
}

/** The apps running in this process: one in production, several while tests run. */
const sources = new Set<MetricSource>();

/** Adds an app's source; the returned function removes it (on the app's close). */
export function addSource(source: MetricSource): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

/** The states a component reads as (health/check.ts, and `unchecked` before a first result). */
const healthStates = ["up", "down", "notApplicable", "unchecked"];

new Gauge({
  name: "orrery_component_health",
  help: "Registered platform components (context brokers, identity managers, registries…) by kind and last checked state.",
  labelNames: ["kind", "state"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const source of sources) {
      if (!source.health) continue;
      // Every kind and state is there, at 0 when none: a series that vanishes reads as no data.
      for (const kind of source.health.kinds) for (const state of healthStates) this.inc({ kind, state }, 0);
      try {
        for (const { kind, state, count } of await source.health.counts()) this.inc({ kind, state }, count);
      } catch (err) {
        source.warn("component health not read for /metrics", err);
      }
    }
  },
});

new Gauge({
  name: "orrery_live_channels",
  help: "Live channels open on context brokers (one NGSI-LD subscription each), shared by the streams that watch alike.",
  registers: [registry],
  collect() {
    let open = 0;
    for (const source of sources) open += source.liveChannels?.() ?? 0;
    this.set(open);
  },
});

new Gauge({
  name: "orrery_database_connections",
  help: "Connections of the PostgreSQL pool by state (total, idle, and the queries waiting for one); none with PGlite.",
  labelNames: ["driver", "state"] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const { storage } of sources) {
      const pool = storage.pool?.();
      if (!pool) continue;
      this.inc({ driver: storage.driver, state: "total" }, pool.total);
      this.inc({ driver: storage.driver, state: "idle" }, pool.idle);
      this.inc({ driver: storage.driver, state: "waiting" }, pool.waiting);
    }
  },
});

new Gauge({
  name: "orrery_storage_info",
  help: "The storage the API runs on (driver: pglite or postgresql), always 1.",
  labelNames: ["driver"] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const { storage } of sources) this.set({ driver: storage.driver }, 1);
  },
});
