import { sql } from "drizzle-orm";
import type { Geometry } from "geojson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geoMatches, parseGeoQuery } from "../../../../packages/broker/src/geo.ts";
import { geoCandidates } from "../../../../packages/broker/src/geo-sql.ts";
import { rowsOf } from "../../src/storage/database.ts";
import type { TestApp } from "../support/harness.ts";
import { ERR, startBroker, type ngsi } from "./ngsi.ts";

/**
 * Geo-queries answered through the spatial index (migration broker_0008_geo_box) answer exactly as
 * the turf reference (geo.ts) applied to every entity, on data spread over the globe and on hostile
 * geometries: the antimeridian, the poles, segments whose great circle bulges out of their box,
 * a polygon as large as the world; and the index is what PostgreSQL uses to find the candidates.
 */
let t: TestApp;
let call: ReturnType<typeof ngsi>;

/** Deterministic pseudo-random numbers (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const square = (x: number, y: number, d: number) => [
  [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ],
];

const hostile: Record<string, Geometry> = {
  eastOfAntimeridian: { type: "Point", coordinates: [179.99, 0.5] },
  westOfAntimeridian: { type: "Point", coordinates: [-179.99, 0.5] },
  crossingAntimeridian: {
    type: "LineString",
    coordinates: [
      [179, -1],
      [-179, 1],
    ],
  },
  northPole: { type: "Point", coordinates: [0, 90] },
  nearPole: { type: "Point", coordinates: [120, 89.9] },
  // Its great circle passes over latitude 84.3 halfway, far above its box (latitude 60).
  bulging: {
    type: "LineString",
    coordinates: [
      [-80, 60],
      [80, 60],
    ],
  },
  world: {
    type: "Polygon",
    coordinates: [
      [
        [-180, -90],
        [180, -90],
        [180, 90],
        [-180, 90],
        [-180, -90],
      ],
    ],
  },
  berlinSquare: { type: "Polygon", coordinates: square(13.3, 52.4, 0.2) },
  berlinLine: {
    type: "LineString",
    coordinates: [
      [13.2, 52.5],
      [13.6, 52.5],
    ],
  },
  islands: {
    type: "MultiPolygon",
    coordinates: [square(10, 10, 1), square(-10, -10, 1)],
  },
  altitude: { type: "Point", coordinates: [13.4, 52.5, 120] },
  // A ring that crosses itself: GEOS may refuse it, the broker must still answer.
  bowTie: {
    type: "Polygon",
    coordinates: [
      [
        [13.3, 52.4],
        [13.5, 52.6],
        [13.5, 52.4],
        [13.3, 52.6],
        [13.3, 52.4],
      ],
    ],
  },
};

const entities: Array<Record<string, unknown>> = [];
const next = random(38);
for (let n = 0; n < 200; n++) {
  // Half over the globe, half in and around Berlin (where the queries below look closely).
  const point = n % 2 ? [next() * 360 - 180, next() * 180 - 90] : [13.2 + next() * 0.5, 52.3 + next() * 0.4];
  entities.push({
    id: `urn:ngsi-ld:Place:g${String(n).padStart(3, "0")}`,
    type: "Place",
    location: { type: "GeoProperty", value: { type: "Point", coordinates: point } },
  });
}
for (const [name, geometry] of Object.entries(hostile))
  entities.push({
    id: `urn:ngsi-ld:Place:${name}`,
    type: "Place",
    location: { type: "GeoProperty", value: geometry },
  });
// A second GeoProperty far from the location: the index holds one box per entity.
entities.push({
  id: "urn:ngsi-ld:Place:twoPlaces",
  type: "Place",
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [-70, -30] } },
  servedArea: { type: "GeoProperty", value: { type: "Polygon", coordinates: square(13.35, 52.45, 0.05) } },
});

// Points on the sides and corners of the box [13, 52]-[14, 53] and a hair outside: a box of points is
// decided in SQL (geo-box.ts), where "within" leaves the sides out and "intersects" keeps them.
for (const [name, coordinates] of Object.entries({
  onWestSide: [13, 52.5],
  onCorner: [14, 53],
  onNorthSide: [13.25, 53],
  hairOutside: [14.000000000000002, 52.5],
  hairInside: [13.000000000000002, 52.99999999999999],
  withAltitudeOnSide: [13.5, 52, 30],
}))
  entities.push({
    id: `urn:ngsi-ld:Place:${name}`,
    type: "Place",
    location: { type: "GeoProperty", value: { type: "Point", coordinates } },
  });
// Two instances (datasetIds), one outside and one inside: the entity matches by the inside one.
entities.push({
  id: "urn:ngsi-ld:Place:twoInstances",
  type: "Place",
  location: [
    { type: "GeoProperty", value: { type: "Point", coordinates: [50, 50] } },
    {
      type: "GeoProperty",
      value: { type: "Point", coordinates: [13.75, 52.75] },
      datasetId: "urn:ngsi-ld:Dataset:b",
    },
  ],
});
/** The box [13, 52]-[14, 53] as a map sends it, and drawn from another corner the other way round. */
const boxRing = square(13, 52, 1);
const boxOtherWay = [
  [
    [14, 53],
    [14, 52],
    [13, 52],
    [13, 53],
    [14, 53],
  ],
];

