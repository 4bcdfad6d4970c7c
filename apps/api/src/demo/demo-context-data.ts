import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  contextBrokers,
  identityManagerGrants,
  identityManagers,
  roleNameOf,
  services,
  temporalServices,
} from "@orrery/model";
import { NgsiLdClient, type Entity } from "@orrery/ngsi-ld";
import type { Sessions } from "../auth/sessions.ts";
import type { Config } from "../config.ts";
import type { Records } from "../resources/records.ts";
import type { Database } from "../storage/database.ts";
import { settings } from "../storage/schema.ts";
import { ownBrokerBearer } from "../pep/internal.ts";
import { DEV_DIRECTORY } from "./demo-data.ts";

const MARK = "demo-context-data-loaded";
const dataDir = resolve(import.meta.dirname, "../../demo");

/** The demo workspaces: entities copied from public tutorials and Smart Data Models (demo/SOURCES.md). */
const demoWorkspaces = [
  {
    name: "Supermarket",
    description:
      "Stores, shelves, products and a stock order (FIWARE Relationships and Linked Data tutorial).",
    dataModelName: "supermarket",
    tenant: "supermarket",
    files: ["supermarket.json"],
    temporal: { type: "Shelf", attribute: "numberOfItems" },
    thing: {
      name: "Smart shelf",
      description: "A shelf unit that reports its stock and can be restocked.",
      type: "Shelf",
      properties: [
        { name: "stock", property: "numberOfItems", capacityType: "Range", capacityValue: "[0, 100]" },
        { name: "label", property: "name", capacityType: "FreeText", capacityValue: "any" },
      ],
      action: {
        name: "restock",
        description: "Set the number of items on the shelf after a delivery.",
        inputs: [{ name: "numberOfItems", propertyType: "number", minimum: 0, maximum: 100, required: true }],
      },
      event: {
        name: "stockChanged",
        dataService: "Shelf stock levels",
        property: "stock",
        capacityValue: "[0, 100]",
      },
      routing: {
        name: "Night restock",
        description: "Restock to half, then to full, with a pause between.",
        operations: [
          { sequenceNumber: 1, timerBefore: 0, timerAfter: 60, control: "50" },
          { sequenceNumber: 2, timerBefore: 0, timerAfter: 0, control: "100" },
        ],
      },
    },
    contract: {
      stakeholderDid: "did:web:freshfoods.example.org",
      stakeholderName: "Fresh Foods Logistics",
      verifiableCredentialType: "LogisticsPartnerCredential",
      scopeNames: { Building: "store", Shelf: "shelf", StockOrder: "stock-order" },
      scope: { type: "Building", entity: "urn:ngsi-ld:Building:store001" },
      details: [
        {
          role: "Logistics partner",
          roleScopeName: "freshfoods-store001-shelf001",
          scope: { type: "Shelf", entity: "urn:ngsi-ld:Shelf:unit001" },
        },
        { role: "Stock analyst", roleScopeName: "freshfoods-stock-analyst" },
      ],
    },
    dataServices: [
      {
        name: "Shelf stock levels",
        type: "Shelf",
        properties: ["name", "numberOfItems", "maxCapacity"],
        actions: ["GET", "POST:Notification"],
        isOffer: true,
        offer: {
          description: "Live stock levels of every shelf",
          url: "https://marketplace.example.org/offers/shelf-stock",
        },
        role: "Stock analyst",
      },
      {
        name: "Restocking orders",
        type: "StockOrder",
        properties: ["orderedProduct", "stockCount", "requestedFor"],
        actions: ["GET", "POST", "PATCH"],
        isDemand: true,
        isOffer: true,
        role: "Logistics partner",
      },
      {
        name: "Product catalogue",
        type: "Product",
        properties: ["name", "price"],
        actions: ["GET"],
        isDemand: true,
      },
    ],
  },
  {
    name: "Farm",
    description: "Buildings, people and sensors of a farm (FIWARE Entity Relationships tutorial).",
    dataModelName: "farm",
    tenant: "farm",
    files: ["farm.json"],
    temporal: { type: "Building", attribute: "temperature" },
  },
  {
    name: "Smart city",
    description: "Smart Data Models examples: a streetlight, an air quality observation and a building.",
    dataModelName: "smart-city",
    tenant: "smartcity",
    files: ["sdm-Streetlight.json", "sdm-AirQualityObserved.json", "sdm-Building.json"],
    temporal: { type: "AirQualityObserved", attribute: "temperature" },
  },
];

