import { embeddedWorkspace, json, type RunningApi } from "./api.ts";

/** A workspace on the process's own embedded broker with a small Building model, generated. */
export async function buildingWorkspace(api: RunningApi, port: string, tenant: string) {
  const post = async (path: string, body: unknown) => json(api.call("POST", path, 201, body));
  const ws = await embeddedWorkspace(api, Number(port), tenant, { tenant, dataModelName: tenant });
  const path = `/api/workspace/${ws}`;
  const type = await post(`${path}/types`, { name: "Building" });
  const properties = [
    { name: "name", ngsiLdType: "Property", propertyNgsiLdValueType: "String" },
    { name: "floors", ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
    { name: "open", ngsiLdType: "Property", propertyNgsiLdValueType: "Boolean" },
    { name: "location", ngsiLdType: "GeoProperty", geoPropertyNgsiLdType: "Point" },
    { name: "owner", ngsiLdType: "Relationship", relationshipType: type.id },
  ];
  for (const p of properties) await post(`${path}/properties`, { ...p, hasType: type.id });
  await api.call("POST", `${path}/data-model/generate`, 200);
  return { path, typeId: type.id as string };
}

const row = (prefix: string, i: number) =>
  [
    `urn:ngsi-ld:Building:${prefix}${i}`,
    "Building",
    `"Building ${i}"`,
    `"${i % 40},5"`,
    i % 2 ? "true" : "false",
    `"{""type"":""Point"",""coordinates"":[${(i % 360) - 180},${(i % 170) - 85}]}"`,
    `urn:ngsi-ld:Building:${prefix}0`,
  ].join(",");
/** A CSV of n buildings, ids `urn:ngsi-ld:Building:{prefix}{i}`, in the columns of buildingWorkspace's model. */
export const buildingsCsv = (prefix: string, n: number) =>
  ["id,type,name,floors,open,location,owner", ...Array.from({ length: n }, (_, i) => row(prefix, i))].join(
    "\r\n",
  );
