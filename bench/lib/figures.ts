/**
 * Which figures of each bench's results file docs/performance.md shows, beside which goal, and the
 * command that measures them. The goals are issue 38's where it sets one (marked "issue 38"), else
 * the bench's own. A figure a results file does not hold (an older run, a bench whose shape changed)
 * reads "not in results" rather than failing, so the table never blocks on one bench.
 * A results file absent from this catalogue still shows its run, its `allGoalsMet` and its growth.
 */

/** What docs/performance.md groups a bench's plots under. */
export type Area = "broker" | "api" | "console";

export interface Reading {
  /** The storage, for a bench that runs on several. */
  storage?: string;
  value: number | undefined;
  /** The size the value was measured at, where a goal names a size. */
  size?: number;
}

export interface Goal {
  op: "<" | "<=" | ">=";
  limit: number;
  /** Who set it: issue 38, or the bench itself where the issue sets none. */
  source: "issue 38" | "bench";
  /** The goal holds only on this storage. */
  storage?: string;
  /** The goal is for this size: a smaller run says so instead of met / not met. */
  size?: number;
  sizeUnit?: string;
}

export interface FigureSpec {
  label: string;
  /** "/s", "ms", "s", "kB", "x" or "%" (a fraction, shown times 100). */
  unit: string;
  read: (results: any) => Reading[];
  goal?: Goal;
}

export interface BenchSpec {
  area: Area;
  command: string;
  figures: FigureSpec[];
}

