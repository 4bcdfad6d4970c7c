import type { FastifyRequest } from "fastify";
import { properties, types } from "@orrery/model";
import type { NgsiLdClient } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { notFound } from "../problems.ts";
import type { Item, Records } from "../resources/records.ts";
import { workspaceBroker, workspaceContextUrl } from "./broker-access.ts";
import { modelOf } from "./entity-input.ts";

/**
 * What a context-data request needs about its workspace: the record, its data model, and the
 * client for its broker (tenant, @context, custom headers, tokens).
 */
export interface WorkspaceData {
  workspace: Awaited<ReturnType<Records["requireWorkspace"]>>;
  types: Item[];
  properties: Item[];
  context: string | undefined;
  broker(): Promise<NgsiLdClient>;
  typeById(typeId: string): Item;
  /** The data model of a type name: its top-level properties by name (empty for an unknown type). */
  model(typeName: string): Map<string, Item>;
}

export async function workspaceData(
  records: Records,
  config: Config,
  workspaceId: string,
  request: FastifyRequest,
): Promise<WorkspaceData> {
  const workspace = await records.requireWorkspace(workspaceId);
  const [typeList, propertyList] = await Promise.all([
    records.list(types, workspaceId),
    records.list(properties, workspaceId),
  ]);
  const context = workspaceContextUrl(config, workspace);
  const gateway = request.headers["gateway-authorization"];
  let client: Promise<NgsiLdClient> | undefined;
  return {
    workspace,
    types: typeList,
    properties: propertyList,
    context,
    broker: () =>
      (client ??= workspaceBroker(records, workspace, {
        context,
        gatewayAuthorization: typeof gateway === "string" && gateway ? gateway : undefined,
      })),
    typeById(typeId) {
      const type = typeList.find((t) => t.id === typeId);
      if (!type) throw notFound(`The type ${typeId}`);
      return type;
    },
    model: (typeName) => modelOf(typeList.find((t) => t.name === typeName)?.id, propertyList),
  };
}
