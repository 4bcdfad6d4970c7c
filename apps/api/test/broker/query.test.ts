import type { BrokerDatabase } from "@orrery/broker";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/harness.ts";
import { ERR, startBroker, type ngsi } from "./ngsi.ts";
import { startPluginBroker } from "./receiver.ts";
import { TypeCounts } from "../../../../packages/broker/src/type-counts.ts";

const VOCAB = "https://uri.etsi.org/ngsi-ld/default-context/";

/** TP/NGSI-LD/CI/Cons/QE: Query Entities (5.7.2, ETSI suite QueryEntities 019) and POST /entityOperations/query (6.23). */
let t: TestApp;
let call: ReturnType<typeof ngsi>;

const farm = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `urn:ngsi-ld:Building:q${String(n).padStart(3, "0")}`,
  type: "Building",
  name: { type: "Property", value: `Farm ${n}` },
  floors: { type: "Property", value: n % 5 },
  address: { type: "Property", value: { city: n % 2 ? "Berlin" : "Paris", zip: 10000 + n } },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [13 + n / 100, 52 + n / 100] } },
  ...extra,
});

beforeAll(async () => {
  ({ t, call } = await startBroker());
  const entities: unknown[] = [];
  for (let n = 0; n < 30; n++) entities.push(farm(n));
  entities.push(
    {
      id: "urn:ngsi-ld:Sensor:s1",
      type: "Sensor",
      temperature: { type: "Property", value: 21, accuracy: { type: "Property", value: 0.9 } },
      controlledBy: { type: "Relationship", object: "urn:ngsi-ld:Building:q001" },
    },
    {
      id: "urn:ngsi-ld:Sensor:s2",
      type: ["Sensor", "Device"],
      temperature: { type: "Property", value: 25, observedAt: "2024-05-01T00:00:00Z" },
    },
    { id: "urn:ngsi-ld:Device:d1", type: "Device", temperature: { type: "Property", value: 30 } },
  );
  const r = await call("POST", "/entityOperations/create", entities);
  expect(r.status, r.raw).toBe(201);
});
afterAll(() => t.close());

const ids = (r: { body: Array<{ id: string }> }) => r.body.map((e) => e.id);
const problem = (r: { status: number; body: any }, status: number, type: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.type).toBe(ERR(type));
};

describe("TP/NGSI-LD/CI/Cons/QE/019 query by type, id, idPattern, attrs", () => {
  it("019_01 type selects entities ordered by id, default page of 20", async () => {
    const r = await call("GET", "/entities?type=Building");
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(20);
    expect(ids(r)[0]).toBe("urn:ngsi-ld:Building:q000");
    expect(r.body[0]).toEqual(farm(0));
  });

  it("019_02 type lists with ',' and '|' are OR, ';' is AND, parentheses group", async () => {
    expect(ids(await call("GET", "/entities?type=Sensor,Device")).sort()).toEqual([
      "urn:ngsi-ld:Device:d1",
      "urn:ngsi-ld:Sensor:s1",
      "urn:ngsi-ld:Sensor:s2",
    ]);
    expect(ids(await call("GET", "/entities?type=Sensor|Device"))).toHaveLength(3);
    expect(ids(await call("GET", "/entities?type=Sensor;Device"))).toEqual(["urn:ngsi-ld:Sensor:s2"]);
    expect(
      ids(await call("GET", `/entities?type=${encodeURIComponent("(Sensor;Device)|Building")}&limit=1000`)),
    ).toHaveLength(31);
  });

  it("019_03 id list and idPattern", async () => {
    expect(ids(await call("GET", "/entities?id=urn:ngsi-ld:Sensor:s1,urn:ngsi-ld:Device:d1"))).toEqual([
      "urn:ngsi-ld:Device:d1",
      "urn:ngsi-ld:Sensor:s1",
    ]);
    expect(
      ids(await call("GET", `/entities?type=Building&idPattern=${encodeURIComponent("q00[1-3]$")}`)),
    ).toEqual(["urn:ngsi-ld:Building:q001", "urn:ngsi-ld:Building:q002", "urn:ngsi-ld:Building:q003"]);
    problem(await call("GET", `/entities?idPattern=${encodeURIComponent("([")}`), 400, "BadRequestData");
  });

  it("019_04 attrs selects entities having one of them and shows only those", async () => {
    const r = await call("GET", "/entities?attrs=controlledBy");
    expect(r.body).toEqual([
      {
        id: "urn:ngsi-ld:Sensor:s1",
        type: "Sensor",
        controlledBy: { type: "Relationship", object: "urn:ngsi-ld:Building:q001" },
      },
    ]);
  });

  it("019_05 keyValues and concise apply to query results", async () => {
    const r = await call("GET", "/entities?id=urn:ngsi-ld:Device:d1&options=keyValues");
    expect(r.body).toEqual([{ id: "urn:ngsi-ld:Device:d1", type: "Device", temperature: 30 }]);
  });

  it("019_06 a query with no selection at all is refused unless local=true", async () => {
    problem(await call("GET", "/entities"), 400, "BadRequestData");
    const all = await call("GET", "/entities?local=true&limit=100");
    expect(all.body).toHaveLength(33);
  });

  it("019_07 an unknown tenant is 404 NonexistentTenant", async () => {
    problem(
      await call("GET", "/entities?type=Building", undefined, { "NGSILD-Tenant": "nobody" }),
      404,
      "NonexistentTenant",
    );
  });
});