function entitiesOf(file: string): Entity[] {
  const parsed = JSON.parse(readFileSync(resolve(dataDir, file), "utf8")) as Entity | Entity[];
  // The examples name remote contexts; nothing is fetched at run time, so they load with the core context.
  return [parsed].flat().map(({ "@context": _dropped, ...entity }) => entity as Entity);
}

/**
 * Context data for the demo, on first start after the platform demo: one workspace per data set on
 * the embedded broker (each on its own tenant), entities loaded, the data model auto-discovered and
 * generated, one temporal property with an hour of history. Done through the public API over HTTP,
 * as a user would, with a short-lived session; once only.
 */
export async function loadDemoContextData(
  db: Database,
  records: Records,
  sessions: Sessions,
  config: Config,
  log: FastifyBaseLogger,
): Promise<boolean> {
  const [done] = await db.select().from(settings).where(eq(settings.key, MARK));
  if (done) return false;
  const broker = (await records.list(contextBrokers)).find((b) => b.implementationName === "orrery");
  const service = (await records.list(services)).find(
    (s) => s.hasContextBroker === broker?.id && s.authorizationRequired !== true,
  );
  const temporal = (await records.list(temporalServices)).find((t) => t.temporalServiceType === "ngsi-ld");
  if (!broker || !service || !temporal) {
    log.info("demo context data skipped: the embedded broker's demo service is gone");
    return false;
  }
  const { token } = await sessions.create({
    subject: "orrery-demo-loader",
    username: "demo loader",
    provider: "system",
    permissions: ["GET", "POST", "PUT", "DELETE"].map((action) => ({ action, resource: "^/api/.*" })),
    expiresAt: new Date(Date.now() + 10 * 60_000),
  });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${config.publicUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const result = (await response.json().catch(() => ({}))) as any;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${result.detail ?? ""}`);
    return result;
  };

  // The development identity manager, for the users panel, while its records are still there.
  const [wired] = await db.select().from(settings).where(eq(settings.key, DEV_DIRECTORY));
  const directory = wired ? (JSON.parse(wired.value) as Record<string, string>) : {};
  const platform = await Promise.all([
    records.find(identityManagers, String(directory.hasIdentityManager)),
    records.find(identityManagerGrants, String(directory.hasIdentityManagerGrant)),
  ]);
  if (platform.includes(undefined)) for (const key of Object.keys(directory)) delete directory[key];

  for (const demo of demoWorkspaces) {
    const workspace = await api("POST", "/api/workspaces", {
      name: demo.name,
      description: demo.description,
      dataModelName: demo.dataModelName,
      hasService: service.id,
      contextBrokerTenant: demo.tenant,
      temporalServices: [temporal.id],
      ...directory,
    });
    const path = `/api/workspace/${workspace.id}`;
    const client = new NgsiLdClient({
      baseUrl: config.publicUrl,
      implementationName: "orrery",
      bearer: ownBrokerBearer(config.publicUrl),
      tenant: demo.tenant,
      label: String(broker.name),
    });
    const entities = demo.files.flatMap(entitiesOf);
    // The history's first value is the file's, dated before the series below (an undated one has no place in it).
    for (const e of entities) {
      const first =
        e.type === demo.temporal.type ? (e[demo.temporal.attribute] as Record<string, unknown>) : undefined;
      if (first && typeof first === "object" && !Array.isArray(first) && !first.observedAt)
        first.observedAt = new Date(Date.now() - 65 * 60_000).toISOString();
    }
    const result = await client.batchUpsert(entities);
    if (result.errors.length)
      log.warn({ errors: result.errors.map((e) => e.entityId) }, "some demo entities were refused");
    await api("POST", `${path}/data-model/generate`);
    await api("POST", `${path}/data-model/auto-discover`);

    // One temporal property, with a value every five minutes over the last hour.
    const type = (await api("GET", `${path}/types`)).find((t: any) => t.name === demo.temporal.type);
    const property = (await api("GET", `${path}/properties`)).find(
      (p: any) => p.hasType === type?.id && p.name === demo.temporal.attribute && !p.hasProperty,
    );
    if (property) {
      const { id: _id, ...fields } = property;
      await api("PUT", `${path}/properties/${property.id}`, {
        ...fields,
        temporal: true,
        temporalServices: [temporal.id],
      });
      const target = entities.find((e) => e.type === demo.temporal.type && e[demo.temporal.attribute]);
      const start = Number(((target?.[demo.temporal.attribute] as { value?: number }) ?? {}).value ?? 10);
      for (let i = 12; target && i >= 0; i--) {
        const observedAt = new Date(Date.now() - i * 5 * 60_000).toISOString();
        const value = Math.round((start - (12 - i) * 0.4 + Math.sin(i / 2) * 1.5) * 10) / 10;
        await client.appendAttributes(target.id, {
          [demo.temporal.attribute]: { type: "Property", value, observedAt },
        });
      }
    }
    if (demo.contract) await demoScopeNames(api, path, demo.contract.scopeNames);
    await api("POST", `${path}/data-model/generate`);
    if (demo.dataServices) await demoDataServices(api, path, demo.dataServices);
    if (demo.contract) await demoContract(api, path, demo.contract);
    if (demo.thing) await demoThing(api, path, demo.thing);
  }
  await sessions.revoke(token);
  await db.insert(settings).values({ key: MARK, value: new Date().toISOString() });
  return true;
}

interface DemoDataService {
  name: string;
  type: string;
  properties: string[];
  actions: string[];
  isDemand?: boolean;
  isOffer?: boolean;
  offer?: { description: string; url: string };
  /** A role given access to the service (valid for a year from now). */
  role?: string;
}

/** A workspace's data services, with an offer and a role holding an access where the demo has one. */
async function demoDataServices(
  api: (method: string, path: string, body?: unknown) => Promise<any>,
  path: string,
  services: readonly DemoDataService[],
): Promise<void> {
  const types = (await api("GET", `${path}/types`)) as Array<{ id: string; name: string }>;
  const properties = (await api("GET", `${path}/properties`)) as Array<Record<string, string>>;
  const actions = (await api("GET", "/api/data-actions")) as Array<{ id: string; name: string }>;
  const now = Math.floor(Date.now() / 1000);
  for (const demo of services) {
    const type = types.find((t) => t.name === demo.type);
    if (!type) continue;
    const service = await api("POST", `${path}/data-services`, {
      name: demo.name,
      hasEntityType: type.id,
      hasProperties: properties
        .filter((p) => p.hasType === type.id && !p.hasProperty && demo.properties.includes(p.name!))
        .map((p) => p.id),
      hasDataActions: actions.filter((a) => demo.actions.includes(a.name)).map((a) => a.id),
      isDemand: demo.isDemand ?? false,
      isOffer: demo.isOffer ?? false,
    });
    if (demo.offer)
      await api("POST", `${path}/data-service-offers`, { ...demo.offer, hasDataService: service.id });
    if (demo.role) {
      const role = await api("POST", `${path}/roles`, {
        name: demo.role,
        // The access subject the registry knows it by: Keyrock refuses spaces.
        roleName: roleNameOf(demo.role),
        notBefore: now,
        notOnOrAfter: now + 365 * 24 * 3600,
        dataServiceProviderId: "did:web:supermarket.example.org",
        verifiableCredentialType: `${demo.role.replace(/(?:^|\s)(\w)/g, (_, c: string) => c.toUpperCase())}Credential`,
      });
      await api("POST", `${path}/data-service-accesses`, { hasRole: role.id, hasDataService: service.id });
    }
  }
}

interface DemoScope {
  type: string;
  entity: string;
}

interface DemoContract {
  stakeholderDid: string;
  stakeholderName: string;
  verifiableCredentialType: string;
  /** The scope names given to types, so that they may scope contracts. */
  scopeNames: Record<string, string>;
  scope: DemoScope;
  details: Array<{ role: string; roleScopeName: string; scope?: DemoScope }>;
}

/** Scope names given to types (part of the data model), so that they may scope contracts. */
async function demoScopeNames(
  api: (method: string, path: string, body?: unknown) => Promise<any>,
  path: string,
  scopeNames: Record<string, string>,
): Promise<void> {
  const types = (await api("GET", `${path}/types`)) as Array<{ id: string; name: string }>;
  for (const [name, scopeName] of Object.entries(scopeNames)) {
    const found = types.find((t) => t.name === name);
    if (!found) continue;
    const { id, ...type } = await api("GET", `${path}/types/${found.id}`);
    await api("PUT", `${path}/types/${id}`, { ...type, scopeName });
  }
}

/** A contract over a scope entity, valid for a year, with its details on the demo roles. */
async function demoContract(
  api: (method: string, path: string, body?: unknown) => Promise<any>,
  path: string,
  demo: DemoContract,
): Promise<void> {
  const types = (await api("GET", `${path}/types`)) as Array<{ id: string; name: string }>;
  const typeId = (name: string) => types.find((t) => t.name === name)?.id;
  const roles = (await api("GET", `${path}/roles`)) as Array<{ id: string; name: string }>;
  const now = Math.floor(Date.now() / 1000);
  const scopeOf = (scope?: DemoScope) =>
    scope ? { scopeType: typeId(scope.type), scopeEntity: scope.entity } : {};
  const contract = await api("POST", `${path}/contracts`, {
    contractType: "data-consumer",
    stakeholderDid: demo.stakeholderDid,
    stakeholderName: demo.stakeholderName,
    validFromTime: now,
    validToTime: now + 365 * 24 * 3600,
    verifiableCredentialType: demo.verifiableCredentialType,
    ...scopeOf(demo.scope),
  });
  for (const detail of demo.details) {
    const role = roles.find((r) => r.name === detail.role);
    if (!role) continue;
    await api("POST", `${path}/contract-details`, {
      hasContract: contract.id,
      hasRole: role.id,
      roleScopeName: detail.roleScopeName,
      ...scopeOf(detail.scope),
    });
  }
}

interface DemoThing {
  name: string;
  description: string;
  type: string;
  properties: Array<{ name: string; property: string; capacityType: string; capacityValue: string }>;
  action: {
    name: string;
    description: string;
    inputs: Array<{
      name: string;
      propertyType: string;
      minimum?: number;
      maximum?: number;
      required: boolean;
    }>;
  };
  event: { name: string; dataService: string; property: string; capacityValue: string };
  routing: {
    name: string;
    description: string;
    operations: Array<{ sequenceNumber: number; timerBefore: number; timerAfter: number; control: string }>;
  };
}

/** A thing description on a type: WoT properties, an action with its input, an event and a routing. */
async function demoThing(
  api: (method: string, path: string, body?: unknown) => Promise<any>,
  path: string,
  demo: DemoThing,
): Promise<void> {
  const types = (await api("GET", `${path}/types`)) as Array<{ id: string; name: string }>;
  const type = types.find((t) => t.name === demo.type);
  if (!type) return;
  const attributes = ((await api("GET", `${path}/properties`)) as Array<Record<string, string>>).filter(
    (p) => p.hasType === type.id && !p.hasProperty,
  );
  const td = await api("POST", `${path}/wot-thing-descriptions`, {
    name: demo.name,
    description: demo.description,
    hasType: type.id,
  });
  const of = { hasWoTThingDescription: td.id };
  const wotProperties: Record<string, string> = {};
  for (const p of demo.properties) {
    const property = attributes.find((a) => a.name === p.property);
    if (!property) continue;
    wotProperties[p.name] = (
      await api("POST", `${path}/wot-properties`, {
        name: p.name,
        hasProperty: property.id,
        capacityType: p.capacityType,
        capacityValue: p.capacityValue,
        ...of,
      })
    ).id;
  }
  const action = await api("POST", `${path}/wot-actions`, {
    name: demo.action.name,
    description: demo.action.description,
    ...of,
  });
  for (const input of demo.action.inputs)
    await api("POST", `${path}/wot-action-input-properties`, { ...input, hasWoTAction: action.id, ...of });
  const services = (await api("GET", `${path}/data-services`)) as Array<{ id: string; name: string }>;
  const service = services.find((s) => s.name === demo.event.dataService);
  if (service && wotProperties[demo.event.property])
    await api("POST", `${path}/wot-events`, {
      name: demo.event.name,
      hasDataService: service.id,
      hasWoTProperty: wotProperties[demo.event.property],
      capacityValue: demo.event.capacityValue,
      ...of,
    });
  const routing = await api("POST", `${path}/routings`, {
    name: demo.routing.name,
    description: demo.routing.description,
    ...of,
  });
  for (const { control, ...operation } of demo.routing.operations) {
    const created = await api("POST", `${path}/routing-operations`, {
      ...operation,
      hasWoTAction: action.id,
      hasRouting: routing.id,
    });
    const controlled = wotProperties[demo.event.property];
    if (controlled)
      await api("POST", `${path}/routing-operation-controls`, {
        hasWoTProperty: controlled,
        woTPropertyValue: control,
        hasRoutingOperation: created.id,
      });
  }
}
