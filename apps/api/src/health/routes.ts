import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  authorizationRegistryGrants,
  identityManagerGrants,
  kindsByName,
  type KindDefinition,
} from "@orrery/model";
import type { Config } from "../config.ts";
import { languageOf, say, type Language } from "../messages/say.ts";
import { notFound, problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import type { Database } from "../storage/database.ts";
import { checkComponent, checkedKinds } from "./check.ts";
import { inPool, runInBackground } from "./background.ts";
import {
  claimGrantCheck,
  componentCount,
  healthById,
  healthCounts,
  healthPage,
  saveHealth,
  type StoredHealth,
} from "./store.ts";

interface Component {
  kind: KindDefinition;
  id: string;
  name: string;
}

/**
 * A grant's check signs in with its stored credentials: at most once in this many seconds per grant
 * (on demand, "check all" and the background checks together), unless the grant or its peer changed,
 * so that an identity manager that locks accounts after failed sign-ins never locks the data space's
 * account because of Orrery.
 */
export const GRANT_CHECK_SECONDS = 30;

const grantKinds: ReadonlySet<string> = new Set([
  identityManagerGrants.kind,
  authorizationRegistryGrants.kind,
]);

/** The identity manager or authorization registry a grant signs in at. */
const peerOf = (data: Record<string, unknown>) =>
  String(data.hasIdentityManager ?? data.hasAuthorizationRegistry ?? "");

/** A grant checked less than GRANT_CHECK_SECONDS ago: 429 with Retry-After. */
class CheckTooSoon extends Error {
  constructor(readonly seconds: number) {
    super(`checked less than ${GRANT_CHECK_SECONDS} s ago`);
  }
}

/** The most components a page of GET /api/health/components holds. */
export const PAGE_LIMIT = 500;
/** A page's size when only its offset is given: the Status page's. */
const PAGE_SIZE = 100;

/** The components' states for GET /metrics: the kinds checked, and how many of each are in each state. */
export interface HealthStates {
  kinds: readonly string[];
  counts(): ReturnType<typeof healthCounts>;
}

/**
 * Health of the registered components (issue 28): "Check connection" on one (POST
 * /api/health/{kind}/{id}), the Status page's list of every one with its last result (GET
 * /api/health/components) and its "check all now" (POST /api/health/components), and the
 * background checks every HEALTH_CHECK_INTERVAL_SECONDS. With several API processes on one
 * database, each component's background check is claimed in the database, so one process makes it.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  records: Records,
  db: Database,
  config: Config,
): HealthStates {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { intervalSeconds, timeoutSeconds } = config.health;
  const timeoutMs = timeoutSeconds * 1000;
  const kinds = checkedKinds.filter((k) => config.trustModule || !k.trustModule);
  const kindNames = kinds.map((k) => k.kind) as [string, ...string[]];

  async function components(): Promise<Component[]> {
    const lists = await Promise.all(kinds.map((kind) => records.list(kind)));
    return lists.flatMap((items, i) =>
      items.map((item) => ({ kind: kinds[i]!, id: item.id, name: String(item.name ?? item.id) })),
    );
  }

  /** Checks a component now and keeps its result; a grant only when its credentials may be tried. */
  async function check(component: Pick<Component, "kind" | "id">): Promise<StoredHealth> {
    const startedAt = new Date();
    const row = await records.find(component.kind, component.id);
    if (!row) throw notFound(component.id);
    if (grantKinds.has(component.kind.kind)) {
      const wait = await claimGrantCheck(
        db,
        { id: row.id, kind: component.kind.kind },
        peerOf(row.data),
        GRANT_CHECK_SECONDS,
      );
      if (wait > 0) throw new CheckTooSoon(wait);
    }
    const result = await checkComponent(records, component.kind, row, timeoutMs);
    return saveHealth(db, row.id, component.kind.kind, result, startedAt);
  }

  /** A component and its last result, its reasons written in the reader's language. */
  const view = (c: Component, health: StoredHealth | undefined, language: Language) => ({
    kind: c.kind.kind,
    id: c.id,
    name: c.name,
    state: health?.state ?? "unchecked",
    reasons: (health?.reasons ?? []).map((r) => ({ ...r, message: say(language, r.code, r.params) })),
    roundTripMs: health?.roundTripMs ?? null,
    version: health?.version ?? null,
    checkedAt: health?.checkedAt ?? null,
  });

  async function list(language: Language) {
    // Every stored result at once: an IN list of 10,000 ids cost more than the rows it saves.
    const [all, health] = await Promise.all([components(), healthById(db)]);
    return {
      intervalSeconds,
      timeoutSeconds,
      components: all.map((c) => view(c, health.get(c.id), language)),
    };
  }

  /** A page of the components, down first, and how many there are in all. */
  async function page(language: Language, limit: number, offset: number) {
    const [rows, total] = await Promise.all([
      healthPage(db, kindNames, { limit, offset }),
      componentCount(db, kindNames),
    ]);
    return {
      intervalSeconds,
      timeoutSeconds,
      total,
      components: rows.map((r) =>
        view({ kind: kindsByName.get(r.kind)!, id: r.id, name: r.name }, r.health, language),
      ),
    };
  }

  /** Without limit nor offset, the whole list as the Status page read it before issue 38; else a page. */
  const answer = ({ limit, offset }: { limit?: number; offset?: number }, language: Language) =>
    limit === undefined && offset === undefined
      ? list(language)
      : page(language, limit ?? PAGE_SIZE, offset ?? 0);

  /** How many components of each kind are in each state: what the Status page shows first. */
  async function summary() {
    const counts = await healthCounts(db, kindNames);
    const byKind = kindNames
      .map((kind) => {
        const of = (state: string) => counts.find((c) => c.kind === kind && c.state === state)?.count ?? 0;
        return {
          kind,
          down: of("down"),
          unchecked: of("unchecked"),
          up: of("up"),
          notApplicable: of("notApplicable"),
        };
      })
      .filter((k) => k.down + k.unchecked + k.up + k.notApplicable > 0);
    return {
      intervalSeconds,
      timeoutSeconds,
      total: counts.reduce((sum, c) => sum + c.count, 0),
      down: byKind.reduce((sum, k) => sum + k.down, 0),
      kinds: byKind,
    };
  }

  async function one(kindName: string, id: string) {
    const kind = kindsByName.get(kindName)!;
    const row = await records.find(kind, id);
    if (!row) throw notFound(id);
    return { kind, id, name: String(row.data.name ?? id) };
  }

  const params = z.object({ kind: z.enum(kindNames), id: z.string() });
  const pageQuery = z.object({
    limit: z.coerce.number().int().min(1).max(PAGE_LIMIT).optional(),
    offset: z.coerce.number().int().min(0).optional(),
  });
  const tags = ["health"];

  api.get(
    "/api/health/components",
    {
      schema: {
        tags,
        summary:
          "Every registered component with its last connection check; with limit (and offset), a page of them, down first, with their total",
        querystring: pageQuery,
      },
    },
    async (request) => answer(request.query, languageOf(request.headers["accept-language"])),
  );
  api.get(
    "/api/health/summary",
    {
      schema: {
        tags,
        summary:
          "How many registered components of each kind are in each state (down, unchecked, up, not applicable)",
      },
    },
    async () => summary(),
  );
  api.post(
    "/api/health/components",
    {
      schema: {
        tags,
        summary:
          "Check the connection of every registered component now; the answer as GET's, a page of it with limit (and offset)",
        querystring: pageQuery,
      },
    },
    async (request) => {
      // A grant whose credentials were tried a moment ago keeps its last result.
      await inPool(await components(), (c) =>
        check(c).catch((err: unknown) => {
          if (!(err instanceof CheckTooSoon))
            request.log.warn({ err, component: c.id }, "health check failed");
        }),
      );
      return answer(request.query, languageOf(request.headers["accept-language"]));
    },
  );
  api.get(
    "/api/health/:kind/:id",
    { schema: { tags, summary: "A component's last connection check", params } },
    async (request) => {
      const component = await one(request.params.kind, request.params.id);
      const health = await healthById(db, [component.id]);
      return view(component, health.get(component.id), languageOf(request.headers["accept-language"]));
    },
  );
  api.post(
    "/api/health/:kind/:id",
    {
      schema: {
        tags,
        summary:
          "Check a component's connection now: reachable or why not, round trip, version; for a grant, whether it still obtains a token",
        params,
      },
    },
    async (request, reply) => {
      const component = await one(request.params.kind, request.params.id);
      try {
        return view(component, await check(component), languageOf(request.headers["accept-language"]));
      } catch (err) {
        if (!(err instanceof CheckTooSoon)) throw err;
        reply.header("retry-after", String(err.seconds));
        throw problem(429, "health.grantCheckTooSoon", {
          name: component.name,
          limit: GRANT_CHECK_SECONDS,
          seconds: err.seconds,
        });
      }
    },
  );

  if (intervalSeconds > 0)
    runInBackground(app, db, {
      kinds: kindNames,
      grantKinds,
      grantSeconds: GRANT_CHECK_SECONDS,
      kindOf: (name) => kindsByName.get(name)!,
      // Claimed by the background: a grant's sign-in is due (claimGrantCheck is for checks on demand).
      check: (kind, row) => checkComponent(records, kind, row, timeoutMs),
      intervalSeconds,
    });
  return { kinds: kindNames, counts: () => healthCounts(db, kindNames) };
}
