import { describe, expect, it } from "vitest";
import type { Geometry } from "geojson";
import { geoMatches, geometryProblem, parseGeoQuery } from "../src/geo.ts";
import { NgsiLdError } from "../src/problems.ts";

const berlin: Geometry = { type: "Point", coordinates: [13.405, 52.52] };
const potsdam: Geometry = { type: "Point", coordinates: [13.0645, 52.3906] };
const square = (x: number, y: number, d: number): Geometry => ({
  type: "Polygon",
  coordinates: [
    [
      [x, y],
      [x + d, y],
      [x + d, y + d],
      [x, y + d],
      [x, y],
    ],
  ],
});
const q = (georel: string, geometry: string, coordinates: unknown) =>
  parseGeoQuery({ georel, geometry, coordinates: JSON.stringify(coordinates) })!;

describe("geo-queries (4.10)", () => {
  it("near;maxDistance and minDistance in meters (Berlin-Potsdam is about 27 km)", () => {
    expect(geoMatches(potsdam, q("near;maxDistance==30000", "Point", [13.405, 52.52]))).toBe(true);
    expect(geoMatches(potsdam, q("near;maxDistance==20000", "Point", [13.405, 52.52]))).toBe(false);
    expect(geoMatches(potsdam, q("near;minDistance==20000", "Point", [13.405, 52.52]))).toBe(true);
    // A polygon around the point is at distance 0.
    expect(geoMatches(square(13, 52, 1), q("near;maxDistance==1", "Point", [13.405, 52.52]))).toBe(true);
    // A line passing 1.1 km away.
    const line: Geometry = {
      type: "LineString",
      coordinates: [
        [13.3, 52.53],
        [13.5, 52.53],
      ],
    };
    expect(geoMatches(line, q("near;maxDistance==1500", "Point", [13.405, 52.52]))).toBe(true);
    expect(geoMatches(line, q("near;maxDistance==1000", "Point", [13.405, 52.52]))).toBe(false);
  });
  it("within, contains, intersects, disjoint, equals, overlaps", () => {
    const area = q("within", "Polygon", (square(13, 52, 1) as { coordinates: unknown }).coordinates);
    expect(geoMatches(berlin, area)).toBe(true);
    expect(geoMatches({ type: "Point", coordinates: [15, 52.5] }, area)).toBe(false);
    expect(
      geoMatches(
        {
          type: "MultiPoint",
          coordinates: [
            [13.1, 52.1],
            [13.2, 52.2],
          ],
        },
        area,
      ),
    ).toBe(true);
    expect(geoMatches(square(13.2, 52.2, 0.1), area)).toBe(true);
    expect(geoMatches(square(13, 52, 1), q("contains", "Point", [13.405, 52.52]))).toBe(true);
    const crossing: Geometry = {
      type: "LineString",
      coordinates: [
        [12.5, 52.5],
        [13.5, 52.5],
      ],
    };
    expect(geoMatches(crossing, { ...area, relation: { kind: "intersects" } })).toBe(true);
    expect(geoMatches(crossing, { ...area, relation: { kind: "disjoint" } })).toBe(false);
    expect(
      geoMatches({ type: "Point", coordinates: [15, 52.5] }, { ...area, relation: { kind: "disjoint" } }),
    ).toBe(true);
    expect(geoMatches(berlin, q("equals", "Point", [13.405, 52.52]))).toBe(true);
    expect(geoMatches(potsdam, q("equals", "Point", [13.405, 52.52]))).toBe(false);
    expect(geoMatches(square(13.5, 52.5, 1), { ...area, relation: { kind: "overlaps" } })).toBe(true);
    expect(geoMatches(square(13.2, 52.2, 0.1), { ...area, relation: { kind: "overlaps" } })).toBe(false);
    const multi: Geometry = {
      type: "MultiPolygon",
      coordinates: [
        (square(20, 20, 1) as { coordinates: number[][][] }).coordinates,
        (square(13.2, 52.2, 0.1) as { coordinates: number[][][] }).coordinates,
      ],
    };
    expect(geoMatches(multi, { ...area, relation: { kind: "intersects" } })).toBe(true);
    expect(geoMatches(multi, area)).toBe(false);
  });
  it("rejects bad geo-queries as BadRequestData", () => {
    const bad = [
      () => q("near", "Point", [1, 2]),
      () => q("near;maxDistance==abc", "Point", [1, 2]),
      () => q("near;maxDistance==10", "Polygon", (square(0, 0, 1) as { coordinates: unknown }).coordinates),
      () => q("touches", "Point", [1, 2]),
      () => q("within", "Circle", [1, 2]),
      () => parseGeoQuery({ georel: "within", geometry: "Point", coordinates: "[1," }),
      () =>
        q("within", "Polygon", [
          [
            [0, 0],
            [1, 0],
            [1, 1],
          ],
        ]),
      () => parseGeoQuery({ georel: "within" }),
    ];
    for (const f of bad) expect(f).toThrow(NgsiLdError);
  });
  it("validates GeoJSON values", () => {
    expect(geometryProblem(berlin)).toBeNull();
    expect(geometryProblem({ type: "Point", coordinates: [200, 0] })).toMatch(/coordinates/);
    expect(geometryProblem({ type: "Point" })).toMatch(/coordinates/);
    expect(geometryProblem("POINT(1 2)")).toMatch(/not a GeoJSON/);
  });
});
