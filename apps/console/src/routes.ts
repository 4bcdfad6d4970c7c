import { allKinds, kindsByName, type KindDefinition } from "@orrery/model";

/**
 * Route names of the spec (`contextBrokers.show`, `types.show`, ...) and their readable paths,
 * history mode at the root. Every kind gets create, show and edit (and index when it has a list
 * page of its own) from its definition and its placement below.
 */
const fixed = {
  authentication: "/authentication",
  "callbacks.authentication": "/callbacks/authentication",
  workspace: "/workspace/:workspaceId",
  // Administration → Activity: the audit trail.
  activity: "/activity",
  // Administration → Data access: the embedded broker's access decisions.
  dataAccess: "/data-access",
  // Administration → Status: the health of every registered component.
  status: "/status",
  "tools.authorizationRegistries.home": "/tools/authorization-registries",
  // Import from Smart Data Models into a type (spec section 2); its static last segment ranks above properties.show.
  "properties.import": "/workspace/:workspaceId/types/:typeId/properties/import",
  // Context data (spec section 2, Entities and Subscriptions): entity ids are URNs, one encoded segment each.
  "entities.create": "/workspace/:workspaceId/entities/create",
  "entities.properties.create": "/workspace/:workspaceId/types/:typeId/entities/:entityId/properties/create",
  "entities.properties.show": "/workspace/:workspaceId/entities/:entityId/properties/:propertyId",
  "entities.properties.edit": "/workspace/:workspaceId/entities/:entityId/properties/:propertyId/edit",
  "temporalEntities.properties.show":
    "/workspace/:workspaceId/types/:typeId/temporal-entities/:entityId/properties/:propertyId",
  "subscriptions.create": "/workspace/:workspaceId/subscriptions/create",
  "subscriptions.show": "/workspace/:workspaceId/subscriptions/:subscriptionId",
  // FIWARE Data Space Connector (apps/console/src/fdsc): the PAP's policies of a workspace, a
  // service's credential configuration, a trusted issuers list's issuers (DIDs, one encoded segment).
  "odrlPolicies.index": "/workspace/:workspaceId/odrl-policies",
  "odrlPolicies.create": "/workspace/:workspaceId/odrl-policies/create",
  "odrlPolicies.show": "/workspace/:workspaceId/odrl-policies/:policyId",
  "odrlPolicies.edit": "/workspace/:workspaceId/odrl-policies/:policyId/edit",
  "credentialConfiguration.show": "/services/:id/credential-configuration",
  "trustedIssuers.index": "/trusted-issuers-lists/:id/issuers",
  "trustedIssuers.create": "/trusted-issuers-lists/:id/issuers/create",
  "trustedIssuers.show": "/trusted-issuers-lists/:id/issuers/:did",
  "trustedIssuers.edit": "/trusted-issuers-lists/:id/issuers/:did/edit",
} as const;

/** Where a kind's pages live in the console. */
export interface Placement {
  /** Path of its collection, with its parents' params: `/workspace/:workspaceId/types`. */
  base: string;
  /** Route param holding an item's id (the spec's names: workspaceId, typeId, propertyId). */
  param: string;
  /** The kind whose item the records belong to (breadcrumbs, the page after a delete). */
  parent?: string;
  /** False when the list sits in the parent's show page (a type lists its properties). */
  index: boolean;
  /** Route name of an item's main page when it is not the show page (a workspace opens its view). */
  view?: string;
  /** Reference fields set from a route param and not shown in the form: `hasType` from `typeId`. */
  fromRoute?: Record<string, string>;
  /** When the list sits in the parent's show page: whether this parent has it (a data service's offerings). */
  shownIn?: (parent: Record<string, unknown>) => boolean;
}

const thingDescription = "/workspace/:workspaceId/wot-thing-descriptions/:woTThingDescriptionId";

