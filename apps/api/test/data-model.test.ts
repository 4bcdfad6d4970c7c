import { readFileSync } from "node:fs";
import { join } from "node:path";
import jsonld from "jsonld";
import { describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { createWorkspace } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();
const api = (...args: Parameters<typeof ctx.api>) => ctx.api(...args);

async function modelledWorkspace() {
  const { workspace } = await createWorkspace(api, platformKinds, {
    defaultDataModelUrl: "https://models.example.org/air/",
  });
  const base = `/api/workspace/${workspace.id}`;
  const station = (await api("POST", `${base}/types`, { name: "Station", dataModelGroup: "infrastructure" }))
    .body;
  const observed = (
    await api("POST", `${base}/types`, {
      name: "AirQualityObserved",
      url: "https://smartdatamodels.org/dataModel.Environment/AirQualityObserved",
    })
  ).body;
  await api("POST", `${base}/properties`, {
    name: "NO2",
    hasType: observed.id,
    ngsiLdType: "Property",
    propertyNgsiLdValueType: "Number",
    url: "https://smartdatamodels.org/dataModel.Environment/NO2",
  });
  await api("POST", `${base}/properties`, {
    name: "refStation",
    hasType: observed.id,
    ngsiLdType: "Relationship",
    relationshipType: station.id,
  });
  return { workspace, base, station, observed };
}

describe(`data-model generation (${driver})`, () => {
  it("bumps the version, marks the model up to date, and serves every version's context", async () => {
    const { workspace, base } = await modelledWorkspace();
    expect((await api("GET", `/api/workspaces/${workspace.id}`)).body.dataModelUpToDate).toBe(false);
    const first = await api("POST", `${base}/data-model/generate`);
    expect(first.body).toEqual({
      dataModelVersion: 1,
      contextUrl: `${ctx.t.config.dataModelsUrl}/${workspace.dataModelName}/1/context.jsonld`,
    });
    expect((await api("GET", `/api/workspaces/${workspace.id}`)).body).toMatchObject({
      dataModelVersion: 1,
      dataModelUpToDate: true,
    });

    await api("POST", `${base}/types`, { name: "Extra" });
    expect((await api("GET", `/api/workspaces/${workspace.id}`)).body.dataModelUpToDate).toBe(false);
    expect((await api("POST", `${base}/data-model/generate`)).body.dataModelVersion).toBe(2);

    for (const version of [1, 2]) {
      const res = await ctx.t.app.inject({
        method: "GET",
        url: `/data-models/${workspace.dataModelName}/${version}/context.jsonld`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/ld\+json/);
      expect(res.headers["cache-control"]).toContain("immutable");
      expect(Object.keys(JSON.parse(res.body)["@context"])).toEqual(
        version === 1
          ? ["AirQualityObserved", "NO2", "refStation", "Station"]
          : ["AirQualityObserved", "Extra", "NO2", "refStation", "Station"],
      );
    }
    const perType = await ctx.t.app.inject({
      method: "GET",
      url: `/data-models/${workspace.dataModelName}/1/AirQualityObserved/context.jsonld`,
    });
    expect(JSON.parse(perType.body)["@context"]).toEqual({
      AirQualityObserved: "https://smartdatamodels.org/dataModel.Environment/AirQualityObserved",
      NO2: "https://smartdatamodels.org/dataModel.Environment/NO2",
      refStation: "https://models.example.org/air/refStation",
    });
    expect(
      (
        await ctx.t.app.inject({
          method: "GET",
          url: `/data-models/${workspace.dataModelName}/9/context.jsonld`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it("publishes a context that, fetched over HTTP, expands an entity's names to the type and property URLs", async () => {
    const { base } = await modelledWorkspace();
    const { contextUrl } = (await api("POST", `${base}/data-model/generate`)).body;
    const address = await ctx.t.app.listen({ port: 0, host: "127.0.0.1" });
    const url = contextUrl.replace(ctx.t.config.dataModelsUrl, `${address}/data-models`);
    // As a broker does: the user context, then the NGSI-LD core context (from the project's copy).
    const core = JSON.parse(
      readFileSync(
        join(import.meta.dirname, "../../../packages/broker/contexts/core-context-v1.8.jsonld"),
        "utf8",
      ),
    );
    const coreUrl = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
    const loader = async (u: string) => ({
      contextUrl: undefined,
      documentUrl: u,
      document: u === coreUrl ? core : await (await fetch(u)).json(),
    });
    const expanded = await jsonld.expand(
      {
        "@context": [url, coreUrl],
        id: "urn:ngsi-ld:AirQualityObserved:1",
        type: "AirQualityObserved",
        NO2: { type: "Property", value: 22 },
        refStation: { type: "Relationship", object: "urn:ngsi-ld:Station:1" },
      },
      { documentLoader: loader as never },
    );
    const entity = expanded[0] as Record<string, unknown>;
    expect(entity["@type"]).toEqual(["https://smartdatamodels.org/dataModel.Environment/AirQualityObserved"]);
    expect(Object.keys(entity)).toEqual(
      expect.arrayContaining([
        "https://smartdatamodels.org/dataModel.Environment/NO2",
        "https://models.example.org/air/refStation",
      ]),
    );
  });

  it("saves a node's chart position without making the model outdated", async () => {
    const { workspace, base, station } = await modelledWorkspace();
    await api("POST", `${base}/data-model/generate`);
    const res = await api("PUT", `${base}/types/${station.id}/position-in-chart`, [120.5, -40]);
    expect(res.body).toEqual({ positionInChart: [120.5, -40] });
    expect((await api("GET", `${base}/types/${station.id}`)).body.positionInChart).toEqual([120.5, -40]);
    expect((await api("GET", `/api/workspaces/${workspace.id}`)).body.dataModelUpToDate).toBe(true);
    const { id, ...rest } = (await api("GET", `${base}/types/${station.id}`)).body;
    expect(
      (await api("PUT", `${base}/types/${id}`, { ...rest, description: "kept position" })).body
        .positionInChart,
    ).toEqual([120.5, -40]);
    expect((await api("PUT", `${base}/types/${station.id}/position-in-chart`, [1])).status).toBe(400);
  });

  it("refuses generation to a viewer and for an unknown workspace", async () => {
    const viewer = await ctx.t.tokenFor("viewer");
    const { base } = await modelledWorkspace();
    const res = await ctx.t.app.inject({
      method: "POST",
      url: `${base}/data-model/generate`,
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(res.statusCode).toBe(403);
    expect((await api("POST", "/api/workspace/urn:ngsi-ld:Workspace:none/data-model/generate")).status).toBe(
      404,
    );
  });
});
