import { parse } from "yaml";
import { BodyTooLarge, fetchWithin } from "../peers.ts";
import { problem } from "../problems.ts";
import { hostReach } from "../private-networks.ts";

/** A property offered for import, already in Orrery's terms. */
export interface Candidate {
  name: string;
  description?: string;
  url?: string;
  ngsiLdType: "Property" | "GeoProperty" | "Relationship";
  propertyNgsiLdValueType?: string;
  geoPropertyNgsiLdType?: string;
}

const jsonTypes: Record<string, string> = {
  string: "String",
  number: "Number",
  integer: "Number",
  boolean: "Boolean",
  object: "Object",
  array: "Array",
};
const geometries = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"];

/**
 * Reads a Smart Data Models `model.yaml`: the first entry's properties except id and type, with
 * their description, x-ngsi type and JSON type mapped as the spec says (unknown value type: String;
 * geometry: Point unless the schema names one; the x-ngsi model URL as the property's URL).
 */
export function parseModel(text: string): {
  typeName: string;
  description?: string;
  properties: Candidate[];
} {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw problem(400, "sdm.notYaml", { reason: (err as Error).message });
  }
  const [typeName, entry] = Object.entries((doc ?? {}) as Record<string, any>)[0] ?? [];
  if (!typeName || !entry || typeof entry.properties !== "object") {
    throw problem(400, "sdm.noProperties");
  }
  const properties = Object.entries(entry.properties as Record<string, any>)
    .filter(([name]) => name !== "id" && name !== "type")
    .map(([name, schema]): Candidate => {
      const ngsi = String(schema?.["x-ngsi"]?.type ?? "Property");
      const model = schema?.["x-ngsi"]?.model;
      const base = {
        name,
        ...(typeof schema?.description === "string" && schema.description
          ? { description: schema.description.slice(0, 10_000) }
          : {}),
        ...(typeof model === "string" && /^https?:\/\/\S+$/.test(model) ? { url: model } : {}),
      };
      if (ngsi === "GeoProperty") {
        const named = JSON.stringify(schema ?? {}).match(/"title":"GeoJSON (\w+)"/)?.[1];
        return {
          ...base,
          ngsiLdType: "GeoProperty",
          geoPropertyNgsiLdType: geometries.includes(named ?? "") ? named : "Point",
        };
      }
      if (ngsi === "Relationship") return { ...base, ngsiLdType: "Relationship" };
      return {
        ...base,
        ngsiLdType: "Property",
        propertyNgsiLdValueType: jsonTypes[String(schema?.type)] ?? "String",
      };
    });
  return {
    typeName,
    ...(typeof entry.description === "string" ? { description: entry.description } : {}),
    properties,
  };
}

/**
 * Fetches a model for the browser, which cannot fetch arbitrary hosts reliably: http(s) only, no
 * redirects, a timeout and a size limit, and no address on a private network unless allowed
 * (PROXY_ALLOW_PRIVATE_NETWORKS) so the proxy cannot be used to reach the server's neighbours.
 */
export async function fetchModel(
  url: string,
  options: { allowPrivate: boolean; timeoutMs?: number; maxBytes?: number },
): Promise<string> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw problem(400, "fetch.notAbsolute", { url });
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") throw problem(400, "fetch.scheme");
  if (!options.allowPrivate) {
    const host = target.hostname.replace(/^\[|\]$/g, "");
    const reach = await hostReach(host);
    if (reach === "unresolved") throw problem(502, "fetch.unresolved", { host });
    if (reach === "private") throw problem(400, "fetch.private", { host });
  }
  const max = options.maxBytes ?? 2 * 1024 * 1024;
  let response: Response;
  try {
    response = await fetchWithin(
      target,
      { redirect: "error", headers: { accept: "application/yaml, text/yaml, text/plain, */*" } },
      options.timeoutMs ?? 10_000,
      max,
      "smart-data-models",
    );
  } catch (err) {
    if (err instanceof BodyTooLarge) throw problem(502, "fetch.tooLarge", { max });
    throw problem(502, "fetch.unreachable", { host: target.host, cause: (err as Error).message });
  }
  if (!response.ok)
    throw problem(502, "fetch.status", { host: target.host, status: response.status, path: target.pathname });
  return response.text();
}
