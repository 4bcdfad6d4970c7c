import { describe, expect, it } from "vitest";
import { properties, types, whenHolds, workspaces, type KindDefinition } from "../src/index.ts";
import { writeSchema } from "../src/schema.ts";

function check(kind: KindDefinition, input: unknown) {
  const result = writeSchema(kind, "create").safeParse(input);
  return {
    value: result.success ? (result.data as Record<string, unknown>) : undefined,
    paths: result.success ? [] : result.error.issues.map((i) => i.path.join(".")),
  };
}

const urn = (t: string, n = 1) => `urn:ngsi-ld:${t}:00000000-0000-4000-8000-00000000000${n}`;

describe("workspace", () => {
  const ws = { name: "Air", dataModelName: "air-quality", hasService: urn("Service") };
  it("needs name, data model name and service; fills enableOffers", () => {
    expect(check(workspaces, {}).paths.sort()).toEqual(["dataModelName", "hasService", "name"]);
    expect(check(workspaces, ws).value).toEqual({ ...ws, enableOffers: false });
  });
  it("refuses a data model name that is not lowercase letters, digits and -, and a URL that is not http(s)", () => {
    expect(check(workspaces, { ...ws, dataModelName: "Air Quality" }).paths).toEqual(["dataModelName"]);
    expect(check(workspaces, { ...ws, defaultDataModelUrl: "not a url" }).paths).toEqual([
      "defaultDataModelUrl",
    ]);
    expect(check(workspaces, { ...ws, defaultDataModelUrl: "ftp://models.example.org/" }).paths).toEqual([
      "defaultDataModelUrl",
    ]);
    expect(
      check(workspaces, { ...ws, defaultDataModelUrl: "https://models.example.org/air/" }).paths,
    ).toEqual([]);
  });
  it("ignores the server's read-only fields", () => {
    expect(
      check(workspaces, { ...ws, dataModelVersion: 7, dataModelUpToDate: true }).value,
    ).not.toHaveProperty("dataModelVersion");
  });
  it("needs registry and grant with offers, and drops them without", () => {
    expect(check(workspaces, { ...ws, enableOffers: true }).paths).toEqual([
      "hasAuthorizationRegistry",
      "hasAuthorizationRegistryGrant",
    ]);
    const off = check(workspaces, {
      ...ws,
      hasAuthorizationRegistry: urn("AuthorizationRegistry"),
      hasAuthorizationRegistryGrant: urn("AuthorizationRegistryGrant"),
    });
    expect(off.value).not.toHaveProperty("hasAuthorizationRegistry");
  });
  it("needs a grant with an identity manager, and drops the grant without one", () => {
    expect(check(workspaces, { ...ws, hasIdentityManager: urn("IdentityManager") }).paths).toEqual([
      "hasIdentityManagerGrant",
    ]);
    expect(
      check(workspaces, { ...ws, hasIdentityManagerGrant: urn("IdentityManagerGrant") }).value,
    ).not.toHaveProperty("hasIdentityManagerGrant");
  });
  it("drops an empty list of temporal services", () => {
    expect(check(workspaces, { ...ws, temporalServices: [] }).value).not.toHaveProperty("temporalServices");
    expect(check(workspaces, { ...ws, temporalServices: ["x"] }).paths).toEqual(["temporalServices.0"]);
  });
});

describe("type", () => {
  it("names are letters, digits, - and _", () => {
    expect(check(types, { name: "AirQualityObserved" }).paths).toEqual([]);
    expect(check(types, { name: "Air Quality" }).paths).toEqual(["name"]);
  });
  it("a standard-based type needs its definition URL and defaults the standard", () => {
    expect(check(types, { name: "T", standardDataModelBased: true }).paths).toEqual([
      "standardDataModelDefinitionUrl",
    ]);
    const based = check(types, {
      name: "T",
      standardDataModelBased: true,
      standardDataModelDefinitionUrl: "https://x.org/model.yaml",
    });
    expect(based.value).toMatchObject({ standardDataModelType: "smart-data-models" });
    expect(
      check(types, { name: "T", standardDataModelDefinitionUrl: "https://x.org/model.yaml" }).value,
    ).not.toHaveProperty("standardDataModelDefinitionUrl");
  });
  it("refuses an unknown group, and ignores a position sent with the type", () => {
    expect(check(types, { name: "T", dataModelGroup: "vehicles" }).paths).toEqual(["dataModelGroup"]);
    expect(check(types, { name: "T", positionInChart: [1, 2] }).value).not.toHaveProperty("positionInChart");
  });
});

describe("property", () => {
  const base = { name: "temperature", hasType: urn("Type") };
  it("needs the value type of a Property, the target of a Relationship, the geometry of a GeoProperty", () => {
    expect(check(properties, { ...base, ngsiLdType: "Property" }).paths).toEqual(["propertyNgsiLdValueType"]);
    expect(check(properties, { ...base, ngsiLdType: "Relationship" }).paths).toEqual(["relationshipType"]);
    expect(check(properties, { ...base, ngsiLdType: "GeoProperty" }).paths).toEqual([
      "geoPropertyNgsiLdType",
    ]);
  });
  it("changing the NGSI-LD type clears the other kinds' fields; GeoProperty defaults to not geographic", () => {
    const geo = check(properties, {
      ...base,
      ngsiLdType: "GeoProperty",
      geoPropertyNgsiLdType: "Point",
      propertyNgsiLdValueType: "Number",
      relationshipType: urn("Type", 2),
    });
    expect(geo.value).toMatchObject({ geoPropertyNgsiLdType: "Point", geoPropertyGeographic: false });
    expect(geo.value).not.toHaveProperty("propertyNgsiLdValueType");
    expect(geo.value).not.toHaveProperty("relationshipType");
  });
  it("a temporal property needs temporal services; unticking temporal clears them", () => {
    const number = { ...base, ngsiLdType: "Property", propertyNgsiLdValueType: "Number" };
    expect(check(properties, { ...number, temporal: true }).paths).toEqual(["temporalServices"]);
    expect(
      check(properties, { ...number, temporal: false, temporalServices: [urn("TemporalService")] }).value,
    ).not.toHaveProperty("temporalServices");
  });
  it("a property of a property is never temporal nor multi-valued", () => {
    const sub = check(properties, {
      ...base,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "String",
      hasProperty: urn("Property"),
      temporal: true,
      temporalServices: [urn("TemporalService")],
      multiValued: true,
    });
    expect(sub.paths).toEqual([]);
    for (const name of ["temporal", "temporalServices", "multiValued"])
      expect(sub.value).not.toHaveProperty(name);
  });
});

describe("presence conditions", () => {
  it("hold on whether a field is set", () => {
    expect(whenHolds({ a: { present: true } }, { a: "x" })).toBe(true);
    expect(whenHolds({ a: { present: true } }, {})).toBe(false);
    expect(whenHolds({ a: { present: false } }, {})).toBe(true);
  });
});
