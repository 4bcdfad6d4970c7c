import type { KindDefinition } from "../kind.ts";
import { authorizationRegistries } from "./authorization-registries.ts";
import { authorizationRegistryGrants } from "./authorization-registry-grants.ts";
import { brokerClients } from "./broker-clients.ts";
import { contextBrokers, multiValuedBrokers } from "./context-brokers.ts";
import { dataActions } from "./data-actions.ts";
import { identityManagerGrants } from "./identity-manager-grants.ts";
import { identityManagers } from "./identity-managers.ts";
import { services } from "./services.ts";
import { temporalServices } from "./temporal-services.ts";
import { trustedIssuersLists } from "./trusted-issuers-lists.ts";
import { vcVerifiers } from "./vc-verifiers.ts";
import { policyAdministrationPoints } from "./policy-administration-points.ts";
import { credentialsConfigServices } from "./credentials-config-services.ts";
import { workspaces } from "./workspaces.ts";
import { types, dataModelGroups } from "./types.ts";
import { properties, geoTypes } from "./properties.ts";
import { dataServices } from "./data-services.ts";
import { dataServiceOffers } from "./data-service-offers.ts";
import { dataServiceAccesses } from "./data-service-accesses.ts";
import { roles, roleNameOf } from "./roles.ts";
import { contracts, contractDetails } from "./contracts.ts";
import {
  capacityTypes,
  routingOperationControls,
  routingOperations,
  routings,
  woTActionInputProperties,
  woTActions,
  woTEvents,
  woTProperties,
  woTThingDescriptions,
} from "./wot.ts";

export {
  brokerClients,
  authorizationRegistries,
  authorizationRegistryGrants,
  contextBrokers,
  multiValuedBrokers,
  dataActions,
  identityManagerGrants,
  identityManagers,
  services,
  temporalServices,
  trustedIssuersLists,
  vcVerifiers,
  policyAdministrationPoints,
  credentialsConfigServices,
  workspaces,
  types,
  properties,
  dataServices,
  dataServiceOffers,
  dataServiceAccesses,
  roles,
  roleNameOf,
  contracts,
  contractDetails,
  woTThingDescriptions,
  woTProperties,
  woTActions,
  woTActionInputProperties,
  woTEvents,
  routings,
  routingOperations,
  routingOperationControls,
  capacityTypes,
  dataModelGroups,
  geoTypes,
};

/** Platform kinds in the order of the spec's Administration menu. */
export const platformKinds: readonly KindDefinition[] = [
  services,
  temporalServices,
  contextBrokers,
  identityManagers,
  identityManagerGrants,
  authorizationRegistries,
  authorizationRegistryGrants,
  vcVerifiers,
  trustedIssuersLists,
  policyAdministrationPoints,
  credentialsConfigServices,
  dataActions,
  brokerClients,
];

/** Kinds of the workspace level: workspaces themselves, and what lives inside one. */
export const workspaceKinds: readonly KindDefinition[] = [
  workspaces,
  types,
  properties,
  dataServices,
  dataServiceOffers,
  roles,
  dataServiceAccesses,
  contracts,
  contractDetails,
  woTThingDescriptions,
  woTProperties,
  woTActions,
  woTActionInputProperties,
  woTEvents,
  routings,
  routingOperations,
  routingOperationControls,
];

export const allKinds: readonly KindDefinition[] = [...platformKinds, ...workspaceKinds];

export const kindsByName: ReadonlyMap<string, KindDefinition> = new Map(allKinds.map((k) => [k.kind, k]));
