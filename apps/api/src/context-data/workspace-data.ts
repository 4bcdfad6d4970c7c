import type { FastifyRequest } from "fastify";
import { properties, types } from "@orrery/model";
import type { NgsiLdClient } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { notFound } from "../problems.ts";
import { toItem, type Item, type Records } from "../resources/records.ts";
import { ownBrokerTenant, workspaceBroker, workspaceContextUrl } from "./broker-access.ts";
import { ownBrokerWrites, type OwnBroker } from "./own-broker.ts";
import type { BrokerWrites } from "./entity-order.ts";
import { modelOf } from "./entity-input.ts";

/**
 * What a context-data request needs about its workspace: the record, its data model, and the
 * client for its broker (tenant, @context, custom headers, tokens). The data model is read only
 * by the requests that use it (create, updates, import, export), once per request.
 */
export interface WorkspaceData {
  workspace: Awaited<ReturnType<Records["requireWorkspace"]>>;
  context: string | undefined;
  broker(): Promise<NgsiLdClient>;
  /** The tenant when the workspace's broker is this process's embedded one, else undefined. */
  ownBrokerTenant(): Promise<string | undefined>;
  /** The workspace's types and properties. */
  dataModel(): Promise<{ types: Item[]; properties: Item[] }>;
  typeById(typeId: string): Promise<Item>;
  /**
   * How far the workspace's entities have changed, when its broker is the embedded one (see
   * ownBrokerWrites); undefined for another broker.
   */
  brokerWrites(): Promise<BrokerWrites | undefined>;
  /** The data model of a type name: its top-level properties by name (empty for an unknown type). */
  model(typeName: string): Promise<Map<string, Item>>;
}

export async function workspaceData(
  records: Records,
  config: Config,
  workspaceId: string,
  request: FastifyRequest,
  /** This process's broker, for the workspaces that use it (brokerWrites). */
  own: OwnBroker = {},
): Promise<WorkspaceData> {
  const workspace = await records.requireWorkspace(workspaceId);
  const context = workspaceContextUrl(config, workspace);
  const gateway = request.headers["gateway-authorization"];
  let client: Promise<NgsiLdClient> | undefined;
  let lists: Promise<{ types: Item[]; properties: Item[] }> | undefined;
  const dataModel = () =>
    (lists ??= Promise.all([records.list(types, workspaceId), records.list(properties, workspaceId)]).then(
      ([typeList, propertyList]) => ({ types: typeList, properties: propertyList }),
    ));
  return {
    workspace,
    context,
    broker: () =>
      (client ??= workspaceBroker(records, workspace, {
        context,
        gatewayAuthorization: typeof gateway === "string" && gateway ? gateway : undefined,
      })),
    ownBrokerTenant: () => ownBrokerTenant(records, workspace),
    dataModel,
    async brokerWrites() {
      const tenant = await ownBrokerTenant(records, workspace);
      const reader = own.reader;
      return tenant === undefined || !reader ? undefined : () => ownBrokerWrites(reader, tenant);
    },
    async typeById(typeId) {
      const row = await records.find(types, typeId, workspaceId);
      if (!row) throw notFound(typeId, "type");
      return toItem(types, row);
    },
    async model(typeName) {
      const { types: typeList, properties: propertyList } = await dataModel();
      return modelOf(typeList.find((t) => t.name === typeName)?.id, propertyList);
    },
  };
}
