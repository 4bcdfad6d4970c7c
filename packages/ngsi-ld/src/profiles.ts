/**
 * What differs between brokers (notes/ngsi-ld.md): page-size caps, whether several values per
 * attribute (datasetId) are kept, the parameter that restricts a query to local data, and where the
 * temporal API lives.
 */
export interface BrokerProfile {
  name: "orion-ld" | "scorpio" | "stellio" | "orrery";
  pageSizeCap: number;
  multiValued: boolean;
  localParameter: "local" | "localOnly";
  temporal: "native" | "mintaka";
  discovery: boolean;
}

export const profiles: Record<BrokerProfile["name"], BrokerProfile> = {
  "orion-ld": {
    name: "orion-ld",
    pageSizeCap: 1000,
    multiValued: false,
    localParameter: "local",
    temporal: "mintaka",
    discovery: true,
  },
  scorpio: {
    name: "scorpio",
    pageSizeCap: 1000,
    multiValued: true,
    localParameter: "localOnly",
    temporal: "native",
    discovery: true,
  },
  stellio: {
    name: "stellio",
    pageSizeCap: 100,
    multiValued: true,
    localParameter: "local",
    temporal: "native",
    discovery: true,
  },
  orrery: {
    name: "orrery",
    pageSizeCap: 1000,
    multiValued: true,
    localParameter: "local",
    temporal: "native",
    discovery: true,
  },
};

export function profileOf(implementationName: string): BrokerProfile {
  return profiles[implementationName as BrokerProfile["name"]] ?? profiles["orion-ld"];
}
