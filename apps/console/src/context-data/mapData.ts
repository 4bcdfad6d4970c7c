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

/** Reads the entities page by page with only the geo attributes and the name; `capped` when more remain. */
export async function loadMapEntities(ws: string, typeName: string, geoNames: string[]) {
  const entities: Entity[] = [];
  let total: number | undefined;
  for (let offset = 0; offset < MAP_CAP; offset += MAP_PAGE) {
    const page = await fetchEntities(ws, {
      type: typeName,
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
