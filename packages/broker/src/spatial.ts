import { entityKind, sql } from "drizzle-orm";
import type { BrokerDatabase } from "./storage.ts";

/**
 * What answers the exact relation of a geo-query once the bounding-box index (migration
 * broker_0008_geo_box) has selected the candidates: PostGIS's ST_ functions in the database when
 * the server has PostGIS (Debian's postgresql-15-postgis-3), so that a geo-query pages and counts
 * in SQL; otherwise turf on the candidates in the broker (PGlite, or a server without it).
 *
 * Found out once per database, as the broker starts (not awaited: the broker serves meanwhile, and a
 * geo-query or version request that comes first waits for the same answer).
 */
export interface SpatialSupport {
  postgis: boolean;
  /** PostGIS's version, or why the broker does without it. */
  detail: string;
}

const found = new WeakMap<object, { support: Promise<SpatialSupport>; reported: boolean }>();

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function installedVersion(db: BrokerDatabase): Promise<string | undefined> {
  const [row] = rowsOf<{ v: string }>(
    await db.execute(sql`SELECT extversion AS v FROM pg_extension WHERE extname = 'postgis'`),
  );
  return row?.v;
}

async function detect(db: BrokerDatabase): Promise<SpatialSupport> {
  if ((db.constructor as unknown as Record<symbol, unknown>)[entityKind] === "PgliteDatabase")
    return { postgis: false, detail: "PGlite has no PostGIS" };
  try {
    let version = await installedVersion(db);
    if (!version) {
      try {
        await db.execute(sql`CREATE EXTENSION IF NOT EXISTS postgis`);
      } catch (error) {
        // Another process may have installed it meanwhile; otherwise the server cannot.
        if (!(await installedVersion(db))) throw error;
      }
      version = await installedVersion(db);
    }
    return { postgis: true, detail: `PostGIS ${version}` };
  } catch (error) {
    const cause = (error as { cause?: Error }).cause ?? (error as Error);
    return { postgis: false, detail: `PostGIS is not available: ${cause.message}` };
  }
}

/**
 * The database's spatial support, found once. The first call that passes `report` gets it (once),
 * so that the broker logs it once whoever asked first.
 */
export function spatialSupport(
  db: BrokerDatabase,
  report?: (support: SpatialSupport) => void,
): Promise<SpatialSupport> {
  let entry = found.get(db);
  if (!entry) {
    entry = { support: detect(db), reported: false };
    found.set(db, entry);
  }
  if (report && !entry.reported) {
    entry.reported = true;
    void entry.support.then(report);
  }
  return entry.support;
}
