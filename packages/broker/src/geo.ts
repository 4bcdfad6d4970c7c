import booleanDisjoint from "@turf/boolean-disjoint";
import booleanEqual from "@turf/boolean-equal";
import booleanIntersects from "@turf/boolean-intersects";
import booleanWithin from "@turf/boolean-within";
import distance from "@turf/distance";
import pointToLineDistance from "@turf/point-to-line-distance";
import pointToPolygonDistance from "@turf/point-to-polygon-distance";
import type { Geometry, LineString, Point, Polygon } from "geojson";
import { badRequest } from "./problems.ts";

/** GeoJSON geometry types NGSI-LD GeoProperties and geo-queries use (GeometryCollection is not supported). */
export const geometryTypes = [
  "Point",
  "MultiPoint",
  "LineString",
  "MultiLineString",
  "Polygon",
  "MultiPolygon",
] as const;

const depthOf: Record<string, number> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
};

/** Null when the value is a well-formed geometry of a supported type, otherwise why it is not. */
export function geometryProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "is not a GeoJSON geometry object";
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (typeof type !== "string" || !(type in depthOf))
    return `has GeoJSON type ${JSON.stringify(type)}; expected one of ${geometryTypes.join(", ")}`;
  if (!coordinatesOk(coordinates, depthOf[type]!)) return `has invalid coordinates for a ${type}`;
  if (type === "LineString" && (coordinates as unknown[]).length < 2)
    return "is a LineString with fewer than 2 positions";
  if (type === "Polygon" && !ringsOk(coordinates as number[][][]))
    return "is a Polygon whose rings are not closed with 4 or more positions";
  if (type === "MultiPolygon" && !(coordinates as number[][][][]).every(ringsOk))
    return "is a MultiPolygon with an invalid ring";
  return null;
}

function coordinatesOk(c: unknown, depth: number): boolean {
  if (!Array.isArray(c)) return false;
  if (depth === 0)
    return (
      c.length >= 2 &&
      c.length <= 3 &&
      c.every((n) => typeof n === "number" && Number.isFinite(n)) &&
      Math.abs(c[0]) <= 180 &&
      Math.abs(c[1]) <= 90
    );
  return c.length > 0 && c.every((x) => coordinatesOk(x, depth - 1));
}

function ringsOk(rings: number[][][]): boolean {
  return rings.every(
    (r) => r.length >= 4 && r[0]![0] === r[r.length - 1]![0] && r[0]![1] === r[r.length - 1]![1],
  );
}

export type GeoRelation =
  | { kind: "near"; maxDistance?: number; minDistance?: number }
  | { kind: "within" | "contains" | "intersects" | "equals" | "disjoint" | "overlaps" };

export interface GeoQuery {
  relation: GeoRelation;
  geometry: Geometry;
  /** Compacted name of the GeoProperty the query applies to (default location). */
  geoproperty: string;
}

/** Parses geoQ members given as query parameters or as a POST /entityOperations/query geoQ object. */
export function parseGeoQuery(input: {
  georel?: unknown;
  geometry?: unknown;
  coordinates?: unknown;
  geoproperty?: unknown;
}): GeoQuery | undefined {
  const { georel, geometry, coordinates, geoproperty } = input;
  if (georel === undefined && geometry === undefined && coordinates === undefined) return undefined;
  if (typeof georel !== "string" || typeof geometry !== "string" || coordinates === undefined)
    throw badRequest("a geo-query needs georel, geometry and coordinates");
  let coords: unknown = coordinates;
  if (typeof coordinates === "string") {
    try {
      coords = JSON.parse(coordinates);
    } catch {
      throw badRequest(`coordinates ${coordinates} is not a JSON array`);
    }
  }
  const candidate = { type: geometry, coordinates: coords };
  const problem = geometryProblem(candidate);
  if (problem) throw badRequest(`the geo-query geometry ${problem}`);
  const relation = parseGeorel(georel);
  if (relation.kind === "near" && geometry !== "Point")
    throw badRequest("georel near needs a Point geometry");
  if (geoproperty !== undefined && (typeof geoproperty !== "string" || geoproperty === ""))
    throw badRequest("geoproperty must be an attribute name");
  return {
    relation,
    geometry: candidate as Geometry,
    geoproperty: (geoproperty as string | undefined) ?? "location",
  };
}

