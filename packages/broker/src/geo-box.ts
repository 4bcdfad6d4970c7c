import { sql, type SQL } from "drizzle-orm";
import type { Position } from "geojson";
import type { GeoQuery } from "./geo.ts";

/**
 * The map's question, answered in SQL alone: the entities whose Point lies in a box. A map asks for
 * an area as a rectangle (`intersects` a Polygon of 5 positions with sides along the meridians and
 * parallels); for a Point, turf's answer is then four comparisons of coordinates: inside or on the
 * sides for `intersects`, strictly inside for `within` (booleanPointInPolygon ignoring the boundary).
 * Compared as float8 in SQL, as doubles in JS: the same answer to the last bit.
 *
 * Without PostGIS, every candidate of the bounding-box index was read and tested by turf in the
 * broker: 10,000 entities of a box among a million were 20,000 rows read for 10 pages. Decided in
 * SQL, the count and the pages are plain SQL (the count remembered, each page from its start).
 *
 * `exact` holds for the entities with a Point instance of the attribute in the box: those match.
 * `unsure` holds for the entities with an instance of another geometry: turf decides those that
 * `exact` does not already take.
 */
export interface BoxDecision {
  exact: SQL;
  unsure: SQL;
}

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The box of a Polygon that is a rectangle along the axes (one ring, 4 corners), else undefined. */
export function rectangleOf(coordinates: Position[][]): Box | undefined {
  if (coordinates.length !== 1) return undefined;
  const ring = coordinates[0]!;
  if (ring.length !== 5) return undefined;
  const xs = new Set(ring.map((p) => p[0]!));
  const ys = new Set(ring.map((p) => p[1]!));
  if (xs.size !== 2 || ys.size !== 2) return undefined;
  for (let i = 0; i < 4; i++) {
    const [a, b] = [ring[i]!, ring[i + 1]!];
    // Each side moves along one axis only: no diagonal, no side of length 0.
    if ((a[0] === b[0]) === (a[1] === b[1])) return undefined;
  }
  const [x1, x2] = [...xs].sort((a, b) => a - b) as [number, number];
  const [y1, y2] = [...ys].sort((a, b) => a - b) as [number, number];
  return { x1, y1, x2, y2 };
}

/** The SQL decision of a geo-query on the GeoProperty `iri`, or undefined when it is not a box of points. */
export function boxDecision(query: GeoQuery, iri: string): BoxDecision | undefined {
  const rel = query.relation.kind;
  if ((rel !== "intersects" && rel !== "within") || query.geometry.type !== "Polygon") return undefined;
  const box = rectangleOf(query.geometry.coordinates);
  if (!box) return undefined;
  const x = sql`(i->'value'->'coordinates'->>0)::float8`;
  const y = sql`(i->'value'->'coordinates'->>1)::float8`;
  const [lo, hi] = rel === "within" ? [sql`>`, sql`<`] : [sql`>=`, sql`<=`];
  // Stored Points are checked GeoJSON (attributes.ts), but a number is made sure of before the cast.
  const point = sql`i->>'type' = 'GeoProperty' AND i->'value'->>'type' = 'Point'
    AND jsonb_typeof(i->'value'->'coordinates'->0) = 'number' AND jsonb_typeof(i->'value'->'coordinates'->1) = 'number'`;
  const inside = sql`CASE WHEN ${point} THEN ${x} ${lo} ${box.x1}::float8 AND ${x} ${hi} ${box.x2}::float8
    AND ${y} ${lo} ${box.y1}::float8 AND ${y} ${hi} ${box.y2}::float8 ELSE false END`;
  const exact = sql`EXISTS (SELECT 1 FROM jsonb_array_elements(attrs->${iri}) AS i WHERE ${inside})`;
  const other = sql`EXISTS (SELECT 1 FROM jsonb_array_elements(attrs->${iri}) AS i
    WHERE i->>'type' = 'GeoProperty' AND i->'value'->>'type' IS DISTINCT FROM 'Point')`;
  return { exact, unsure: other };
}
