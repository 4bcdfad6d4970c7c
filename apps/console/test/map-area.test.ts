import { afterEach, describe, expect, it, vi } from "vitest";
import { areaQuery, loadMapEntities, type MapArea } from "../src/context-data/mapData.ts";
import { setSession } from "../src/session.ts";

// The map of a type with more entities than it holds (10,000) asks for the entities of the area
// the user zoomed to: an NGSI-LD geo-query over the bounding box shown.

const paris: MapArea = [
  [48.8, 2.2],
  [48.92, 2.45],
];

afterEach(() => vi.unstubAllGlobals());

describe("the map of an area", () => {
  it("asks for the entities that intersect the box shown, as a GeoJSON polygon in [lon, lat]", () => {
    const query = areaQuery(paris, ["servedArea", "location"]);
    expect(query).toMatchObject({ georel: "intersects", geometry: "Polygon", geoproperty: "location" });
    expect(JSON.parse(query.coordinates!)).toEqual([
      [
        [2.2, 48.8],
        [2.45, 48.8],
        [2.45, 48.92],
        [2.2, 48.92],
        [2.2, 48.8],
      ],
    ]);
    // A type without `location`: its first geo property.
    expect(areaQuery(paris, ["servedArea"]).geoproperty).toBe("servedArea");
  });

  it("asks for the world when the map is zoomed out past its edges", () => {
    const query = areaQuery(
      [
        [-120, -400],
        [130, 500],
      ],
      ["location"],
    );
    expect(JSON.parse(query.coordinates!)[0]).toEqual([
      [-180, -90],
      [180, -90],
      [180, 90],
      [-180, 90],
      [-180, -90],
    ]);
  });

  it("reads an area's entities page by page with the geo-query on every page", async () => {
    setSession({ token: "t0k", tokenType: "Bearer", expiresAt: Date.now() + 3600_000 });
    const asked: URL[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        const at = new URL(url, "http://console.test");
        asked.push(at);
        const offset = Number(at.searchParams.get("offset"));
        const rows = offset === 0 ? 1000 : 200;
        const body = Array.from({ length: rows }, (_, i) => ({
          id: `urn:ngsi-ld:Lamp:${offset + i}`,
          type: "Lamp",
          location: { type: "GeoProperty", value: { type: "Point", coordinates: [2.3, 48.85] } },
        }));
        return new Response(JSON.stringify(body), {
          headers: { "content-type": "application/json", "x-total-count": "1200" },
        });
      }),
    );
    const read = await loadMapEntities("urn:ngsi-ld:Workspace:w1", "Lamp", ["location"], paris);
    expect(read).toMatchObject({ capped: false, total: 1200 });
    expect(read.entities).toHaveLength(1200);
    expect(asked).toHaveLength(2);
    for (const url of asked) {
      expect(url.searchParams.get("georel")).toBe("intersects");
      expect(url.searchParams.get("geometry")).toBe("Polygon");
      expect(url.searchParams.get("type")).toBe("Lamp");
    }
    expect(asked[0]!.searchParams.get("count")).toBe("true");
  });
});