describe("TP/NGSI-LD/CI/Cons/QE/019 q, the query language", () => {
  const q = async (query: string, type = "Building,Sensor,Device") =>
    ids(await call("GET", `/entities?type=${type}&limit=1000&q=${encodeURIComponent(query)}`));
  it.each([
    ["floors==3", 6],
    ["floors!=3", 24],
    ["floors>3", 6],
    ["floors>=3", 12],
    ["floors<1", 6],
    ["floors<=1", 12],
    ["floors==1..2", 12],
    ["floors==0,4", 12],
    ['name=="Farm 7"', 1],
    ["name~=Farm 1.", 10],
    ['address[city]=="Berlin"', 15],
    ["address[zip]>10025", 4],
    ['floors==0;address[city]=="Paris"', 3],
    ["floors==0|floors==1", 12],
    ['(floors==0|floors==1);address[city]=="Berlin"', 6],
    ["temperature.accuracy>0.5", 1],
    ["temperature.observedAt>2024-01-01T00:00:00Z", 1],
    ["controlledBy==urn:ngsi-ld:Building:q001", 1],
    ["temperature", 3],
    ["temperature>=25;temperature<30", 1],
    ["!temperature", 30],
    ["!name", 3],
    ["!name;temperature>=25", 2],
    ["floors==0|!name", 9],
    ["!temperature.accuracy;temperature", 2],
  ])("%s → %i entities", async (query, count) => {
    expect(await q(query)).toHaveLength(count);
  });

  it("counts and pages q results whether SQL or the JS evaluator answers", async () => {
    for (const query of ["floors>=3", "name~=Farm"]) {
      const r = await call(
        "GET",
        `/entities?type=Building&q=${encodeURIComponent(query)}&count=true&limit=5&offset=5`,
      );
      expect(r.body).toHaveLength(5);
      const total = Number(r.headers["ngsild-results-count"]);
      expect(total).toBe(query === "floors>=3" ? 12 : 30);
    }
  });

  it.each([
    "floors=3",
    "floors<>3",
    "floors>>3",
    "(floors==3",
    "floors==",
    "floors~=(",
    "floors>1,2",
    "!floors==3",
    "!",
  ])("%s is 400 BadRequestData, never 500", async (query) =>
    problem(
      await call("GET", `/entities?type=Building&q=${encodeURIComponent(query)}`),
      400,
      "BadRequestData",
    ),
  );
});