const placements: Record<string, Placement> = {
  workspaces: { base: "/workspaces", param: "workspaceId", index: true, view: "workspace" },
  types: { base: "/workspace/:workspaceId/types", param: "typeId", parent: "workspaces", index: true },
  properties: {
    base: "/workspace/:workspaceId/types/:typeId/properties",
    param: "propertyId",
    parent: "types",
    index: false,
    fromRoute: { hasType: "typeId" },
  },
  "data-services": {
    base: "/workspace/:workspaceId/data-services",
    param: "dataServiceId",
    parent: "workspaces",
    index: true,
  },
  // The offerings card shows only on a demand or offer service (spec section 2, Data services).
  "data-service-offers": {
    base: "/workspace/:workspaceId/data-services/:dataServiceId/offers",
    param: "dataServiceOfferId",
    parent: "data-services",
    index: false,
    fromRoute: { hasDataService: "dataServiceId" },
    shownIn: (service) => service.isDemand === true || service.isOffer === true,
  },
  roles: { base: "/workspace/:workspaceId/roles", param: "roleId", parent: "workspaces", index: true },
  // Accesses are reached through their role (breadcrumbs through roles.index and roles.show).
  "data-service-accesses": {
    base: "/workspace/:workspaceId/roles/:roleId/data-service-accesses",
    param: "dataServiceAccessId",
    parent: "roles",
    index: false,
    fromRoute: { hasRole: "roleId" },
  },
  contracts: {
    base: "/workspace/:workspaceId/contracts",
    param: "contractId",
    parent: "workspaces",
    index: true,
  },
  "contract-details": {
    base: "/workspace/:workspaceId/contracts/:contractId/contract-details",
    param: "contractDetailId",
    parent: "contracts",
    index: false,
    fromRoute: { hasContract: "contractId" },
  },
  // Web of Things: everything lives in its thing description (spec section 2), routings' operations and controls below them.
  "wot-thing-descriptions": {
    base: "/workspace/:workspaceId/wot-thing-descriptions",
    param: "woTThingDescriptionId",
    parent: "workspaces",
    index: true,
  },
  ...Object.fromEntries(
    (
      [
        ["wot-properties", "woTPropertyId"],
        ["wot-actions", "woTActionId"],
        ["wot-events", "woTEventId"],
        ["routings", "routingId"],
      ] as const
    ).map(([kind, param]) => [
      kind,
      {
        base: `${thingDescription}/${kind}`,
        param,
        parent: "wot-thing-descriptions",
        index: false,
        fromRoute: { hasWoTThingDescription: "woTThingDescriptionId" },
      },
    ]),
  ),
  "wot-action-input-properties": {
    base: `${thingDescription}/wot-actions/:woTActionId/wot-action-input-properties`,
    param: "woTActionInputPropertyId",
    parent: "wot-actions",
    index: false,
    fromRoute: { hasWoTAction: "woTActionId", hasWoTThingDescription: "woTThingDescriptionId" },
  },
  "routing-operations": {
    base: `${thingDescription}/routings/:routingId/routing-operations`,
    param: "routingOperationId",
    parent: "routings",
    index: false,
    fromRoute: { hasRouting: "routingId" },
  },
  "routing-operation-controls": {
    base: `${thingDescription}/routings/:routingId/routing-operations/:routingOperationId/routing-operation-controls`,
    param: "routingOperationControlId",
    parent: "routing-operations",
    index: false,
    fromRoute: { hasRoutingOperation: "routingOperationId" },
  },
};

export const placementOf = (kind: KindDefinition): Placement =>
  placements[kind.kind] ?? { base: `/${kind.kind}`, param: "id", index: true };

/** The kind and its parents, outermost first: workspaces, types, properties. */
export function lineage(kind: KindDefinition): KindDefinition[] {
  const parent = placementOf(kind).parent;
  return [...(parent ? lineage(kindsByName.get(parent)!) : []), kind];
}

export type Action = "index" | "create" | "show" | "edit";

const kindRoutes = Object.fromEntries(
  allKinds.flatMap((k) => {
    const { base, param, index } = placementOf(k);
    return [
      ...(index ? [[`${k.routeName}.index`, base]] : []),
      [`${k.routeName}.create`, `${base}/create`],
      [`${k.routeName}.show`, `${base}/:${param}`],
      [`${k.routeName}.edit`, `${base}/:${param}/edit`],
    ];
  }),
) as Record<string, string>;

export const routePaths: Record<string, string> = { ...fixed, ...kindRoutes };

/** The path of a named route: `routeTo("types.show", { workspaceId, typeId })`. */
export function routeTo(name: string, params: Record<string, string | undefined> = {}): string {
  const pattern = routePaths[name];
  if (!pattern) throw new Error(`unknown route ${name}`);
  return pattern.replace(/:(\w+)/g, (_m, key: string) => encodeURIComponent(params[key] ?? ""));
}

/**
 * A kind's page. `params` are the current route's (the parents' ids); `id` is the item's own. Without
 * an index page of its own, a kind's "index" is its parent's show page.
 */
export function kindRoute(
  kind: KindDefinition,
  action: Action,
  id?: string,
  params: Record<string, string | undefined> = {},
): string {
  const place = placementOf(kind);
  if (action === "index" && !place.index) {
    const parent = kindsByName.get(place.parent!)!;
    return kindRoute(parent, "show", params[placementOf(parent).param], params);
  }
  return routeTo(`${kind.routeName}.${action}`, id ? { ...params, [place.param]: id } : params);
}
