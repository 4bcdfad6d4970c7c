import { properties, types } from "@orrery/model";
import type { Entity, NgsiLdClient } from "@orrery/ngsi-ld";
import { listOrEmpty } from "../context-data/broker-access.ts";
import { problem, problemBody, Problem } from "../problems.ts";
import type { Language } from "../messages/say.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Item, Records } from "../resources/records.ts";

/** Entities read per type to infer attribute kinds: discovery samples, it never reads a whole broker. */
const SAMPLE = 200;
const defaultVocabulary = "https://uri.etsi.org/ngsi-ld/default-context/";

/** A name the broker returned: a term of the workspace's context, or an IRI to turn into one. */
function term(name: string): { name: string; url?: string } {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(name) || name.startsWith("urn:")) return { name };
  const local = name.split(/[/#]/).filter(Boolean).pop() ?? name;
  return name.startsWith(defaultVocabulary) ? { name: local } : { name: local, url: name };
}

type Guess = Record<string, unknown> & { name: string };

/** What an attribute's values say about it: Property with a value type, GeoProperty with a geometry, or Relationship with a target. */
function guess(attribute: string, values: unknown[], typeOfUrn: (urn: string) => string | undefined): Guess {
  const first = values.map((v) => (Array.isArray(v) ? v[0] : v)).find((v) => v && typeof v === "object") as
    Record<string, unknown> | undefined;
  const { name, url } = term(attribute);
  const base: Guess = { name, ...(url ? { url } : {}) };
  if (first?.type === "Relationship") {
    const object = typeof first.object === "string" ? first.object : "";
    const target = typeOfUrn(object);
    // A target outside the model is kept by its type's name (urn:ngsi-ld:Device:1 points to a Device).
    const outside = target ? undefined : /^urn:ngsi-ld:([^:]+):/.exec(object)?.[1];
    return {
      ...base,
      ngsiLdType: "Relationship",
      ...(target ? { relationshipType: target } : {}),
      ...(outside ? { relationshipTarget: outside.slice(0, 200) } : {}),
    };
  }
  if (first?.type === "GeoProperty") {
    const geometry = (first.value as { type?: string } | undefined)?.type;
    return { ...base, ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: geometry ?? "Point" };
  }
  const value = first?.value;
  const valueType =
    typeof value === "number"
      ? "Number"
      : typeof value === "boolean"
        ? "Boolean"
        : Array.isArray(value)
          ? "Array"
          : value && typeof value === "object"
            ? "Object"
            : "String";
  return { ...base, ngsiLdType: "Property", propertyNgsiLdValueType: valueType };
}

export interface DiscoveryReport {
  types: string[];
  properties: Array<{ type: string; name: string }>;
  skipped: Array<{ type: string; name: string; reason: string }>;
}

/**
 * Adds to the workspace's model the types and attributes its broker holds and the model lacks,
 * inferring attribute kinds from a sample of entities. Only on an up-to-date model (spec), so what
 * is added is exactly what the broker has beyond the published context.
 */
export async function autoDiscover(
  records: Records,
  hooks: { types: KindHooks; properties: KindHooks },
  workspaceId: string,
  client: NgsiLdClient,
  /** The language of the skipped properties' reasons. */
  language: Language = "en",
): Promise<DiscoveryReport> {
  const workspace = await records.requireWorkspace(workspaceId);
  if (workspace.data.dataModelUpToDate !== true) {
    throw problem(409, "dataModel.outdated");
  }
  const report: DiscoveryReport = { types: [], properties: [], skipped: [] };
  // A tenant nothing was written to yet answers 404 (NonexistentTenant): it holds no type.
  const brokerTypes = await listOrEmpty(() => client.types(), []);
  const known = new Map((await records.list(types, workspaceId)).map((t) => [String(t.name), t]));

  const newTypes = brokerTypes.map((t) => term(t.typeName)).filter((t) => !known.has(t.name));
  const typeInputs: Array<Record<string, unknown>> = [];
  for (const t of newTypes)
    typeInputs.push(
      hooks.types.prepare
        ? await hooks.types.prepare({ ...t, standardDataModelBased: false }, { workspaceId })
        : t,
    );
  for (const created of await records.createMany(types, typeInputs, workspaceId)) {
    known.set(String(created.name), created);
    report.types.push(String(created.name));
  }

  const typeOfUrn = (urn: string) => known.get(urn.split(":")[2] ?? "")?.id;
  const existing = await records.list(properties, workspaceId);
  const propertyInputs: Array<Record<string, unknown>> = [];
  for (const brokerType of brokerTypes) {
    const type = known.get(term(brokerType.typeName).name) as Item;
    const sample: Entity[] = await client.entitiesOfType(brokerType.typeName, SAMPLE);
    const attributes = new Map<string, unknown[]>();
    for (const entity of sample) {
      for (const [key, value] of Object.entries(entity)) {
        if (["id", "type", "@context", "createdAt", "modifiedAt", "scope"].includes(key)) continue;
        attributes.set(key, [...(attributes.get(key) ?? []), value]);
      }
    }
    for (const [attribute, values] of attributes) {
      const proposal = guess(attribute, values, typeOfUrn);
      if (existing.some((p) => p.hasType === type.id && p.name === proposal.name)) continue;
      const input = {
        ...proposal,
        hasType: type.id,
        ...(proposal.ngsiLdType === "Relationship" && !proposal.relationshipType
          ? { relationshipType: type.id }
          : {}),
      };
      try {
        propertyInputs.push(
          hooks.properties.prepare ? await hooks.properties.prepare(input, { workspaceId }) : input,
        );
        report.properties.push({ type: String(type.name), name: proposal.name });
      } catch (err) {
        if (!(err instanceof Problem)) throw err;
        report.skipped.push({
          type: String(type.name),
          name: proposal.name,
          reason: problemBody(err, language).detail ?? err.title,
        });
      }
    }
  }
  await records.createMany(properties, propertyInputs, workspaceId);
  if (report.types.length || report.properties.length) await hooks.properties.changed?.({ workspaceId });
  return report;
}