describe("TP/NGSI-LD/CI/Cons/QE/019 pagination and count (6.3.10, 6.3.13)", () => {
  it("limit/offset page through results with rel=prev/next Link headers", async () => {
    const first = await call("GET", "/entities?type=Building&limit=10");
    const links = [first.headers.link].flat().map(String);
    expect(
      links.some((l) => l.includes('rel="next"') && l.includes("offset=10") && l.includes("limit=10")),
    ).toBe(true);
    expect(links.some((l) => l.includes('rel="prev"'))).toBe(false);
    expect(links.some((l) => l.includes("json-ld#context"))).toBe(true);
    const middle = await call("GET", "/entities?type=Building&limit=10&offset=10");
    expect(ids(middle)[0]).toBe("urn:ngsi-ld:Building:q010");
    const ml = [middle.headers.link].flat().map(String);
    expect(ml.some((l) => l.includes('rel="prev"') && l.includes("offset=0"))).toBe(true);
    expect(ml.some((l) => l.includes('rel="next"') && l.includes("offset=20"))).toBe(true);
    const last = await call("GET", "/entities?type=Building&limit=10&offset=20");
    expect(
      [last.headers.link]
        .flat()
        .map(String)
        .some((l) => l.includes('rel="next"')),
    ).toBe(false);
  });

  it("count=true adds NGSILD-Results-Count; limit=0 with count gives only the count", async () => {
    const r = await call("GET", "/entities?type=Building&count=true&limit=0");
    expect(r.headers["ngsild-results-count"]).toBe("30");
    expect(r.body).toEqual([]);
    expect((await call("GET", "/entities?type=Building")).headers["ngsild-results-count"]).toBeUndefined();
    problem(await call("GET", "/entities?type=Building&limit=0"), 400, "BadRequestData");
  });

  it("a remembered count follows every write, also one made by another broker on the same database", async () => {
    const other = await startPluginBroker({}, { storage: t.storage, dataDir: t.dataDir });
    try {
      const count = async () =>
        Number(
          (await call("GET", "/entities?type=Building&q=floors>=3&count=true&limit=1")).headers[
            "ngsild-results-count"
          ],
        );
      expect(await count()).toBe(12);
      expect(await count()).toBe(12); // remembered
      const id = "urn:ngsi-ld:Building:count-elsewhere";
      expect((await other.call("POST", "/entities", farm(3, { id }))).status).toBe(201);
      expect(await count()).toBe(13);
      expect(
        (await other.call("PATCH", `/entities/${id}/attrs`, { floors: { type: "Property", value: 1 } }))
          .status,
      ).toBe(204);
      expect(await count()).toBe(12);
      expect((await other.call("DELETE", `/entities/${id}`)).status).toBe(204);
      expect(await count()).toBe(12);
    } finally {
      await other.close();
    }
  });

  it("a count right after this broker's own writes is carried forward by them, exact, not taken again", async () => {
    // A broker whose reads of the database are recorded: a count taken again shows as a count(*).
    const statements: string[] = [];
    const dialect = new PgDialect();
    const db = t.storage.db as unknown as BrokerDatabase;
    const recorded = new Proxy(db, {
      get(target, property, receiver) {
        if (property === "execute")
          return (query: SQL) => {
            statements.push(dialect.sqlToQuery(query).sql);
            return target.execute(query);
          };
        return Reflect.get(target, property, receiver);
      },
    });
    const own = await startPluginBroker({ db: recorded }, { storage: t.storage, dataDir: t.dataDir });
    const tenant = { "NGSILD-Tenant": "counted" };
    const hostile = 'a.*+?(|\\"b';
    const queries = [
      "type=Building&q=floors>=3",
      `type=Building;Farm&q=${encodeURIComponent(`name==${JSON.stringify(hostile)}`)}`,
      "type=Building,Farm&attrs=address",
      "type=Farm",
    ];
    const counted = async (broker: typeof own, query: string) =>
      Number(
        (await broker.call("GET", `/entities?${query}&count=true&limit=1`, undefined, tenant)).headers[
          "ngsild-results-count"
        ],
      );
    const counts = () => Promise.all(queries.map((query) => counted(own, query)));
    // What a broker that never counted before answers (it counts in SQL).
    const fresh = async () => {
      const other = await startPluginBroker({}, { storage: t.storage, dataDir: t.dataDir });
      try {
        return await Promise.all(queries.map((query) => counted(other, query)));
      } finally {
        await other.close();
      }
    };
    const retaken = () => statements.filter((s) => s.includes("count(*)")).length;
    try {
      const write = async (method: string, path: string, body: unknown, status: number) =>
        expect((await own.call(method, path, body, tenant)).status).toBe(status);
      await write(
        "POST",
        "/entityOperations/create",
        [farm(3), farm(4, { type: ["Building", "Farm"] })],
        201,
      );
      expect(await counts()).toEqual(await fresh());
      const taken = retaken();
      // type=Farm alone is read from the counts the writes keep, never counted.
      const counting = queries.length - 1;
      expect(taken).toBe(counting);

      // Created, updated out of and into a match, replaced, merged, deleted, in batches and alone.
      await write("POST", "/entities", farm(5, { name: { type: "Property", value: hostile } }), 201);
      expect(await counts()).toEqual([2, 0, 3, 1]);
      await write("PATCH", `/entities/${farm(4).id}/attrs`, { floors: { type: "Property", value: 1 } }, 204);
      await write(
        "POST",
        "/entityOperations/upsert",
        [
          farm(3, { type: ["Building", "Farm"], name: { type: "Property", value: hostile } }),
          farm(6, { type: "Farm" }),
          farm(7),
        ],
        201,
      );
      await write(
        "POST",
        "/entityOperations/upsert?options=update",
        [{ ...farm(5), address: undefined }],
        204,
      );
      await write("DELETE", `/entities/${farm(7).id}`, undefined, 204);
      await write("POST", "/entityOperations/delete", [farm(6).id, "urn:ngsi-ld:Farm:none"], 207);
      // A write to another tenant leaves this one's counts as they are.
      expect(
        (await own.call("POST", "/entities", farm(40, { id: "urn:ngsi-ld:Building:elsewhere" }))).status,
      ).toBe(201);
      expect(await counts()).toEqual(await fresh());
      expect(await counts()).toEqual([1, 1, 3, 2]);
      expect(retaken()).toBe(taken);

      // A write of another broker on the same database: the counts are taken again, and right.
      await write("DELETE", `/entities/${farm(5).id}`, undefined, 204);
      const other = await startPluginBroker({}, { storage: t.storage, dataDir: t.dataDir });
      try {
        expect((await other.call("POST", "/entities", farm(8), tenant)).status).toBe(201);
      } finally {
        await other.close();
      }
      expect(await counts()).toEqual(await fresh());
      expect(retaken()).toBe(taken + counting);
    } finally {
      await own.call("POST", "/entityOperations/delete", [farm(3).id, farm(4).id, farm(8).id], tenant);
      await own.call("DELETE", "/entities/urn:ngsi-ld:Building:elsewhere");
      await own.close();
    }
  });

  it("a count of one type alone follows every write of any broker without counting the entities again", async () => {
    const statements: string[] = [];
    const dialect = new PgDialect();
    const db = t.storage.db as unknown as BrokerDatabase;
    const recorded = new Proxy(db, {
      get(target, property, receiver) {
        if (property === "execute")
          return (query: SQL) => {
            statements.push(dialect.sqlToQuery(query).sql);
            return target.execute(query);
          };
        return Reflect.get(target, property, receiver);
      },
    });
    const own = await startPluginBroker({ db: recorded }, { storage: t.storage, dataDir: t.dataDir });
    const other = await startPluginBroker({}, { storage: t.storage, dataDir: t.dataDir });
    const tenant = { "NGSILD-Tenant": "typed" };
    // A type name (an IRI: no quote, bar, brace nor parenthesis) full of what a regular expression or a LIKE would read as syntax.
    const hostile = "urn:x:a.*+?$[1]%_b";
    const counted = async (type: string) => {
      const r = await own.call(
        "GET",
        `/entities?type=${encodeURIComponent(type)}&count=true&limit=1`,
        undefined,
        tenant,
      );
      expect(r.status, r.raw).toBe(200);
      return Number(r.headers["ngsild-results-count"]);
    };
    const write = async (broker: typeof own, method: string, path: string, body: unknown, status: number) => {
      const r = await broker.call(method, path, body, tenant);
      expect(r.status, r.raw).toBe(status);
    };
    const ids: string[] = [];
    const item = (n: number, type: unknown) => {
      const id = `urn:ngsi-ld:Typed:${n}`;
      if (!ids.includes(id)) ids.push(id);
      return { id, type, floors: { type: "Property", value: n } };
    };
    try {
      await write(
        own,
        "POST",
        "/entityOperations/create",
        [item(1, "Farm"), item(2, ["Farm", hostile])],
        201,
      );
      expect([await counted("Farm"), await counted(hostile), await counted("Barn")]).toEqual([2, 1, 0]);
      // Another broker creates, retypes (upsert replace and update), deletes: each count follows.
      await write(other, "POST", "/entities", item(3, ["Barn", "Farm"]), 201);
      expect([await counted("Farm"), await counted("Barn")]).toEqual([3, 1]);
      await write(other, "POST", "/entityOperations/upsert", [item(1, "Barn"), item(4, hostile)], 201);
      expect([await counted("Farm"), await counted("Barn"), await counted(hostile)]).toEqual([2, 2, 2]);
      await write(other, "POST", "/entityOperations/upsert?options=update", [item(4, "Farm")], 204);
      expect([await counted("Farm"), await counted(hostile)]).toEqual([3, 2]);
      await write(other, "DELETE", `/entities/${encodeURIComponent(item(2, []).id)}`, undefined, 204);
      await write(other, "POST", "/entityOperations/delete", [item(3, []).id], 204);
      expect([await counted("Farm"), await counted("Barn"), await counted(hostile)]).toEqual([1, 1, 1]);
      // The same upsert by two brokers at once: each entity is counted once.
      await Promise.all(
        [own, other].map((b) =>
          b.call(
            "POST",
            "/entityOperations/upsert",
            [5, 6, 7].map((n) => item(n, "Barn")),
            tenant,
          ),
        ),
      );
      expect(await counted("Barn")).toBe(4);
      // The same as counting every entity, and no statement of this broker counted them.
      const listed = await own.call("GET", "/entities?type=Barn&limit=100", undefined, tenant);
      expect(listed.body).toHaveLength(4);
      expect(statements.filter((s) => s.includes("count(")).length).toBe(0);
      // A write that could not tell what was there (it took an existing entity for new, as the
      // loser of that race does) counts the types it touched again rather than adding to them.
      const [existing] = (await own.call("GET", `/entities?type=Barn&limit=1`, undefined, tenant)).body;
      await db.transaction(async (tx) =>
        new TypeCounts().onChanges(tx as unknown as BrokerDatabase, "typed", [
          {
            after: { id: existing.id, types: [`${VOCAB}Barn`], attrs: {}, createdAt: "", modifiedAt: "" },
            unsure: true,
          },
        ]),
      );
      expect(await counted("Barn")).toBe(4);
    } finally {
      await own.call("POST", "/entityOperations/delete", ids, tenant);
      await own.close();
      await other.close();
    }
  });

  it("pages by offset stay exact when the broker starts them from the previous page's last id", async () => {
    const page = async (offset: number) =>
      ids(await call("GET", `/entities?type=Building&limit=7&offset=${offset}`));
    const all = ids(await call("GET", "/entities?type=Building&limit=100"));
    const pages = [await page(0), await page(7), await page(14), await page(21), await page(28)];
    expect(pages.flat()).toEqual(all);
    expect(await page(7)).toEqual(all.slice(7, 14)); // asked again: the same
    // A write moves every row after it: the next page by offset shows the shift, as offsets do.
    const first = "urn:ngsi-ld:Building:a-first";
    expect((await call("POST", "/entities", farm(1, { id: first }))).status).toBe(201);
    try {
      expect(await page(14)).toEqual([first, ...all].slice(14, 21));
    } finally {
      expect((await call("DELETE", `/entities/${first}`)).status).toBe(204);
    }
    expect(await page(14)).toEqual(all.slice(14, 21));
  });

  it("a limit above the page-size cap is 403 TooManyResults; bad numbers are 400", async () => {
    problem(await call("GET", "/entities?type=Building&limit=1001"), 403, "TooManyResults");
    expect((await call("GET", "/entities?type=Building&limit=1000")).status).toBe(200);
    for (const bad of ["limit=-1", "limit=abc", "offset=-5", "count=maybe"])
      problem(await call("GET", `/entities?type=Building&${bad}`), 400, "BadRequestData");
  });
});

