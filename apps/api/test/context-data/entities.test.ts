import { describe, expect, it } from "vitest";
import { driver } from "../support/harness.ts";
import { useEmbeddedWorkspace } from "../support/embedded-workspace.ts";
import { NgsiLdClient } from "@orrery/ngsi-ld";
import { pageByName } from "../../src/context-data/entity-order.ts";
import { brokerCalls } from "../../src/metrics/registry.ts";

const ctx = useEmbeddedWorkspace();

const building = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "Building",
  name: { type: "Property", value: `Building ${id.split(":").pop()}` },
  floors: { type: "Property", value: 3 },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [2.35, 48.85] } },
  ...extra,
});

describe(`entities through the API, on the embedded broker over HTTP (${driver})`, () => {
  it("reads, edits and deletes an entity whose id is longer than 100 characters, through the API and the broker", async () => {
    const id = `urn:ngsi-ld:Building:${"campus-north-wing-".repeat(12)}1`;
    expect(id.length).toBeGreaterThan(200);
    const path = `${ctx.path}/entities/${encodeURIComponent(id)}`;
    expect((await ctx.api("POST", `${ctx.path}/entities`, building(id))).status).toBe(201);
    expect((await ctx.api("GET", path)).body.id).toBe(id);
    expect((await ctx.api("PUT", `${path}/attrs/floors`, { type: "Property", value: 4 })).status).toBe(200);
    const direct = await fetch(`${ctx.base}/ngsi-ld/v1/entities/${encodeURIComponent(id)}`, {
      headers: { "NGSILD-Tenant": String(ctx.workspace.contextBrokerTenant), ...ctx.brokerAuth },
    });
    expect(direct.status).toBe(200);
    expect((await ctx.api("DELETE", path)).status).toBe(204);
  });

  it("creates an entity with a generated id, datasetIds and observedAt, and reads it back with short names", async () => {
    const { api, path } = ctx;
    const created = await api("POST", `${path}/entities`, {
      type: "Building",
      name: { type: "Property", value: "Town hall" },
      temperature: { type: "Property", value: 21.5 },
      sensors: [
        { type: "Property", value: "north" },
        { type: "Property", value: "south", datasetId: "urn:ngsi-ld:Property:s" },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.id).toMatch(/^urn:ngsi-ld:Building:[0-9a-f-]{36}$/);
    expect(created.body.name).toMatchObject({ type: "Property", value: "Town hall" });
    expect(Date.parse(created.body.temperature.observedAt)).not.toBeNaN();
    const datasets = created.body.sensors.map((s: { datasetId: string }) => s.datasetId);
    expect(datasets).toContain("urn:ngsi-ld:Property:s");
    expect(datasets.every((d: string) => d.startsWith("urn:ngsi-ld:Property:"))).toBe(true);
    const read = await api("GET", `${path}/entities/${encodeURIComponent(created.body.id)}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it("answers 400 naming every bad attribute, and 409 when the id exists", async () => {
    const { api, path } = ctx;
    const bad = await api("POST", `${path}/entities`, {
      type: "Building",
      id: "not a uri",
      owner: { type: "Relationship", object: 12 },
      floors: { type: "Nope", value: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["id"]);
    const bad2 = await api("POST", `${path}/entities`, {
      type: "Building",
      owner: { type: "Relationship", object: 12 },
      floors: { type: "Nope", value: 1 },
    });
    expect(bad2.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "floors.type",
      "owner.object",
    ]);
    const id = "urn:ngsi-ld:Building:dup";
    expect((await api("POST", `${path}/entities`, building(id))).status).toBe(201);
    const again = await api("POST", `${path}/entities`, building(id));
    expect(again.status).toBe(409);
    expect(again.body.brokerProblem.type).toBe("https://uri.etsi.org/ngsi-ld/errors/AlreadyExists");
  });

  it("lists a page with a total count, searches by id or name, and keeps workspaces apart (tenants)", async () => {
    const { api } = ctx;
    const own = await ctx.another();
    for (let i = 0; i < 25; i++)
      await api(
        "POST",
        `${own.path}/entities`,
        building(`urn:ngsi-ld:Building:b${String(i).padStart(2, "0")}`),
      );
    const page = await api("GET", `${own.path}/entities?type=Building&limit=10&offset=20&count=true`);
    expect(page.status).toBe(200);
    expect(page.headers["x-total-count"]).toBe("25");
    expect(page.body).toHaveLength(5);
    // The console names the type by its id in the data model: its first page needs no types list.
    const byTypeId = await api(
      "GET",
      `${own.path}/entities?typeId=${encodeURIComponent(own.types.Building!)}&limit=10&offset=20&count=true`,
    );
    expect(byTypeId.headers["x-total-count"]).toBe("25");
    expect(byTypeId.body).toEqual(page.body);
    const unknownType = await api("GET", `${own.path}/entities?typeId=urn:ngsi-ld:Type:nothing`);
    expect(unknownType.status).toBe(404);
    expect(unknownType.body.detail).toContain("urn:ngsi-ld:Type:nothing");
    const byName = await api(
      "GET",
      `${own.path}/entities?type=Building&search=${encodeURIComponent("building B1")}`,
    );
    expect(byName.status, JSON.stringify(byName.body)).toBe(200);
    expect(byName.body.map((e: { id: string }) => e.id).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `urn:ngsi-ld:Building:b1${i}`),
    );
    const byId = await api("GET", `${own.path}/entities?type=Building&search=B07`);
    expect(byId.body.map((e: { id: string }) => e.id)).toEqual(["urn:ngsi-ld:Building:b07"]);
    const other = await ctx.another();
    const empty = await api("GET", `${other.path}/entities?type=Building&count=true`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });

  it("lists the entities of an area (the map's geo-query), counts them, and refuses a partial or broken one with a sentence", async () => {
    const { api } = ctx;
    const own = await ctx.another();
    const at = (n: number, lon: number, lat: number) =>
      building(`urn:ngsi-ld:Building:geo${n}`, {
        location: { type: "GeoProperty", value: { type: "Point", coordinates: [lon, lat] } },
      });
    for (const [n, lon, lat] of [
      [1, 2.35, 48.85],
      [2, 2.3, 48.87],
      [3, 5.37, 43.3],
    ] as const)
      expect((await api("POST", `${own.path}/entities`, at(n, lon, lat))).status).toBe(201);
    const paris = [
      [
        [2.2, 48.8],
        [2.45, 48.8],
        [2.45, 48.92],
        [2.2, 48.92],
        [2.2, 48.8],
      ],
    ];
    const area = new URLSearchParams({
      type: "Building",
      georel: "intersects",
      geometry: "Polygon",
      coordinates: JSON.stringify(paris),
      count: "true",
    });
    const inParis = await api("GET", `${own.path}/entities?${area}`);
    expect(inParis.status, JSON.stringify(inParis.body)).toBe(200);
    expect(inParis.headers["x-total-count"]).toBe("2");
    expect(inParis.body.map((e: { id: string }) => e.id).sort()).toEqual([
      "urn:ngsi-ld:Building:geo1",
      "urn:ngsi-ld:Building:geo2",
    ]);
    const brokenQueries: Array<Record<string, string>> = [
      { georel: "intersects", geometry: "Polygon" },
      { georel: "intersects", geometry: "Polygon", coordinates: ".*+?(|\\" },
      { georel: "within", geometry: "Polygon", coordinates: "{}" },
    ];
    for (const broken of brokenQueries) {
      const r = await api(
        "GET",
        `${own.path}/entities?${new URLSearchParams({ type: "Building", ...broken })}`,
      );
      expect(r.status, JSON.stringify(broken)).toBe(400);
      expect(r.headers["content-type"]).toContain("application/problem+json");
      expect(r.body.detail).toContain("georel, geometry and coordinates");
    }
    // A geometry the broker refuses (an open ring): its 400, not a 500.
    const open = new URLSearchParams({
      type: "Building",
      georel: "within",
      geometry: "Polygon",
      coordinates: "[[[0,0],[1,0],[1,1]]]",
    });
    expect((await api("GET", `${own.path}/entities?${open}`)).status).toBe(400);
  });

  it("lists every entity in name order across pages, those without a name too, as another client made them", async () => {
    const own = await ctx.another();
    const tenant = String(own.workspace.contextBrokerTenant);
    const made = [
      { id: "urn:ngsi-ld:Building:z1", type: "Building", floors: { type: "Property", value: 1 } },
      { id: "urn:ngsi-ld:Building:a1", type: "Building" },
      building("urn:ngsi-ld:Building:10"),
      { ...building("urn:ngsi-ld:Building:n2"), name: { type: "Property", value: "building 2" } },
      { ...building("urn:ngsi-ld:Building:annex"), name: { type: "Property", value: "Annex" } },
      {
        id: "urn:ngsi-ld:Building:chapel",
        type: "Building",
        name: { type: "LanguageProperty", languageMap: { en: "Chapel", fr: "Chapelle" } },
      },
    ];
    // Written straight to the broker, as another client would: no name on two of them.
    const batch = await fetch(`${ctx.base}/ngsi-ld/v1/entityOperations/create`, {
      method: "POST",
      headers: { "NGSILD-Tenant": tenant, "content-type": "application/json", ...ctx.brokerAuth },
      body: JSON.stringify(made),
    });
    expect(batch.status).toBe(201);
    const ids = (body: Array<{ id: string }>) => body.map((e) => e.id.replace("urn:ngsi-ld:Building:", ""));
    const order = ["annex", "n2", "10", "chapel", "a1", "z1"];
    const first = await ctx.api("GET", `${own.path}/entities?type=Building&order=name&limit=4&count=true`);
    expect(first.headers["x-total-count"], JSON.stringify([first.status, first.headers, first.body])).toBe(
      "6",
    );
    expect(first.headers["x-order"]).toBe("name");
    expect(ids(first.body)).toEqual(order.slice(0, 4));
    const second = await ctx.api("GET", `${own.path}/entities?type=Building&order=name&limit=4&offset=4`);
    expect(ids(second.body)).toEqual(order.slice(4));
    expect(second.body[1]).toEqual({ id: "urn:ngsi-ld:Building:z1", type: "Building" });
    // With a query, those without a name are still there.
    const tall = await ctx.api(
      "GET",
      `${own.path}/entities?type=Building&order=name&q=${encodeURIComponent("floors>=1")}`,
    );
    expect(ids(tall.body)).toEqual(["annex", "n2", "10", "z1"]);
    // A search finds them by id.
    const search = await ctx.api("GET", `${own.path}/entities?type=Building&order=name&search=Z1`);
    expect(ids(search.body)).toEqual(["z1"]);
    // Past the limit of a sort, the broker's order, every entity still listed.
    const client = new NgsiLdClient({
      baseUrl: ctx.base,
      implementationName: "embedded",
      tenant,
      bearer: ctx.brokerAuth.authorization.slice("Bearer ".length),
    });
    const large = await pageByName(client, { type: "Building" }, { limit: 10, offset: 0 }, 5);
    expect(large.order).toBe("broker");
    expect(large.count).toBe(6);
    expect(large.entities.map((e) => e.id).sort()).toEqual(made.map((e) => e.id).sort());
  });

  it("keeps a list in name order while the broker's entities stay the same, and reads it again after any write, whoever made it", async () => {
    const own = await ctx.another();
    const tenant = String(own.workspace.contextBrokerTenant);
    const direct = (method: string, path: string, body?: unknown) =>
      fetch(`${ctx.base}/ngsi-ld/v1${path}`, {
        method,
        headers: { "NGSILD-Tenant": tenant, "content-type": "application/json", ...ctx.brokerAuth },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const made = ["c", "a", "b"].map((n) =>
      building(`urn:ngsi-ld:Building:kept-${n}`, { name: { type: "Property", value: `Kept ${n}` } }),
    );
    expect((await direct("POST", "/entityOperations/create", made)).status).toBe(201);
    const page = `${own.path}/entities?type=Building&order=name&limit=10&count=true`;
    const names = async () => {
      const res = await ctx.api("GET", page);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as Array<{ name?: { value: string } }>).map((e) => e.name?.value ?? "");
    };
    expect(await names()).toEqual(["Kept a", "Kept b", "Kept c"]);

    const brokerCallsNow = async () =>
      (await brokerCalls.get()).values
        .filter((v) => v.metricName === "orrery_broker_call_duration_seconds_count")
        .reduce((sum, v) => sum + v.value, 0);
    const before = await brokerCallsNow();
    expect(await names()).toEqual(["Kept a", "Kept b", "Kept c"]);
    expect(await names()).toEqual(["Kept a", "Kept b", "Kept c"]);
    expect(await brokerCallsNow()).toBe(before); // nothing changed: nothing asked of the broker

    // Another client adds one, with a name of hostile bytes: the next page has it.
    const hostile = `.*+?(|\\ "Kept`;
    const added = building("urn:ngsi-ld:Building:kept-d", { name: { type: "Property", value: hostile } });
    expect((await direct("POST", "/entities", added)).status).toBe(201);
    expect(await names()).toEqual([hostile, "Kept a", "Kept b", "Kept c"]);
    // And removes one.
    expect((await direct("DELETE", `/entities/${encodeURIComponent(made[1]!.id)}`)).status).toBe(204);
    expect(await names()).toEqual([hostile, "Kept b", "Kept c"]);
    // A change of an attribute the list shows, through the API this time.
    const renamed = await ctx.api(
      "PUT",
      `${own.path}/entities/${encodeURIComponent(made[0]!.id)}/attrs/name`,
      { type: "Property", value: "Again c" },
    );
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await names()).toEqual([hostile, "Again c", "Kept b"]);
  });

  it("replaces, adds, updates and deletes attributes", async () => {
    const { api, path } = ctx;
    const id = "urn:ngsi-ld:Building:attrs";
    const url = `${path}/entities/${encodeURIComponent(id)}`;
    await api("POST", `${path}/entities`, building(id));
    const added = await api("POST", `${url}/attrs`, {
      open: { type: "Property", value: false },
      owner: { type: "Relationship", object: "urn:ngsi-ld:Person:ada" },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.open.value).toBe(false);
    const clash = await api("POST", `${url}/attrs`, { open: { type: "Property", value: true } });
    expect(clash.status).toBe(409);
    const updated = await api("PUT", `${url}/attrs/floors`, { type: "Property", value: 7 });
    expect(updated.body.floors.value).toBe(7);
    expect(updated.body.open.value).toBe(false);
    const missing = await api("PUT", `${url}/attrs/tags`, { type: "Property", value: [1] });
    expect(missing.status).toBe(404);
    expect((await api("DELETE", `${url}/attrs/open`)).status).toBe(204);
    const replaced = await api("PUT", url, { name: { type: "Property", value: "Only a name" } });
    expect(replaced.status).toBe(200);
    expect(Object.keys(replaced.body).sort()).toEqual(["id", "name", "type"]);
    const noId = await api("PUT", url, { id: "urn:x:y", name: { type: "Property", value: "x" } });
    expect(noId.status).toBe(400);
    expect((await api("DELETE", url)).status).toBe(204);
    const gone = await api("GET", url);
    expect(gone.status).toBe(404);
    expect(gone.body.brokerProblem.type).toBe("https://uri.etsi.org/ngsi-ld/errors/ResourceNotFound");
  });

  it("deletes one value of a multi-valued attribute by datasetId", async () => {
    const { api, path } = ctx;
    const id = "urn:ngsi-ld:Building:multi";
    const url = `${path}/entities/${encodeURIComponent(id)}`;
    await api("POST", `${path}/entities`, {
      ...building(id),
      sensors: [
        { type: "Property", value: "a", datasetId: "urn:ngsi-ld:Property:a" },
        { type: "Property", value: "b", datasetId: "urn:ngsi-ld:Property:b" },
      ],
    });
    const values = async () =>
      [(await api("GET", url)).body.sensors].flat().map((s: { value: string }) => s.value);
    expect((await api("DELETE", `${url}/attrs/sensors?datasetId=urn:ngsi-ld:Property:a`)).status).toBe(204);
    expect(await values()).toEqual(["b"]);
    expect((await api("DELETE", `${url}/attrs/sensors?deleteAll=maybe`)).status).toBe(400);
    // The API gives each value of a multi-valued attribute a datasetId; another client of the broker
    // may write a default value (none): deleteAll=false deletes that one alone.
    const appended = await fetch(`${ctx.base}/ngsi-ld/v1/entities/${encodeURIComponent(id)}/attrs`, {
      method: "POST",
      headers: {
        ...ctx.brokerAuth,
        "content-type": "application/json",
        "ngsild-tenant": String(ctx.workspace.contextBrokerTenant),
      },
      body: JSON.stringify({
        readings: [
          { type: "Property", value: 1, datasetId: "urn:ngsi-ld:Dataset:one" },
          { type: "Property", value: 0 },
        ],
      }),
    });
    expect(appended.status, await appended.text()).toBe(204);
    expect((await api("DELETE", `${url}/attrs/readings?deleteAll=false`)).status).toBe(204);
    expect([(await api("GET", url)).body.readings].flat().map((r: { value: number }) => r.value)).toEqual([
      1,
    ]);
  });

  it("says clearly and quickly which broker is down, with 502", async () => {
    const { api, t } = ctx;
    const broker = (
      await api("POST", "/api/context-brokers", {
        name: "Broker that is down",
        scheme: "http",
        host: "127.0.0.1",
        port: 9,
        paginationMaxLimit: 100,
        implementationName: "orion-ld",
        implementationVersion: "1.8",
      })
    ).body;
    const service = (await api("POST", "/api/services", { name: "Down", hasContextBroker: broker.id })).body;
    const workspace = (
      await api("POST", "/api/workspaces", { name: "Down", dataModelName: "down", hasService: service.id })
    ).body;
    const res = await api("GET", `/api/workspace/${workspace.id}/entities?type=Building`);
    expect(res.status).toBe(502);
    expect(res.body.detail).toContain("Broker that is down");
    expect(t.logs.join("\n")).not.toContain("unexpected error");
  });
});
