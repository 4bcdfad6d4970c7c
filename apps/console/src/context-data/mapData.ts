import type { LatLngTuple } from "leaflet";
import {
  displayName,
  instancesOf,
  topLevelProperties,
  type Entity,
  type PropertyRecord,
} from "./entityModel.ts";
import { fetchEntities } from "./entityQueries.ts";

/** Entities read for the map: 1,000 a page, at most 10,000. */
export const MAP_PAGE = 1000;
export const MAP_CAP = 10_000;

export interface MapShapes {
  points: Array<{ id: string; label: string; at: LatLngTuple }>;
  polygons: LatLngTuple[][];
  lines: LatLngTuple[][];
}

/** The top-level GeoProperties of a type. */
export const geoProperties = (properties: PropertyRecord[], typeId: string) =>
  topLevelProperties(properties, typeId).filter((p) => p.ngsiLdType === "GeoProperty");

/** An area of the map: its south-west and north-east corners, [lat, lon] as Leaflet gives them. */
export type MapArea = [LatLngTuple, LatLngTuple];

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * The NGSI-LD geo-query of the entities in an area (a bounding box as a GeoJSON Polygon, [lon,
 * lat]), on the type's `location` if it has one, else its first geo property. A map zoomed out
 * past the world's edges asks for the world.
 */
export function areaQuery(area: MapArea, geoNames: string[]): Record<string, string> {
  const [[south, west], [north, east]] = area;
  const s = clamp(south, -90, 90);
  const n = clamp(north, -90, 90);
  const w = east - west >= 360 ? -180 : clamp(west, -180, 180);
  const e = east - west >= 360 ? 180 : clamp(east, -180, 180);
  const ring = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
  return {
    georel: "intersects",
    geometry: "Polygon",
    coordinates: JSON.stringify([ring]),
    geoproperty: geoNames.includes("location") ? "location" : geoNames[0]!,
  };
}

/**
 * Reads the entities page by page with only the geo attributes and the name, of the whole type or
 * of an area; `capped` when more remain.
 */
export async function loadMapEntities(ws: string, typeName: string, geoNames: string[], area?: MapArea) {
  const entities: Entity[] = [];
  let total: number | undefined;
  for (let offset = 0; offset < MAP_CAP; offset += MAP_PAGE) {
    const page = await fetchEntities(ws, {
      type: typeName,
      ...(area ? areaQuery(area, geoNames) : {}),
      attrs: [...geoNames, "name"].join(","),
      limit: String(MAP_PAGE),
      offset: String(offset),
      ...(offset === 0 ? { count: "true" } : {}),
    });
    total ??= page.total;
    entities.push(...page.entities);
    if (page.entities.length < MAP_PAGE) return { entities, capped: false, total: total ?? entities.length };
  }
  return {
    entities,
    capped: total === undefined || total > entities.length,
    total: total ?? entities.length,
  };
}

const latLng = (c: unknown): LatLngTuple | undefined =>
  Array.isArray(c) && typeof c[0] === "number" && typeof c[1] === "number" ? [c[1], c[0]] : undefined;

/** GeoJSON [lon, lat] to Leaflet [lat, lon]: Points, Polygons (outer ring) and LineStrings of every instance. */
export function shapesOf(entities: Entity[], geoNames: string[]): MapShapes {
  const shapes: MapShapes = { points: [], polygons: [], lines: [] };
  for (const entity of entities)
    for (const name of geoNames)
      for (const instance of instancesOf(entity[name])) {
        const geometry = instance.value as { type?: string; coordinates?: unknown } | undefined;
        if (!geometry?.coordinates) continue;
        if (geometry.type === "Point") {
          const at = latLng(geometry.coordinates);
          if (at) shapes.points.push({ id: entity.id, label: displayName(entity), at });
        } else if (geometry.type === "Polygon") {
          const ring = (geometry.coordinates as unknown[])[0];
          const path = Array.isArray(ring) ? ring.map(latLng).filter((p): p is LatLngTuple => !!p) : [];
          if (path.length) shapes.polygons.push(path);
        } else if (geometry.type === "LineString") {
          const path = (geometry.coordinates as unknown[]).map(latLng).filter((p): p is LatLngTuple => !!p);
          if (path.length) shapes.lines.push(path);
        }
      }
  return shapes;
}

export const PARIS: LatLngTuple = [48.856613, 2.352222];

/**
 * The south-west and north-east corners around every point, polygon and line, or undefined
 * without any (the map then stays on Paris).
 */
export function extentOf(shapes: MapShapes): [LatLngTuple, LatLngTuple] | undefined {
  const all = [...shapes.points.map((p) => p.at), ...shapes.polygons.flat(), ...shapes.lines.flat()];
  if (all.length === 0) return undefined;
  const lats = all.map((p) => p[0]);
  const lons = all.map((p) => p[1]);
  return [
    [Math.min(...lats), Math.min(...lons)],
    [Math.max(...lats), Math.max(...lons)],
  ];
}