describe("TP/NGSI-LD/CI/Cons/QE/019 geo-queries (4.10)", () => {
  const geo = (georel: string, geometry: string, coordinates: unknown, extra = "") =>
    call(
      "GET",
      `/entities?type=Building&limit=100&georel=${encodeURIComponent(georel)}&geometry=${geometry}&coordinates=${encodeURIComponent(JSON.stringify(coordinates))}${extra}`,
    );
  it("near;maxDistance and minDistance", async () => {
    // Building qN is at (13 + N/100, 52 + N/100); q000 at (13, 52). 0.01 degree steps are ~1.3 km.
    expect(ids(await geo("near;maxDistance==2000", "Point", [13, 52]))).toEqual([
      "urn:ngsi-ld:Building:q000",
      "urn:ngsi-ld:Building:q001",
    ]);
    expect(ids(await geo("near;minDistance==36000", "Point", [13, 52]))).toEqual([
      "urn:ngsi-ld:Building:q028",
      "urn:ngsi-ld:Building:q029",
    ]);
  });
  it("within, intersects and disjoint a polygon; geoproperty names another GeoProperty", async () => {
    const box = [
      [
        [13.045, 52.045],
        [13.095, 52.045],
        [13.095, 52.095],
        [13.045, 52.095],
        [13.045, 52.045],
      ],
    ];
    expect(ids(await geo("within", "Polygon", box))).toEqual([
      "urn:ngsi-ld:Building:q005",
      "urn:ngsi-ld:Building:q006",
      "urn:ngsi-ld:Building:q007",
      "urn:ngsi-ld:Building:q008",
      "urn:ngsi-ld:Building:q009",
    ]);
    expect(ids(await geo("intersects", "Polygon", box))).toHaveLength(5);
    expect(ids(await geo("disjoint", "Polygon", box))).toHaveLength(25);
    expect(ids(await geo("within", "Polygon", box, "&geoproperty=elsewhere"))).toEqual([]);
  });
  it("equals a point, and works with count and q", async () => {
    expect(ids(await geo("equals", "Point", [13.03, 52.03]))).toEqual(["urn:ngsi-ld:Building:q003"]);
    const r = await call(
      "GET",
      `/entities?type=Building&q=floors==0&count=true&georel=near;maxDistance==10000&geometry=Point&coordinates=[13,52]`,
    );
    expect(ids(r)).toEqual(["urn:ngsi-ld:Building:q000", "urn:ngsi-ld:Building:q005"]);
    expect(r.headers["ngsild-results-count"]).toBe("2");
  });
  it("refuses incomplete or invalid geo-queries with 400", async () => {
    problem(
      await call("GET", "/entities?type=Building&georel=within&geometry=Polygon"),
      400,
      "BadRequestData",
    );
    problem(await geo("near", "Point", [13, 52]), 400, "BadRequestData");
    problem(await geo("beside", "Point", [13, 52]), 400, "BadRequestData");
    problem(
      await geo("within", "Polygon", [
        [
          [0, 0],
          [1, 1],
        ],
      ]),
      400,
      "BadRequestData",
    );
  });
});

