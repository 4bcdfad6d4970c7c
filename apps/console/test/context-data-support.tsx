import { vi } from "vitest";
import type { Permission } from "@orrery/model";
import { admin } from "./support.tsx";

/** One request as the fake API saw it, with its query and its raw body (CSV imports are not JSON). */
export interface RawCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  text: string;
  body: unknown;
}

export interface RawAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body sent as is (ndjson, CSV). */
  raw?: string;
}

export type RawRoutes = Record<string, RawAnswer | ((call: RawCall) => RawAnswer)>;

/**
 * Like support.tsx mockApi, for the context-data screens: routes are "METHOD /path" (without /api
 * and without the query, which the handler reads from call.query), bodies may be text.
 */
export function mockContextApi(routes: RawRoutes, permissions: Permission[] = admin): RawCall[] {
  const calls: RawCall[] = [];
  const table: RawRoutes = {
    "GET /authorization/permissions": { body: permissions },
    "GET /console-config": {
      body: { trustModule: true, authProvider: "dev", googleSheets: null, mapTileUrl: "" },
    },
    ...routes,
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      const text = typeof init.body === "string" ? init.body : "";
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const call: RawCall = {
        method: (init.method ?? "GET").toUpperCase(),
        path: decodeURIComponent(url.pathname.replace(/^\/api/, "")),
        query: url.searchParams,
        headers: { ...(init.headers as Record<string, string>) },
        text,
        body,
      };
      calls.push(call);
      const route = table[`${call.method} ${call.path}`];
      const answer = (typeof route === "function" ? route(call) : route) ?? {
        status: 404,
        body: { title: "Not found", status: 404 },
      };
      const status = answer.status ?? 200;
      return new Response(status === 204 ? null : (answer.raw ?? JSON.stringify(answer.body ?? {})), {
        status,
        headers: { "content-type": "application/json", ...answer.headers },
      });
    }),
  );
  return calls;
}

export const T = {
  building: "urn:ngsi-ld:Type:building",
  shelf: "urn:ngsi-ld:Type:shelf",
  person: "urn:ngsi-ld:Type:person",
};

const p = (id: string, name: string, hasType: string, rest: Record<string, unknown>) => ({
  id: `urn:ngsi-ld:Property:${id}`,
  name,
  hasType,
  ...rest,
});

/** A small data model: Building (every kind of attribute), Shelf (locatedIn a Building), Person. */
export const dataModel = {
  types: [
    { id: T.building, name: "Building" },
    { id: T.shelf, name: "Shelf" },
    { id: T.person, name: "Person" },
  ],
  properties: [
    p("name", "name", T.building, {
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "String",
      mandatory: true,
    }),
    p("height", "height", T.building, { ngsiLdType: "Property", propertyNgsiLdValueType: "Number" }),
    p("open", "open", T.building, { ngsiLdType: "Property", propertyNgsiLdValueType: "Boolean" }),
    p("meta", "meta", T.building, { ngsiLdType: "Property", propertyNgsiLdValueType: "Object" }),
    p("tags", "tags", T.building, { ngsiLdType: "Property", propertyNgsiLdValueType: "Array" }),
    p("location", "location", T.building, { ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: "Point" }),
    p("owner", "owner", T.building, { ngsiLdType: "Relationship", relationshipType: T.person }),
    p("temperature", "temperature", T.building, {
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
      temporal: true,
      temporalServices: ["urn:ngsi-ld:TemporalService:ts1"],
      multiValued: true,
    }),
    p("unit", "unit", T.building, {
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "String",
      hasProperty: "urn:ngsi-ld:Property:temperature",
    }),
    p("shelfName", "name", T.shelf, { ngsiLdType: "Property", propertyNgsiLdValueType: "String" }),
    p("locatedIn", "locatedIn", T.shelf, { ngsiLdType: "Relationship", relationshipType: T.building }),
    p("personName", "name", T.person, { ngsiLdType: "Property", propertyNgsiLdValueType: "String" }),
  ],
};

export const building = {
  id: "urn:ngsi-ld:Building:b1",
  type: "Building",
  name: { type: "Property", value: "Main building" },
  height: { type: "Property", value: 42.5 },
  open: { type: "Property", value: true },
  meta: { type: "Property", value: { floors: 3, architect: "Eiffel" } },
  tags: { type: "Property", value: ["a", "b"] },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [2.35, 48.85] } },
  owner: { type: "Relationship", object: "urn:ngsi-ld:Person:alice" },
  temperature: [
    {
      type: "Property",
      value: 21,
      datasetId: "urn:ngsi-ld:Dataset:north",
      observedAt: "2025-01-31T10:00:00Z",
      unit: { type: "Property", value: "CEL" },
    },
    {
      type: "Property",
      value: 19,
      datasetId: "urn:ngsi-ld:Dataset:south",
      observedAt: "2025-01-31T10:00:00Z",
    },
  ],
  extra: { type: "Property", value: "not in the model" },
};

/** The workspace's data-model routes, and the workspace itself. */
export const modelRoutes: RawRoutes = {
  "GET /workspaces/ws1": { body: { id: "ws1", name: "Alpha", dataModelUpToDate: true } },
  "GET /workspace/ws1/types": { body: dataModel.types },
  "GET /workspace/ws1/properties": { body: dataModel.properties },
};
