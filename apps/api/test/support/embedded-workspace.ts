import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../../../test/fakes/browser.ts";
import { client, startTestApp, type TestApp } from "./harness.ts";

type Api = ReturnType<typeof client>;

/** Fields of a property of the test data model, by name. */
const model: Record<string, Record<string, Record<string, unknown>>> = {
  Person: { name: { ngsiLdType: "Property", propertyNgsiLdValueType: "String" } },
  Building: {
    name: { ngsiLdType: "Property", propertyNgsiLdValueType: "String" },
    floors: { ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
    open: { ngsiLdType: "Property", propertyNgsiLdValueType: "Boolean" },
    address: { ngsiLdType: "Property", propertyNgsiLdValueType: "Object" },
    tags: { ngsiLdType: "Property", propertyNgsiLdValueType: "Array" },
    location: { ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: "Point" },
    owner: { ngsiLdType: "Relationship", relationshipType: "Person" },
    temperature: { ngsiLdType: "Property", propertyNgsiLdValueType: "Number", temporal: true },
    sensors: { ngsiLdType: "Property", propertyNgsiLdValueType: "String", multiValued: true },
  },
};

export interface EmbeddedWorkspace {
  t: TestApp;
  api: Api;
  base: string;
  workspace: { id: string; [k: string]: unknown };
  /** `/api/workspace/{id}` */
  path: string;
  types: Record<string, string>;
  properties: Record<string, string>;
  temporalServiceId: string;
  /** The embedded broker's record and the service on it that `another()` uses unless told. */
  brokerId: string;
  serviceId: string;
  /** The credential of another client of the embedded broker (an operator's token), for calls to /ngsi-ld/v1. */
  brokerAuth: { authorization: string };
  /**
   * A fresh workspace with its own tenant and the same data model, generated; `fields` are added to
   * the workspace (another service on the embedded broker, an authorization registry...).
   */
  another(
    fields?: Record<string, unknown>,
  ): Promise<
    Omit<EmbeddedWorkspace, "t" | "api" | "base" | "brokerAuth" | "another" | "brokerId" | "serviceId">
  >;
}

/**
 * An API listening on a real port whose workspaces live on the embedded broker of the same process
 * (each on its own tenant), with a generated data model: Person, and Building with one property of
 * every kind (temporal temperature, multi-valued sensors, owner relationship to Person).
 */
export function useEmbeddedWorkspace(env: Record<string, string> = {}): EmbeddedWorkspace {
  const ctx = {} as EmbeddedWorkspace;
  beforeAll(async () => {
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    ctx.t = await startTestApp({ PORT: String(port), PUBLIC_URL: ctx.base, ...env });
    await ctx.t.app.listen({ port, host: "127.0.0.1" });
    ctx.api = client(ctx.t, await ctx.t.tokenFor("admin"));
    ctx.brokerAuth = { authorization: `Bearer ${await ctx.t.tokenFor("operator")}` };
    const api = ctx.api;
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const broker = await ok("POST", "/api/context-brokers", {
      name: "Embedded",
      scheme: "http",
      host: "127.0.0.1",
      port,
      multiTenancyEnabled: true,
      paginationMaxLimit: 1000,
      implementationName: "orrery",
      implementationVersion: "0.1",
    });
    const service = await ok("POST", "/api/services", {
      name: "Embedded service",
      hasContextBroker: broker.id,
    });
    const temporal = await ok("POST", "/api/temporal-services", {
      name: "Embedded temporal",
      temporalServiceType: "ngsi-ld",
    });
    ctx.temporalServiceId = temporal.id;
    ctx.brokerId = broker.id;
    ctx.serviceId = service.id;
    let count = 0;
    ctx.another = async (fields = {}) => {
      const suffix = `${Date.now().toString(36)}${(count++).toString(36)}`;
      const workspace = await ok("POST", "/api/workspaces", {
        name: `Workspace ${suffix}`,
        dataModelName: `model-${suffix}`,
        hasService: service.id,
        contextBrokerTenant: `tenant${suffix}`,
        temporalServices: [temporal.id],
        ...fields,
      });
      const path = `/api/workspace/${workspace.id}`;
      const types: Record<string, string> = {};
      const properties: Record<string, string> = {};
      for (const [typeName, props] of Object.entries(model)) {
        types[typeName] = (await ok("POST", `${path}/types`, { name: typeName })).id;
        for (const [name, fields] of Object.entries(props)) {
          const relationshipType = fields.relationshipType
            ? types[String(fields.relationshipType)]
            : undefined;
          const created = await ok("POST", `${path}/properties`, {
            name,
            hasType: types[typeName],
            ...fields,
            ...(relationshipType ? { relationshipType } : {}),
            ...(fields.temporal ? { temporalServices: [temporal.id] } : {}),
          });
          properties[`${typeName}.${name}`] = created.id;
        }
      }
      await ok("POST", `${path}/data-model/generate`);
      return {
        workspace: await ok("GET", `/api/workspaces/${workspace.id}`),
        path,
        types,
        properties,
        temporalServiceId: temporal.id,
      };
    };
    Object.assign(ctx, await ctx.another());
  });
  afterAll(() => ctx.t?.close());
  return ctx;
}