describe("TP/NGSI-LD/CI/Cons/QE/POST POST /entityOperations/query (6.23)", () => {
  it("takes entities, attrs, q and geoQ in a Query body", async () => {
    const r = await call("POST", "/entityOperations/query?count=true", {
      type: "Query",
      entities: [
        { type: "Building", idPattern: "q00" },
        { type: "Sensor", id: "urn:ngsi-ld:Sensor:s1" },
      ],
      q: "floors>=0|temperature>0",
      attrs: ["floors", "temperature"],
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.headers["ngsild-results-count"]).toBe("11");
    expect(r.body.find((e: any) => e.id === "urn:ngsi-ld:Sensor:s1").temperature.value).toBe(21);
    const g = await call("POST", "/entityOperations/query", {
      type: "Query",
      entities: [{ type: "Building" }],
      geoQ: { georel: "near;maxDistance==2000", geometry: "Point", coordinates: [13, 52] },
    });
    expect(ids(g)).toEqual(["urn:ngsi-ld:Building:q000", "urn:ngsi-ld:Building:q001"]);
  });
  it("refuses a body that is not a Query", async () => {
    problem(
      await call("POST", "/entityOperations/query", { entities: [{ type: "Building" }] }),
      400,
      "BadRequestData",
    );
    problem(await call("POST", "/entityOperations/query", { type: "Query" }), 400, "BadRequestData");
    problem(
      await call("POST", "/entityOperations/query", {
        type: "Query",
        entities: [{ type: "Building" }],
        q: "a=1",
      }),
      400,
      "BadRequestData",
    );
    problem(
      await call("POST", "/entityOperations/query", { type: "Query", entities: [{ id: "urn:x:y" }] }),
      400,
      "BadRequestData",
    );
  });
});