const queries: Array<[string, string, unknown, string?]> = [
  ["within", "Polygon", boxRing],
  ["intersects", "Polygon", boxRing],
  ["within", "Polygon", boxOtherWay],
  ["intersects", "Polygon", boxOtherWay],
  ["near;maxDistance==2000", "Point", [13.4, 52.5]],
  ["near;maxDistance==30000", "Point", [13.4, 52.5]],
  ["near;minDistance==20000", "Point", [13.4, 52.5]],
  ["near;minDistance==1000;maxDistance==15000", "Point", [13.4, 52.5]],
  ["near;maxDistance==5000", "Point", [-179.995, 0.5]], // across the antimeridian
  ["near;maxDistance==5000", "Point", [179.995, 0.49]],
  ["near;maxDistance==200000", "Point", [180, 0]], // the line crossing it
  ["near;maxDistance==50000", "Point", [-60, 89.8]], // over the pole
  ["near;maxDistance==50000", "Point", [0, 84]], // the bulging great circle
  ["near;maxDistance==30000000", "Point", [0, 0]], // more than half the earth
  ["within", "Polygon", square(13.3, 52.4, 0.2)],
  ["within", "Polygon", (hostile.world as { coordinates: unknown }).coordinates],
  ["within", "MultiPolygon", [square(13.3, 52.4, 0.1), square(13.45, 52.55, 0.1)]],
  ["contains", "Point", [13.4, 52.5]],
  ["contains", "Point", [10.5, 10.5]],
  ["intersects", "Polygon", square(13.3, 52.4, 0.2)],
  [
    "intersects",
    "LineString",
    [
      [13.4, 52.3],
      [13.4, 52.7],
    ],
  ],
  ["intersects", "Polygon", square(178, -2, 2)],
  ["overlaps", "Polygon", square(13.3, 52.4, 0.2)],
  ["overlaps", "Polygon", square(10.5, 10.5, 1)],
  ["disjoint", "Polygon", square(13.3, 52.4, 0.2)],
  ["equals", "Point", [179.99, 0.5]],
  [
    "equals",
    "LineString",
    [
      [13.2, 52.5],
      [13.6, 52.5],
    ],
  ],
  ["intersects", "Polygon", square(13.3, 52.4, 0.2), "servedArea"],
  ["within", "Polygon", square(13.3, 52.4, 0.2), "servedArea"],
];

beforeAll(async () => {
  ({ t, call } = await startBroker());
  const r = await call("POST", "/entityOperations/create", entities);
  expect(r.status, r.raw).toBe(201);
});
afterAll(() => t.close());

