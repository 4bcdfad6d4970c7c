import type { FastifyRequest } from "fastify";
import {
  contractDetails,
  contracts,
  identityManagerGrants,
  properties,
  targetsOf,
  types,
} from "@orrery/model";
import { NgsiLdError, type Entity } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { viaBroker } from "../context-data/broker-access.ts";
import { workspaceData } from "../context-data/workspace-data.ts";
import { fieldError, invalid } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { DependentsCheck, Records } from "../resources/records.ts";
import { consoleRoles } from "../users/console-roles.ts";

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
 * contract's scope type, and its entity, of that type, refers to the contract's scope entity. Its
 * role scope name is no role of the console, and the workspace's identity manager grant is not for
 * the console's own application (whose every role gives console permissions at sign-in): a
 * contract role makes nobody more than they are.
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

  const own = consoleRoles(config);

  /** The refusal of a role scope name that would give console permissions, if it would. */
  async function consoleRoleError(roleName: string, workspaceId: string) {
    if (own.isConsoleRole(roleName))
      return fieldError("roleScopeName", "contractDetail.consoleRole", { role: roleName });
    const grantId = (await records.requireWorkspace(workspaceId)).data.hasIdentityManagerGrant;
    const grant = grantId ? await records.find(identityManagerGrants, String(grantId)) : undefined;
    const application = String(grant?.data.clientId ?? "");
    if (application && own.isConsoleApplication(application))
      return fieldError("roleScopeName", "contractDetail.consoleApplication", { application });
    return undefined;
  }

  return {
    contracts: {
      // A detail's scope is checked against its contract's: changing that scope under it is refused.
      async dependents({ id, before, after }, tx) {
        const fields = ["scopeType", "scopeEntity"].filter((f) => before[f] !== after[f]);
        if (!fields.length) return [];
        const details = await tx.referring(contractDetails, "hasContract", id);
        const scoped = details.filter((d) => d.data.scopeType !== undefined);
        return fields.map((field) => ({ field, rows: scoped }));
      },
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
        if (typeof input.roleScopeName === "string" && input.roleScopeName) {
          const refused = await consoleRoleError(input.roleScopeName, workspaceId!);
          if (refused) throw invalid([refused]);
        }
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

/** A type that scopes contracts or contract details must keep its scopeName (their paths are made of it). */
export const scopeTypeDependents: DependentsCheck = async ({ id, before, after }, tx) =>
  before.scopeName && !after.scopeName
    ? [
        {
          field: "scopeName",
          rows: [
            ...(await tx.referring(contracts, "scopeType", id)),
            ...(await tx.referring(contractDetails, "scopeType", id)),
          ],
        },
      ]
    : [];