/** Follows a dotted path ("api.create.perSecond"); undefined where any step is missing. */
export function pick(object: unknown, path: string): unknown {
  let at: unknown = object;
  for (const key of path.split(".")) {
    if (at == null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const numberAt = (object: unknown, path: string) => {
  const value = pick(object, path);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
};

/** One value at a path of the results. */
const at =
  (path: string, sizePath?: string) =>
  (results: any): Reading[] => [
    { value: numberAt(results, path), ...(sizePath ? { size: numberAt(results, sizePath) } : {}) },
  ];

/** One value per storage, from `drivers[]` (a driver that failed has no value). */
const perDriver =
  (path: string, sizePath?: string) =>
  (results: any): Reading[] =>
    (Array.isArray(results?.drivers) ? results.drivers : []).map((driver: any) => ({
      storage: typeof driver?.driver === "string" ? driver.driver : undefined,
      value: numberAt(driver, path),
      ...(sizePath ? { size: numberAt(driver, sizePath) } : {}),
    }));

const issue = (op: Goal["op"], limit: number, extra: Partial<Goal> = {}): Goal => ({
  op,
  limit,
  source: "issue 38",
  ...extra,
});
const bench = (op: Goal["op"], limit: number): Goal => ({ op, limit, source: "bench" });

export const BENCHES: Record<string, BenchSpec> = {
  "api-crud": {
    area: "api",
    command: "npx tsx bench/api-crud.ts",
    figures: [
      { label: "API create", unit: "/s", read: perDriver("api.create.perSecond"), goal: issue(">=", 10_000) },
      {
        label: "List of 10,000, p95",
        unit: "ms",
        read: perDriver("api.list.p95Ms"),
        goal: issue("<", 25),
      },
      { label: "Audit trail cost", unit: "%", read: perDriver("auditTrail.cost"), goal: bench("<", 0.1) },
    ],
  },
  broker: {
    area: "broker",
    command: "npx tsx bench/broker.ts",
    figures: [
      { label: "Batch upsert", unit: "/s", read: perDriver("upsert.entitiesPerSecond") },
      {
        label: "Batch upsert against a raw insert",
        unit: "x",
        read: perDriver("overhead"),
        goal: issue("<=", 1.5),
      },
      {
        label: "Type + q page one (count=true) after a write, p50",
        unit: "ms",
        read: perDriver("pageOneAfterWrite.p50Ms"),
        goal: issue("<", 20),
      },
      {
        label: "Temporal load",
        unit: "/s",
        read: perDriver("temporal.load.instancesPerSecond"),
        goal: issue(">=", 100_000, { storage: "postgresql" }),
      },
    ],
  },
  entities: {
    area: "broker",
    command: "npx tsx bench/entities.ts",
    figures: [
      {
        label: "CSV import",
        unit: "s",
        read: perDriver("import.seconds", "import.rows"),
        goal: issue("<", 20, { size: 100_000, sizeUnit: "rows" }),
      },
      {
        label: "CSV export",
        unit: "s",
        read: perDriver("export.seconds", "export.entities"),
        goal: issue("<", 30, { size: 1_000_000, sizeUnit: "entities" }),
      },
    ],
  },
  load: {
    area: "api",
    command: "npx tsx bench/load.ts",
    figures: [
      {
        label: "50 clients: context brokers list",
        unit: "/s",
        read: perDriver("brokers.perSecond"),
        goal: issue(">=", 2_000),
      },
      {
        label: "50 clients: context brokers list, p95",
        unit: "ms",
        read: perDriver("brokers.p95Ms"),
        goal: issue("<", 50),
      },
      {
        label: "50 clients: entities page, p95",
        unit: "ms",
        read: perDriver("entities.p95Ms"),
        goal: issue("<", 80),
      },
    ],
  },
  live: {
    area: "api",
    command: "npx tsx bench/live.ts",
    figures: [
      {
        label: "A write by another client on screen, median",
        unit: "ms",
        read: at("result.medianMs"),
        goal: issue("<", 100),
      },
    ],
  },
  pep: {
    area: "broker",
    command: "npx tsx bench/pep.ts",
    figures: [
      {
        label: "Enforced read, worst extra p50",
        unit: "ms",
        read: at("goals.readExtraP50Ms.worst"),
        goal: bench("<=", 2),
      },
      {
        label: "Query throughput kept under enforcement",
        unit: "x",
        read: at("goals.queryThroughputKept.value"),
        goal: bench(">=", 0.8),
      },
    ],
  },
  wot: {
    area: "api",
    command: "npx tsx bench/wot.ts",
    figures: [
      {
        label: "Thing Description of 500 properties, median",
        unit: "ms",
        read: at("medianMs"),
        goal: bench("<", 50),
      },
    ],
  },
  console: {
    area: "console",
    command: "npx tsx bench/console.ts",
    figures: [
      {
        label: "First screen JS, gzipped",
        unit: "kB",
        read: at("firstScreenGzipKB.js"),
        goal: issue("<", 130),
      },
      {
        label: "Sign-in to a usable list, median",
        unit: "ms",
        read: at("signInToUsableListMs.median"),
        goal: issue("<", 500),
      },
    ],
  },
  "data-model": {
    area: "console",
    command: "npx tsx bench/data-model.ts",
    figures: [
      { label: "Chart of 200 types, median", unit: "ms", read: at("chart.medianMs"), goal: issue("<", 350) },
    ],
  },
  "entities-console": {
    area: "console",
    command: "npx tsx bench/entities-console.ts",
    figures: [
      {
        label: "Entities tab, first page, median",
        unit: "ms",
        read: at("figures.entitiesTabFirstPageMs.median", "settings.entities"),
        goal: issue("<", 200, { size: 100_000, sizeUnit: "entities" }),
      },
      {
        label: "Entities tab right after a write, median",
        unit: "ms",
        read: at("figures.entitiesTabFirstPageAfterWriteMs.median", "settings.entities"),
        goal: issue("<", 250, { size: 100_000, sizeUnit: "entities" }),
      },
    ],
  },
  platform: {
    area: "console",
    command: "npx tsx bench/platform.ts",
    figures: [
      {
        label: "Sign-in to the workspaces list, median",
        unit: "ms",
        read: perDriver("signInToWorkspacesMs.median", "workspaces"),
        goal: issue("<", 1_000, { size: 1_000, sizeUnit: "workspaces" }),
      },
      {
        label: "Status page usable, median",
        unit: "ms",
        read: perDriver("statusPageMs.median", "components"),
        goal: issue("<", 1_000, { size: 10_000, sizeUnit: "components" }),
      },
      {
        label: "Brokers list p95 under health checks against without",
        unit: "x",
        read: perDriver("brokersList.ratio", "components"),
        goal: issue("<=", 1.2, { size: 10_000, sizeUnit: "components" }),
      },
    ],
  },
};

/** The command of a bench, also for one absent from the catalogue. */
export const commandOf = (name: string) => BENCHES[name]?.command ?? `npx tsx bench/${name}.ts`;