const ids = (r: { body: Array<{ id: string }> }) => r.body.map((e) => e.id).sort();

describe("geo-queries on the spatial index (issue 38)", () => {
  it.each(queries)(
    "%s %s %j (%s) answers as the turf reference on every entity",
    async (georel, geometry, coordinates, geoproperty) => {
      const query = parseGeoQuery({
        georel,
        geometry,
        coordinates: JSON.stringify(coordinates),
        geoproperty,
      })!;
      const expected = entities
        .filter((e) => {
          const attribute = e[query.geoproperty] as
            { value: Geometry } | Array<{ value: Geometry }> | undefined;
          return [attribute ?? []].flat().some((instance) => geoMatches(instance.value, query));
        })
        .map((e) => e.id as string)
        .sort();
      const params = new URLSearchParams({
        type: "Place",
        limit: "1000",
        georel,
        geometry,
        coordinates: JSON.stringify(coordinates),
        ...(geoproperty ? { geoproperty } : {}),
      });
      const r = await call("GET", `/entities?${params}`);
      expect(r.status, r.raw).toBe(200);
      expect(ids(r)).toEqual(expected);
    },
  );

  it("finds what only the widened boxes reach: across the antimeridian, over the pole, under a bulging arc", async () => {
    const near = async (distance: number, coordinates: number[]) =>
      ids(
        await call(
          "GET",
          `/entities?type=Place&limit=1000&georel=near;maxDistance==${distance}&geometry=Point&coordinates=${JSON.stringify(coordinates)}`,
        ),
      );
    expect(await near(5000, [-179.995, 0.5])).toEqual([
      "urn:ngsi-ld:Place:eastOfAntimeridian",
      "urn:ngsi-ld:Place:westOfAntimeridian",
      "urn:ngsi-ld:Place:world",
    ]);
    expect(await near(50000, [-60, 89.8])).toEqual([
      "urn:ngsi-ld:Place:nearPole",
      "urn:ngsi-ld:Place:northPole",
      "urn:ngsi-ld:Place:world",
    ]);
    expect(await near(50000, [0, 84])).toEqual(["urn:ngsi-ld:Place:bulging", "urn:ngsi-ld:Place:world"]);
    expect(await near(200000, [180, 0])).toContain("urn:ngsi-ld:Place:crossingAntimeridian");
  });

  it("pages a geo-query (and a q decided in JS) as one page does, counts it, and sees a write between pages", async () => {
    const box = square(13.3, 52.4, 0.2);
    const page = async (offset: number, limit: number, q?: string) => {
      const params = new URLSearchParams({
        type: "Place",
        georel: "within",
        geometry: "Polygon",
        coordinates: JSON.stringify(box),
        limit: String(limit),
        offset: String(offset),
        count: "true",
        ...(q ? { q } : {}),
      });
      const r = await call("GET", `/entities?${params}`);
      expect(r.status, r.raw).toBe(200);
      return {
        ids: (r.body as Array<{ id: string }>).map((e) => e.id),
        count: r.headers["ngsild-results-count"],
      };
    };
    const whole = await page(0, 1000);
    expect(whole.ids.length).toBeGreaterThan(20);
    const pages: string[] = [];
    for (let offset = 0; offset < whole.ids.length; offset += 7) {
      const p = await page(offset, 7);
      expect(p.count).toBe(String(whole.ids.length));
      pages.push(...p.ids);
    }
    expect(pages).toEqual(whole.ids);
    // A write between two pages: the next page and the count see it (nothing kept from before it).
    const added = { type: "Point", coordinates: [13.31, 52.41] };
    const id = "urn:ngsi-ld:Place:a.*+(between)";
    const r = await call("POST", "/entities", {
      id,
      type: "Place",
      location: { type: "GeoProperty", value: added },
    });
    expect(r.status, r.raw).toBe(201);
    const after = await page(0, 1000);
    expect(after.count).toBe(String(whole.ids.length + 1));
    expect(after.ids).toContain(id);
    expect((await page(whole.ids.length - 3, 7)).ids).toEqual(after.ids.slice(whole.ids.length - 3));
    await call("DELETE", `/entities/${encodeURIComponent(id)}`);
    expect((await page(0, 1000)).ids).toEqual(whole.ids);
  });

  it("refuses empty and invalid geometries with 400, whatever bytes they carry", async () => {
    for (const [georel, geometry, coordinates] of [
      ["within", "Polygon", "[]"],
      ["near;maxDistance==10", "Point", "[]"],
      ["near;maxDistance==10", "Point", "[200,0]"],
      ["near;maxDistance==10", "Point", "[0,91]"],
      ["within", "Polygon", "[[[0,0],[1,0],[1,1]]]"],
      ["near;maxDistance==.*+?(|\\", "Point", "[0,0]"],
      ["within", "Polygon", "[[[0,0],[1,0],[1,1],[0,0]]"],
      ["within", ".*+?(|\\", "[0,0]"],
      ["near;maxDistance==1e999", "Point", "[0,0]"],
    ]) {
      const params = new URLSearchParams({
        type: "Place",
        georel: georel!,
        geometry: geometry!,
        coordinates: coordinates!,
      });
      const r = await call("GET", `/entities?${params}`);
      expect(r.status, `${georel} ${geometry} ${coordinates}: ${r.raw}`).toBe(400);
      expect(r.body.type).toBe(ERR("BadRequestData"));
    }
  });
});