function parseGeorel(georel: string): GeoRelation {
  const [name, ...modifiers] = georel.split(";");
  if (name === "near") {
    const relation: { kind: "near"; maxDistance?: number; minDistance?: number } = { kind: "near" };
    for (const m of modifiers) {
      const match = /^(maxDistance|minDistance)==(\d+(?:\.\d+)?)$/.exec(m);
      if (!match)
        throw badRequest(`georel modifier ${m} is not maxDistance==<meters> or minDistance==<meters>`);
      relation[match[1] as "maxDistance" | "minDistance"] = Number(match[2]);
    }
    if (relation.maxDistance === undefined && relation.minDistance === undefined)
      throw badRequest("georel near needs maxDistance or minDistance");
    return relation;
  }
  if (
    modifiers.length > 0 ||
    !["within", "contains", "intersects", "equals", "disjoint", "overlaps"].includes(name!)
  )
    throw badRequest(`unknown georel ${georel}`);
  return { kind: name as "within" };
}

/** Whether an entity's geometry satisfies the relation with the query geometry (spec 4.10). */
export function geoMatches(entityGeometry: Geometry, query: GeoQuery): boolean {
  const reference = query.geometry;
  const rel = query.relation;
  switch (rel.kind) {
    case "near": {
      const d = distanceMeters(reference as Point, entityGeometry);
      return (
        (rel.maxDistance === undefined || d <= rel.maxDistance) &&
        (rel.minDistance === undefined || d >= rel.minDistance)
      );
    }
    case "within":
      return within(entityGeometry, reference);
    case "contains":
      return within(reference, entityGeometry);
    case "intersects":
      return booleanIntersects(entityGeometry, reference);
    case "disjoint":
      return booleanDisjoint(entityGeometry, reference);
    case "equals":
      return entityGeometry.type === reference.type && booleanEqual(entityGeometry, reference);
    case "overlaps":
      // Same dimension, they intersect, and neither lies within the other.
      return (
        dimension(entityGeometry) === dimension(reference) &&
        booleanIntersects(entityGeometry, reference) &&
        !within(entityGeometry, reference) &&
        !within(reference, entityGeometry)
      );
  }
}

const dimension = (g: Geometry) => (g.type.endsWith("Point") ? 0 : g.type.endsWith("LineString") ? 1 : 2);

/** Splits Multi* geometries so that turf, which supports only some pairs, sees simple parts. */
function parts(g: Geometry): Geometry[] {
  switch (g.type) {
    case "MultiPoint":
      return g.coordinates.map((coordinates) => ({ type: "Point", coordinates }));
    case "MultiLineString":
      return g.coordinates.map((coordinates) => ({ type: "LineString", coordinates }));
    case "MultiPolygon":
      return g.coordinates.map((coordinates) => ({ type: "Polygon", coordinates }));
    default:
      return [g];
  }
}

/** Every part of inner lies within some part of outer. */
function within(inner: Geometry, outer: Geometry): boolean {
  const outerParts = parts(outer);
  return parts(inner).every((part) =>
    outerParts.some((container) => {
      try {
        return booleanWithin(part, container);
      } catch {
        return false; // a pair turf does not relate (e.g. a Polygon within a Point) is never "within"
      }
    }),
  );
}

/** Meters from a point to the nearest point of a geometry (0 inside a polygon). */
function distanceMeters(point: Point, g: Geometry): number {
  let best = Infinity;
  for (const part of parts(g)) {
    let d: number;
    if (part.type === "Point") d = distance(point, part, { units: "meters" });
    else if (part.type === "LineString")
      d = pointToLineDistance(point, part as LineString, { units: "meters" });
    else d = Math.max(0, pointToPolygonDistance(point, part as Polygon, { units: "meters" }));
    best = Math.min(best, d);
  }
  return best;
}
