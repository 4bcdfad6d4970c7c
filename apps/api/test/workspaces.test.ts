import { describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { createWorkspace, samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();
const api = (...args: Parameters<typeof ctx.api>) => ctx.api(...args);

const newWorkspace = (patch: Record<string, unknown> = {}) => createWorkspace(api, platformKinds, patch);

const property = (hasType: string, patch: Record<string, unknown> = {}) => ({
  name: "temperature",
  hasType,
  ngsiLdType: "Property",
  propertyNgsiLdValueType: "Number",
  ...patch,
});

describe(`workspaces (${driver})`, () => {
  it("start at data-model version 0, not generated, and ignore read-only fields sent by a client", async () => {
    const { workspace } = await newWorkspace({ dataModelVersion: 9, dataModelUpToDate: true });
    expect(workspace).toMatchObject({ dataModelVersion: 0, dataModelUpToDate: false, enableOffers: false });
    const { id, ...rest } = workspace;
    const updated = await api("PUT", `/api/workspaces/${id}`, {
      ...rest,
      name: "Air 2",
      dataModelVersion: 5,
    });
    expect(updated.body).toMatchObject({ name: "Air 2", dataModelVersion: 0 });
  });

  it("refuse a data model name another workspace uses", async () => {
    const { workspace } = await newWorkspace();
    const res = await api("POST", "/api/workspaces", {
      name: "Twin",
      dataModelName: workspace.dataModelName,
      hasService: workspace.hasService,
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0].path).toBe("dataModelName");
  });

  it("keep a tenant only when the service's broker is multi-tenant", async () => {
    expect((await newWorkspace({ contextBrokerTenant: "city" })).workspace).not.toHaveProperty(
      "contextBrokerTenant",
    );
    const broker = (
      await api("POST", "/api/context-brokers", {
        ...samplePayload("context-brokers", () => ""),
        multiTenancyEnabled: true,
      })
    ).body;
    const service = (await api("POST", "/api/services", { name: "MT", hasContextBroker: broker.id })).body;
    const res = await api("POST", "/api/workspaces", {
      name: "MT",
      dataModelName: "mt-city",
      hasService: service.id,
      contextBrokerTenant: "city",
    });
    expect(res.body.contextBrokerTenant).toBe("city");
  });

  it("answer 404 for the contents of a workspace that does not exist", async () => {
    const res = await api("GET", "/api/workspace/urn:ngsi-ld:Workspace:nope/types");
    expect(res.status).toBe(404);
  });

  it("cannot be deleted while they hold types, and a service used by one cannot be deleted", async () => {
    const { workspace, service } = await newWorkspace();
    await api("POST", `/api/workspace/${workspace.id}/types`, { name: "Thing" });
    expect((await api("DELETE", `/api/workspaces/${workspace.id}`)).body).toMatchObject({
      status: 409,
      detail: expect.stringContaining("“Thing”"),
    });
    expect((await api("DELETE", `/api/services/${service.id}`)).status).toBe(409);
  });
});

describe(`types and properties (${driver})`, () => {
  it("take the workspace's default URL plus their name, and refuse the default URL alone (default_url_error)", async () => {
    const { workspace } = await newWorkspace({ defaultDataModelUrl: "https://models.example.org/air/" });
    const base = `/api/workspace/${workspace.id}`;
    expect((await api("POST", `${base}/types`, { name: "AirQualityObserved" })).body.url).toBe(
      "https://models.example.org/air/AirQualityObserved",
    );
    const refused = await api("POST", `${base}/types`, {
      name: "Other",
      url: "https://models.example.org/air/",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({
      path: "url",
      message: expect.stringContaining("default_url_error"),
    });
  });

  it("give one name one URL across types and properties", async () => {
    const { workspace } = await newWorkspace();
    const base = `/api/workspace/${workspace.id}`;
    const type = (await api("POST", `${base}/types`, { name: "Sensor", url: "https://a.example.org/Sensor" }))
      .body;
    await api(
      "POST",
      `${base}/properties`,
      property(type.id, { name: "name", url: "https://schema.org/name" }),
    );
    const clash = await api(
      "POST",
      `${base}/properties`,
      property(type.id, { name: "name", url: "https://example.org/name" }),
    );
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0].message).toContain("https://schema.org/name");
  });

  it("say the workspace they belong to (hasWorkspace), and take it back only when it is the path's", async () => {
    const a = (await newWorkspace()).workspace;
    const b = (await newWorkspace()).workspace;
    const base = `/api/workspace/${a.id}`;
    const type = await api("POST", `${base}/types`, { name: "Sensor", hasWorkspace: a.id });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    expect(type.body.hasWorkspace).toBe(a.id);
    const read = (await api("GET", `${base}/types/${type.body.id}`)).body;
    expect(read.hasWorkspace).toBe(a.id);
    expect((await api("GET", `${base}/types`)).body).toEqual([read]);
    const prop = (await api("POST", `${base}/properties`, property(type.body.id))).body;
    expect(prop.hasWorkspace).toBe(a.id);
    // A standard REST client: GET, change one field, PUT the whole record back.
    const renamed = await api("PUT", `${base}/types/${type.body.id}`, { ...read, description: "Air sensor" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toEqual({ ...read, description: "Air sensor" });
    const elsewhere = await api("POST", `${base}/types`, { name: "Other", hasWorkspace: b.id });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errors).toEqual([
      expect.objectContaining({ path: "hasWorkspace", code: "field.otherWorkspace" }),
    ]);
    expect((await api("GET", `/api/workspace/${b.id}/types`)).body).toEqual([]);
  });

  it("refer only to types and properties of their own workspace", async () => {
    const a = (await newWorkspace()).workspace;
    const b = (await newWorkspace()).workspace;
    const typeInA = (await api("POST", `/api/workspace/${a.id}/types`, { name: "A" })).body;
    const res = await api("POST", `/api/workspace/${b.id}/properties`, property(typeInA.id));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      path: "hasType",
      message: expect.stringContaining("in this workspace"),
    });
  });

  it("nest sub-properties under a property of the same type, without cycles", async () => {
    const { workspace } = await newWorkspace();
    const base = `/api/workspace/${workspace.id}`;
    const t1 = (await api("POST", `${base}/types`, { name: "T1" })).body;
    const t2 = (await api("POST", `${base}/types`, { name: "T2" })).body;
    const address = (
      await api(
        "POST",
        `${base}/properties`,
        property(t1.id, { name: "address", propertyNgsiLdValueType: "Object" }),
      )
    ).body;
    const street = await api(
      "POST",
      `${base}/properties`,
      property(t1.id, {
        name: "street",
        propertyNgsiLdValueType: "String",
        hasProperty: address.id,
        temporal: true,
      }),
    );
    expect(street.status).toBe(201);
    expect(street.body).not.toHaveProperty("temporal");
    expect(
      (await api("POST", `${base}/properties`, property(t2.id, { name: "x", hasProperty: address.id }))).body
        .errors[0].path,
    ).toBe("hasProperty");
    const { id, ...rest } = address;
    const cycle = await api("PUT", `${base}/properties/${id}`, { ...rest, hasProperty: street.body.id });
    expect(cycle.body.errors[0]).toMatchObject({
      path: "hasProperty",
      message: expect.stringContaining("itself"),
    });
    expect((await api("DELETE", `${base}/properties/${address.id}`)).status).toBe(409);
  });

  it("allow multi-valued properties only on Scorpio or Stellio", async () => {
    const { workspace } = await newWorkspace();
    const type = (await api("POST", `/api/workspace/${workspace.id}/types`, { name: "T" })).body;
    const refused = await api(
      "POST",
      `/api/workspace/${workspace.id}/properties`,
      property(type.id, { multiValued: true }),
    );
    expect(refused.body.errors[0].path).toBe("multiValued");
    const scorpio = (
      await api("POST", "/api/context-brokers", {
        ...samplePayload("context-brokers", () => ""),
        implementationName: "scorpio",
      })
    ).body;
    const service = (await api("POST", "/api/services", { name: "S", hasContextBroker: scorpio.id })).body;
    const ws = (
      await api("POST", "/api/workspaces", {
        name: "Sc",
        dataModelName: "scorpio-model",
        hasService: service.id,
      })
    ).body;
    const t = (await api("POST", `/api/workspace/${ws.id}/types`, { name: "T" })).body;
    expect(
      (await api("POST", `/api/workspace/${ws.id}/properties`, property(t.id, { multiValued: true }))).status,
    ).toBe(201);
  });

  it("refuse to delete a type that has properties or is a relationship target, naming them", async () => {
    const { workspace } = await newWorkspace();
    const base = `/api/workspace/${workspace.id}`;
    const building = (await api("POST", `${base}/types`, { name: "Building" })).body;
    const sensor = (await api("POST", `${base}/types`, { name: "Device" })).body;
    await api("POST", `${base}/properties`, {
      name: "refBuilding",
      hasType: sensor.id,
      ngsiLdType: "Relationship",
      relationshipType: building.id,
    });
    const res = await api("DELETE", `${base}/types/${building.id}`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain("“refBuilding”");
  });

  it("keep temporal services referenced by a temporal property, chosen among the workspace's", async () => {
    const history = (
      await api("POST", "/api/temporal-services", { name: "History", temporalServiceType: "ngsi-ld" })
    ).body;
    const elsewhere = (
      await api("POST", "/api/temporal-services", { name: "Elsewhere", temporalServiceType: "ngsi-ld" })
    ).body;
    const { workspace } = await newWorkspace({ temporalServices: [history.id] });
    const foreign = await api(
      "POST",
      `/api/workspace/${workspace.id}/properties`,
      property((await api("POST", `/api/workspace/${workspace.id}/types`, { name: "U" })).body.id, {
        temporal: true,
        temporalServices: [history.id, elsewhere.id],
      }),
      { "accept-language": "fr" },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      expect.objectContaining({ path: "temporalServices.1", code: "field.notOfWorkspace" }),
    ]);
    expect(foreign.body.errors[0].message).toContain("l’espace de travail");
    const type = (await api("POST", `/api/workspace/${workspace.id}/types`, { name: "T" })).body;
    const p = await api(
      "POST",
      `/api/workspace/${workspace.id}/properties`,
      property(type.id, { temporal: true, temporalServices: [history.id] }),
    );
    expect(p.status).toBe(201);
    expect((await api("DELETE", `/api/temporal-services/${history.id}`)).status).toBe(409);
    const bad = await api(
      "POST",
      `/api/workspace/${workspace.id}/properties`,
      property(type.id, {
        name: "x",
        temporal: true,
        temporalServices: ["urn:ngsi-ld:TemporalService:none"],
      }),
    );
    expect(bad.body.errors[0].path).toBe("temporalServices.0");
  });
});

/** Known SVG/HTML XSS vectors: none may survive in a stored icon. */
const hostile = [
  `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="5"/></svg>`,
  `<svg><script>alert(1)</script><circle r="5"/></svg>`,
  `<svg><a href="javascript:alert(1)"><circle r="5"/></a></svg>`,
  `<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>`,
  `<svg><image href="https://evil.example.org/track.png"/></svg>`,
  `<svg><use xlink:href="https://evil.example.org/sprite.svg#x"/></svg>`,
  `<svg><animate attributeName="href" values="javascript:alert(1)"/></svg>`,
  `<svg><set attributeName="onmouseover" to="alert(1)"/></svg>`,
  `<svg><circle r="5" style="fill:url(https://evil.example.org/x)"/></svg>`,
  `<svg><style>@import url(https://evil.example.org/x.css);</style></svg>`,
  `<svg><circle r="5" onmouseover="alert(1)" onclick="alert(1)"/></svg>`,
  `<img src=x onerror=alert(1)>`,
];

describe(`type icons are sanitised on the server (${driver})`, () => {
  it.each(hostile.map((h) => [h]))("%s", async (icon) => {
    const { workspace } = await newWorkspace();
    const res = await api("POST", `/api/workspace/${workspace.id}/types`, { name: "Icon", icon });
    expect(res.status).toBe(201);
    const stored = String(res.body.icon ?? "");
    expect(stored).not.toMatch(
      /script|onload|onerror|onclick|onmouseover|javascript:|evil\.example|foreignObject|<image|<animate|<set|@import/i,
    );
  });

  it("keeps a harmless icon", async () => {
    const { workspace } = await newWorkspace();
    const icon = `<svg viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><circle cx="5" cy="5" r="4" fill="url(#g)"/></svg>`;
    const res = await api("POST", `/api/workspace/${workspace.id}/types`, { name: "Icon", icon });
    expect(res.body.icon).toContain("<circle");
    expect(res.body.icon).toContain('fill="url(#g)"');
  });
});