describe("what decides", () => {
  it("the broker's version says whether PostGIS answers geo-queries (CI installs it beside PostgreSQL)", async () => {
    const r = await t.app.inject({ method: "GET", url: "/ngsi-ld/ex/v1/version" });
    expect(r.statusCode, r.body).toBe(200);
    const { spatial } = r.json()["orrery-broker"];
    if (t.storage.driver === "pglite")
      expect(spatial).toEqual({ postgis: false, detail: "PGlite has no PostGIS" });
    else expect(spatial).toEqual({ postgis: true, detail: expect.stringMatching(/^PostGIS \d/) });
  });
});

describe("the spatial index is used", () => {
  it("a bounding-box query over 10,000 entities plans an index scan of broker_entities_geo_box", async () => {
    const many: unknown[] = [];
    const rand = random(7);
    for (let n = 0; n < 10000; n++)
      many.push({
        id: `urn:ngsi-ld:Lamp:${n}`,
        type: "Lamp",
        location: {
          type: "GeoProperty",
          value: { type: "Point", coordinates: [2 + rand() * 0.4, 48.7 + rand() * 0.3] },
        },
      });
    for (let i = 0; i < many.length; i += 1000) {
      const r = await call("POST", "/entityOperations/upsert", many.slice(i, i + 1000));
      expect(r.status, r.raw).toBeLessThan(300);
    }
    const db = t.storage.db;
    await db.execute(sql`ANALYZE broker_entities`);
    const query = parseGeoQuery({
      georel: "within",
      geometry: "Polygon",
      coordinates: JSON.stringify(square(2.1, 48.8, 0.01)),
    })!;
    const plan = rowsOf<Record<string, string>>(
      await db.execute(
        sql`EXPLAIN SELECT id FROM broker_entities WHERE tenant = '' AND attrs ? 'https://uri.etsi.org/ngsi-ld/location' AND ${geoCandidates(query)!}`,
      ),
    )
      .map((row) => Object.values(row)[0])
      .join("\n");
    expect(plan).toContain("broker_entities_geo_box");
    // And the answer through the broker is the reference's (a handful of the 10,000).
    const r = await call(
      "GET",
      `/entities?type=Lamp&limit=1000&georel=within&geometry=Polygon&coordinates=${JSON.stringify(square(2.1, 48.8, 0.01))}`,
    );
    const expected = many
      .filter((e: any) => geoMatches(e.location.value, query))
      .map((e: any) => e.id as string)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(r).sort()).toEqual(expected);
  }, 120_000);
});
