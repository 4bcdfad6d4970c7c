import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/fakes/browser.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

let t: TestApp;
let api: ReturnType<typeof client>;
let base: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: base });
  await t.app.listen({ port, host: "127.0.0.1" });
  api = client(t, await t.tokenFor("admin"));
});
afterAll(() => t?.close());

const entities = [
  {
    id: "urn:ngsi-ld:Building:townhall",
    type: "Building",
    name: { type: "Property", value: "Town hall" },
    floors: { type: "Property", value: 5 },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [2.3522, 48.8566] } },
  },
  {
    id: "urn:ngsi-ld:Sensor:s1",
    type: "Sensor",
    temperature: { type: "Property", value: 21.5 },
    refBuilding: { type: "Relationship", object: "urn:ngsi-ld:Building:townhall" },
    // A device no entity of the broker stands for: its type is outside the model.
    refDevice: { type: "Relationship", object: "urn:ngsi-ld:Device:d1" },
    "https://schema.org/serialNumber": { type: "Property", value: "X1" },
  },
];

async function workspaceOnEmbeddedBroker(tenant?: string) {
  const url = new URL(base);
  const broker = (
    await api("POST", "/api/context-brokers", {
      name: "Embedded",
      scheme: "http",
      host: url.hostname,
      port: Number(url.port),
      paginationMaxLimit: 1000,
      implementationName: "orion-ld",
      implementationVersion: "1.8",
      ...(tenant ? { multiTenancyEnabled: true } : {}),
    })
  ).body;
  const service = (
    await api("POST", "/api/services", { name: "Embedded service", hasContextBroker: broker.id })
  ).body;
  const workspace = (
    await api("POST", "/api/workspaces", {
      name: "City",
      dataModelName: `city-${Math.random().toString(36).slice(2, 8)}`,
      hasService: service.id,
      ...(tenant ? { contextBrokerTenant: tenant } : {}),
    })
  ).body;
  return { workspace, path: `/api/workspace/${workspace.id}` };
}

describe(`auto-discover against the embedded broker over HTTP (${driver})`, () => {
  it("is refused while the data model is outdated", async () => {
    const { path } = await workspaceOnEmbeddedBroker();
    const res = await api("POST", `${path}/data-model/auto-discover`);
    expect(res.body).toMatchObject({ status: 409, code: "dataModel.outdated" });
  });

  it("adds the types and attributes created directly in the broker, with their kinds inferred, once", async () => {
    for (const entity of entities) {
      // Written by another client of the broker, with a credential of its own.
      const res = await fetch(`${base}/ngsi-ld/v1/entities`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await t.tokenFor("admin")}` },
        body: JSON.stringify(entity),
      });
      expect(res.status, await res.text()).toBe(201);
    }
    const { workspace, path } = await workspaceOnEmbeddedBroker();
    await api("POST", `${path}/data-model/generate`);
    const report = await api("POST", `${path}/data-model/auto-discover`);
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.types.sort()).toEqual(["Building", "Sensor"]);
    expect(report.body.skipped).toEqual([]);

    const types = Object.fromEntries(
      (await api("GET", `${path}/types`)).body.map((t: { name: string; id: string }) => [t.name, t.id]),
    );
    const props = Object.fromEntries(
      (await api("GET", `${path}/properties`)).body.map((p: { name: string }) => [p.name, p]),
    );
    expect(props.name).toMatchObject({
      hasType: types.Building,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "String",
    });
    expect(props.floors).toMatchObject({ propertyNgsiLdValueType: "Number" });
    expect(props.location).toMatchObject({ ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: "Point" });
    expect(props.temperature).toMatchObject({ hasType: types.Sensor, propertyNgsiLdValueType: "Number" });
    expect(props.refBuilding).toMatchObject({ ngsiLdType: "Relationship", relationshipType: types.Building });
    expect(props.refBuilding).not.toHaveProperty("relationshipTarget");
    // A relationship leaving the model says where to (the chart draws it leaving, not as a loop).
    expect(props.refDevice).toMatchObject({ relationshipType: types.Sensor, relationshipTarget: "Device" });
    expect(props.serialNumber).toMatchObject({ url: "https://schema.org/serialNumber" });
    expect((await api("GET", `/api/workspaces/${workspace.id}`)).body.dataModelUpToDate).toBe(false);

    await api("POST", `${path}/data-model/generate`);
    const again = await api("POST", `${path}/data-model/auto-discover`);
    expect(again.body).toEqual({ types: [], properties: [], skipped: [] });
  });

  it("finds nothing, without an error, on a tenant that holds no entity yet", async () => {
    const { path } = await workspaceOnEmbeddedBroker(`empty${Math.random().toString(36).slice(2, 8)}`);
    await api("POST", `${path}/data-model/generate`);
    const report = await api("POST", `${path}/data-model/auto-discover`);
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body).toEqual({ types: [], properties: [], skipped: [] });
  });

  it("names the broker quickly when it cannot be reached", async () => {
    const broker = (
      await api("POST", "/api/context-brokers", {
        name: "Gone",
        scheme: "http",
        host: "127.0.0.1",
        port: 9,
        paginationMaxLimit: 100,
        implementationName: "scorpio",
        implementationVersion: "5",
      })
    ).body;
    const service = (
      await api("POST", "/api/services", { name: "Gone service", hasContextBroker: broker.id })
    ).body;
    const workspace = (
      await api("POST", "/api/workspaces", { name: "Gone", dataModelName: "gone", hasService: service.id })
    ).body;
    await api("POST", `/api/workspace/${workspace.id}/data-model/generate`);
    const res = await api("POST", `/api/workspace/${workspace.id}/data-model/auto-discover`);
    expect(res.body).toMatchObject({ status: 502, detail: expect.stringContaining("Gone") });
  });
});
