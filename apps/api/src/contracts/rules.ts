import type { FastifyRequest } from "fastify";
import { contracts, properties, targetsOf, types } from "@orrery/model";
import { NgsiLdError, type Entity } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { viaBroker } from "../context-data/broker-access.ts";
import { workspaceData } from "../context-data/workspace-data.ts";
import { fieldError, invalid } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Records } from "../resources/records.ts";

type Data = Record<string, unknown>;

/** Every entity id an entity's attributes point to, at any instance. */
const pointedToBy = (entity: Entity): string[] =>
  Object.values(entity).flatMap((attribute) =>
    [attribute]
      .flat()
      .filter((i): i is Record<string, unknown> => !!i && typeof i === "object" && !Array.isArray(i))
      .flatMap(targetsOf),
  );

/**
 * The rules of contracts and contract details that need other records and the broker (spec
 * section 5): a contract's validity ends after it begins; its scope type is a type of the workspace
 * with a scopeName and its scope entity an entity of that type in the broker. A contract detail's
 * scope needs a contract that has one; its type has a scopeName and a relationship to the
 * contract's scope type, and its entity, of that type, refers to the contract's scope entity.
 */
export function contractHooks(records: Records, config: Config): Record<string, KindHooks> {
  /** The scope entity as the workspace's broker has it, or undefined when it has none of that id. */
  async function entityOf(workspaceId: string, request: FastifyRequest | undefined, id: string) {
    if (!request) return undefined;
    const data = await workspaceData(records, config, workspaceId, request);
    return viaBroker(async () => {
      try {
        return await (await data.broker()).getEntity(id);
      } catch (err) {
        if (err instanceof NgsiLdError && err.status === 404) return undefined;
        throw err;
      }
    });
  }

  async function scopeType(input: Data, workspaceId: string) {
    const type = await records.find(types, String(input.scopeType), workspaceId);
    // A type of another workspace or none: the reference check names it.
    if (type && !type.data.scopeName)
      throw invalid([fieldError("scopeType", "contract.noScopeName", { type: String(type.data.name) })]);
    return type;
  }

  return {
    contracts: {
      async prepare(input, { workspaceId, request }) {
        if (Number(input.validToTime) <= Number(input.validFromTime))
          throw invalid([fieldError("validToTime", "field.afterField", { field: "validFromTime" })]);
        if (input.scopeType === undefined) return input;
        const type = await scopeType(input, workspaceId!);
        if (!type) return input;
        const entity = await entityOf(workspaceId!, request, String(input.scopeEntity));
        if (!entity || ![entity.type].flat().includes(String(type.data.name)))
          throw invalid([
            fieldError("scopeEntity", "contract.scopeEntity", {
              id: String(input.scopeEntity),
              type: String(type.data.name),
            }),
          ]);
        return input;
      },
    },
    "contract-details": {
      async prepare(input, { workspaceId, request }) {
        if (input.scopeType === undefined) return input;
        const contract = await records.find(contracts, String(input.hasContract), workspaceId);
        if (!contract) return input;
        const scope = contract.data;
        if (!scope.scopeType || !scope.scopeEntity)
          throw invalid([fieldError("scopeType", "contractDetail.contractWithoutScope")]);
        const type = await scopeType(input, workspaceId!);
        if (!type) return input;
        const related = (await records.list(properties, workspaceId)).some(
          (p) =>
            p.hasType === type.id &&
            p.ngsiLdType === "Relationship" &&
            p.relationshipType === scope.scopeType,
        );
        if (!related)
          throw invalid([
            fieldError("scopeType", "contractDetail.scopeTypeUnrelated", { type: String(type.data.name) }),
          ]);
        const entity = await entityOf(workspaceId!, request, String(input.scopeEntity));
        if (
          !entity ||
          ![entity.type].flat().includes(String(type.data.name)) ||
          !pointedToBy(entity).includes(String(scope.scopeEntity))
        )
          throw invalid([
            fieldError("scopeEntity", "contractDetail.scopeEntity", {
              id: String(input.scopeEntity),
              type: String(type.data.name),
              scope: String(scope.scopeEntity),
            }),
          ]);
        return input;
      },
    },
  };
}
