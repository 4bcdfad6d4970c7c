import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { startFakeSmartDataModels } from "../../../test/fakes/smart-data-models.ts";
import { createWorkspace } from "../../../test/samples/platform.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

let t: TestApp;
let api: ReturnType<typeof client>;
let host: Awaited<ReturnType<typeof startFakeSmartDataModels>>;
beforeAll(async () => {
  host = await startFakeSmartDataModels();
  t = await startTestApp({ PROXY_ALLOW_PRIVATE_NETWORKS: "true" });
  api = client(t, await t.tokenFor("admin"));
});
afterAll(async () => {
  await t?.close();
  await host?.close();
});

async function typeInWorkspace() {
  const { workspace } = await createWorkspace(api, platformKinds);
  const type = (await api("POST", `/api/workspace/${workspace.id}/types`, { name: "AirQualityObserved" }))
    .body;
  return { workspace, type, base: `/api/workspace/${workspace.id}` };
}

describe(`Smart Data Models import (${driver})`, () => {
  it("reads a model through the proxy: properties except id and type, with mapped types", async () => {
    const res = await api(
      "GET",
      `/api/proxies/smart-data-models?url=${encodeURIComponent(`${host.url}/AirQualityObserved/model.yaml`)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.typeName).toBe("AirQualityObserved");
    const byName = Object.fromEntries(res.body.properties.map((p: { name: string }) => [p.name, p]));
    expect(byName).not.toHaveProperty("id");
    expect(byName).not.toHaveProperty("type");
    expect(byName.address).toMatchObject({
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Object",
      url: "https://schema.org/address",
    });
    expect(byName.airQualityIndex).toMatchObject({
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    });
    expect(byName.location).toMatchObject({ ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: "Point" });
    expect(byName.refPointOfInterest).toMatchObject({ ngsiLdType: "Relationship" });
  });

  it("refuses what the proxy must not fetch, with clear errors", async () => {
    const get = (url: string) => api("GET", `/api/proxies/smart-data-models?url=${encodeURIComponent(url)}`);
    expect((await get("file:///etc/passwd")).status).toBe(400);
    expect((await get(`${host.url}/missing/model.yaml`)).body).toMatchObject({
      status: 502,
      detail: expect.stringContaining("404"),
    });
    expect((await get(`${host.url}/huge.yaml`)).body.detail).toContain("larger than");
    expect((await get(`${host.url}/redirect.yaml`)).status).toBe(502);
    const guarded = await startTestApp();
    const res = await client(guarded, await guarded.tokenFor("admin"))(
      "GET",
      `/api/proxies/smart-data-models?url=${encodeURIComponent(`${host.url}/AirQualityObserved/model.yaml`)}`,
    );
    await guarded.close();
    expect(res.body).toMatchObject({ status: 400, code: "fetch.private" });
  });

  it("imports the chosen properties in one go, with the spec's defaults, and marks the model outdated", async () => {
    const { workspace, type, base } = await typeInWorkspace();
    const model = (
      await api(
        "GET",
        `/api/proxies/smart-data-models?url=${encodeURIComponent(`${host.url}/AirQualityObserved/model.yaml`)}`,
      )
    ).body;
    const chosen = model.properties.filter((p: { name: string }) =>
      ["no2", "location", "refPointOfInterest", "address"].includes(p.name),
    );
    const res = await api("POST", `${base}/properties/import`, { typeId: type.id, properties: chosen });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.created.map((c: { name: string }) => c.name).sort()).toEqual([
      "address",
      "location",
      "no2",
      "refPointOfInterest",
    ]);
    const stored = (await api("GET", `${base}/properties`)).body;
    // No PointOfInterest in the model: the relationship leaves it toward the type its name announces
    // (the chart draws it leaving, not as a loop on its own type).
    expect(stored.find((p: { name: string }) => p.name === "refPointOfInterest")).toMatchObject({
      relationshipType: type.id,
      relationshipTarget: "PointOfInterest",
      standard: true,
      mandatory: false,
    });
    expect(stored.find((p: { name: string }) => p.name === "location")).toMatchObject({
      geoPropertyNgsiLdType: "Point",
      geoPropertyGeographic: false,
    });
    expect((await api("GET", `/api/workspaces/${workspace.id}`)).body.dataModelUpToDate).toBe(false);
  });

  it("points an imported relationship at the model's type it names", async () => {
    const { type, base } = await typeInWorkspace();
    const poi = (await api("POST", `${base}/types`, { name: "PointOfInterest" })).body;
    const res = await api("POST", `${base}/properties/import`, {
      typeId: type.id,
      properties: [{ name: "refPointOfInterest", ngsiLdType: "Relationship" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = (await api("GET", `${base}/properties`)).body;
    const imported = stored.find((p: { name: string }) => p.name === "refPointOfInterest");
    expect(imported.relationshipType).toBe(poi.id);
    expect(imported.relationshipTarget).toBeUndefined();
  });

  it("imports nothing when one property is refused, and says which and why", async () => {
    const { type, base } = await typeInWorkspace();
    await api("POST", `${base}/properties`, {
      name: "NO2",
      hasType: type.id,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    });
    const res = await api("POST", `${base}/properties/import`, {
      typeId: type.id,
      properties: [
        { name: "O3", ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
        { name: "NO2", ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
        { name: "bad name", ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "properties.1.name",
      "properties.2.name",
    ]);
    expect((await api("GET", `${base}/properties`)).body.map((p: { name: string }) => p.name)).toEqual([
      "NO2",
    ]);
  });
});
