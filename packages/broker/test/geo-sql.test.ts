import { describe, expect, it } from "vitest";
import { parseGeoQuery } from "../src/geo.ts";
import { candidateBoxes } from "../src/geo-sql.ts";

const q = (georel: string, geometry: string, coordinates: unknown) =>
  parseGeoQuery({ georel, geometry, coordinates: JSON.stringify(coordinates) })!;

describe("the boxes a geo-query's candidates must overlap (geo-sql.ts)", () => {
  it("near: a box of the distance around the point, wider in longitude away from the equator", () => {
    const [box] = candidateBoxes(q("near;maxDistance==1000", "Point", [13.4, 52.5]))!;
    expect(box!.y2 - box!.y1).toBeGreaterThan(2 * 0.00899); // 1 km of latitude is 0.00899 degrees
    expect(box!.y2 - box!.y1).toBeLessThan(2 * 0.0095);
    expect(box!.x2 - box!.x1).toBeGreaterThan((box!.y2 - box!.y1) / Math.cos((52.5 * Math.PI) / 180));
  });
  it("near the antimeridian: two boxes, one on each side", () => {
    const boxes = candidateBoxes(q("near;maxDistance==5000", "Point", [179.99, 0]))!;
    expect(boxes).toHaveLength(2);
    expect(boxes.some((b) => b.x1 < -179.9 && b.x1 === -180)).toBe(true);
  });
  it("reaching a pole: every longitude", () => {
    const boxes = candidateBoxes(q("near;maxDistance==50000", "Point", [10, 89.9]))!;
    expect(boxes).toEqual([{ x1: -180, y1: expect.any(Number), x2: 180, y2: 90 }]);
  });
  it("disjoint and minDistance alone select nothing out; the others the query geometry's box", () => {
    expect(candidateBoxes(q("disjoint", "Point", [1, 2]))).toBeUndefined();
    expect(candidateBoxes(q("near;minDistance==10", "Point", [1, 2]))).toBeUndefined();
    expect(
      candidateBoxes(
        q("intersects", "LineString", [
          [1, 2],
          [3, -4],
        ]),
      ),
    ).toEqual([{ x1: 1, y1: -4, x2: 3, y2: 2 }]);
  });
});
