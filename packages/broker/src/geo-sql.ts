import { sql, type SQL } from "drizzle-orm";
import type { Geometry, Position } from "geojson";
import type { GeoQuery } from "./geo.ts";

/**
 * The spatial index's part of a geo-query: a condition on `broker_geo_box(attrs)` (migration
 * broker_0008, GiST-indexed) true for every entity the query can match, so that only those
 * candidates reach the exact test of geo.ts. Conservative by construction: a box too large costs a
 * few candidates, a box too small would lose answers.
 */

/** turf's earth radius: distances are the ones geo.ts measures. */
const earthRadius = 6371008.8;
/** Slack for the planar fuzz of PostgreSQL's box operators and for rounding (about 1 m). */
const slack = 1e-5;

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

const world: Box = { x1: -180, y1: -90, x2: 180, y2: 90 };

function positions(g: Geometry): Position[] {
  switch (g.type) {
    case "Point":
      return [g.coordinates];
    case "MultiPoint":
    case "LineString":
      return g.coordinates;
    case "MultiLineString":
    case "Polygon":
      return g.coordinates.flat();
    case "MultiPolygon":
      return g.coordinates.flat(2);
    default:
      return [];
  }
}

/** The planar bounding box of a geometry, as turf's boolean relations see it (plane, no wrap). */
function boundingBox(g: Geometry): Box {
  const box = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
  for (const [x, y] of positions(g)) {
    box.x1 = Math.min(box.x1, x!);
    box.y1 = Math.min(box.y1, y!);
    box.x2 = Math.max(box.x2, x!);
    box.y2 = Math.max(box.y2, y!);
  }
  return box;
}

const radians = (d: number) => (d * Math.PI) / 180;
const degrees = (r: number) => (r * 180) / Math.PI;

/**
 * Boxes covering every position within `meters` (great-circle) of a point: two boxes when the
 * range crosses the antimeridian, the whole band of latitudes when it reaches a pole.
 */
function aroundPoint([x, y]: Position, meters: number): Box[] {
  const angle = (meters / earthRadius) * 1.01 + 1e-9; // 1% over: turf's segment distances are approximate
  if (angle >= Math.PI / 2) return [world];
  const dy = degrees(angle);
  const y1 = y! - dy;
  const y2 = y! + dy;
  if (y1 <= -90 || y2 >= 90) return [{ x1: -180, y1: Math.max(-90, y1), x2: 180, y2: Math.min(90, y2) }];
  const ratio = Math.sin(angle) / Math.cos(radians(Math.max(Math.abs(y1), Math.abs(y2))));
  if (ratio >= 1) return [{ x1: -180, y1, x2: 180, y2 }];
  const dx = degrees(Math.asin(ratio));
  const x1 = x! - dx;
  const x2 = x! + dx;
  const boxes = [{ x1: Math.max(-180, x1), y1, x2: Math.min(180, x2), y2 }];
  if (x1 < -180) boxes.push({ x1: x1 + 360, y1, x2: 180, y2 });
  if (x2 > 180) boxes.push({ x1: -180, y1, x2: x2 - 360, y2 });
  return boxes;
}

/** The boxes one of which a candidate's box must overlap; undefined when any entity can match. */
export function candidateBoxes(query: GeoQuery): Box[] | undefined {
  const rel = query.relation;
  if (rel.kind === "disjoint") return undefined;
  if (rel.kind === "near")
    return rel.maxDistance === undefined
      ? undefined
      : aroundPoint((query.geometry as { coordinates: Position }).coordinates, rel.maxDistance);
  // within, contains, intersects, equals, overlaps: the two geometries share at least a point.
  return [boundingBox(query.geometry)];
}

const boxLiteral = (b: Box) => `(${b.x1 - slack},${b.y1 - slack}),(${b.x2 + slack},${b.y2 + slack})`;

/** The index condition of a geo-query, or undefined when it selects nothing out (disjoint, minDistance). */
export function geoCandidates(query: GeoQuery): SQL | undefined {
  const boxes = candidateBoxes(query);
  if (!boxes) return undefined;
  const conditions = boxes.map((b) => sql`broker_geo_box(attrs) && ${boxLiteral(b)}::box`);
  return conditions.length === 1 ? conditions[0] : sql`(${sql.join(conditions, sql` OR `)})`;
}

/**
 * The exact relation in PostGIS (spatial.ts), as NGSI-LD 4.10 defines it after the OGC Simple
 * Features predicates: near measures along the sphere (turf's, so the same distances), the other
 * relations compare planar geometries (as turf does). True when some GeoProperty instance of the
 * attribute `iri` relates to the query's geometry. A stored polygon whose ring crosses itself (the
 * broker accepts it, as GeoJSON does) is taken as ST_MakeValid makes it, the pieces its ring
 * encloses, which is also how turf's planar tests read it; a valid polygon comes out unchanged.
 */
export function geoExact(query: GeoQuery, iri: string): SQL {
  const reference = sql`ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(query.geometry)}::text), 4326)`;
  const g = sql`x.g`;
  const rel = query.relation;
  let test: SQL;
  switch (rel.kind) {
    case "near": {
      const distance = sql`ST_Distance(${g}::geography, ${reference}::geography, false)`;
      const bounds: SQL[] = [];
      if (rel.maxDistance !== undefined) bounds.push(sql`${distance} <= ${rel.maxDistance}::float8`);
      if (rel.minDistance !== undefined) bounds.push(sql`${distance} >= ${rel.minDistance}::float8`);
      test = sql.join(bounds, sql` AND `);
      break;
    }
    case "within":
      test = sql`ST_Within(${g}, ${reference})`;
      break;
    case "contains":
      test = sql`ST_Contains(${g}, ${reference})`;
      break;
    case "intersects":
      test = sql`ST_Intersects(${g}, ${reference})`;
      break;
    case "disjoint":
      test = sql`ST_Disjoint(${g}, ${reference})`;
      break;
    case "equals":
      test = sql`(GeometryType(${g}) = GeometryType(${reference}) AND ST_Equals(${g}, ${reference}))`;
      break;
    case "overlaps":
      test = sql`ST_Overlaps(${g}, ${reference})`;
      break;
  }
  return sql`EXISTS (SELECT 1 FROM jsonb_array_elements(attrs->${iri}) AS i
    CROSS JOIN LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON((i->'value')::text), 4326) AS raw) AS r
    CROSS JOIN LATERAL (SELECT CASE WHEN GeometryType(r.raw) IN ('POLYGON', 'MULTIPOLYGON')
      THEN ST_MakeValid(r.raw) ELSE r.raw END AS g) AS x
    WHERE i->>'type' = 'GeoProperty' AND ${test})`;
}
