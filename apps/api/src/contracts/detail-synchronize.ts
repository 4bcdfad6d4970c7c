import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  contractDetails,
  contracts,
  dataActions,
  dataServiceAccesses,
  dataServices,
  escapeRegex,
  types,
} from "@orrery/model";
import type { Config } from "../config.ts";
import { viaBroker } from "../context-data/broker-access.ts";
import { workspaceData } from "../context-data/workspace-data.ts";
import { languageOf, say, type MessageCode, type Params } from "../messages/say.ts";
import { Problem, notFound, problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { consoleRoles } from "../users/console-roles.ts";
import type { IdentityManagerClient } from "../users/users-routes.ts";

/**
 * A contract detail in the workspace's identity manager (the original's ContractDetailController):
 * the role named by its roleScopeName, created when missing, its permissions replaced by one per
 * data action of each data service its role accesses, on the path of the contract's and the
 * detail's scope entities. Answers the lines of each step, in the reader's language; a failed step
 * makes it a 502 problem carrying them. Every value placed in a generated regular expression (scope
 * names, entity ids) is escaped, so that an id such as `urn:ngsi-ld:Shelf:.*` names that shelf
 * alone. A console role, or the console's own application, is refused as in role assignment.
 */
export function registerDetailSynchronize(
  app: FastifyInstance,
  records: Records,
  config: Config,
  idm: IdentityManagerClient,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { directoryOf, call, listOf, appPath, rolesOf, refuseConsoleApplication } = idm;
  const own = consoleRoles(config);

  api.post(
    "/api/workspace/:workspaceId/contract-details/:id/synchronize",
    {
      schema: {
        tags: ["contract-details"],
        summary: "Make the contract detail's role and path permissions in the workspace's identity manager",
        params: z.object({ workspaceId: z.string(), id: z.string() }),
      },
    },
    async (request) => {
      const { workspaceId, id } = request.params;
      const language = languageOf(request.headers["accept-language"]);
      const detail = await records.find(contractDetails, id, workspaceId);
      if (!detail) throw notFound(id);
      const contract = await records.find(contracts, String(detail.data.hasContract), workspaceId);
      const roleName = detail.data.roleScopeName as string | undefined;
      if (!roleName) throw problem(400, "contractDetail.syncNoRoleScopeName");
      if (own.isConsoleRole(roleName)) throw problem(403, "users.consoleRole", { role: roleName });
      const directory = await directoryOf(workspaceId);
      // Its roles are the console's: a detail's role there would rewrite one, or be read at sign-in.
      refuseConsoleApplication(directory);
      if (!contract?.data.scopeEntity || !detail.data.scopeEntity)
        throw problem(400, "contractDetail.syncNoScope");
      const typeList = await records.list(types, workspaceId);
      const typeOf = (typeId: unknown) => typeList.find((t) => t.id === typeId);
      const [contractType, detailType] = [typeOf(contract.data.scopeType), typeOf(detail.data.scopeType)];
      for (const type of [contractType, detailType])
        if (!type?.scopeName)
          throw problem(400, "contractDetail.syncNoScopeName", { type: String(type?.name ?? "") });
      const data = await workspaceData(records, config, workspaceId, request);
      const client = await viaBroker(() => data.broker());
      const entityName = async (entityId: string) => {
        const entity = await viaBroker(() => client.getEntity(entityId)).catch(() => undefined);
        const name = entity ? [entity.name].flat()[0] : undefined;
        const value = (name as { value?: unknown } | undefined)?.value;
        if (typeof value !== "string" || !value)
          throw problem(400, "contractDetail.syncNoEntityName", { id: entityId });
        return value;
      };
      const contractEntity = String(contract.data.scopeEntity);
      const detailEntity = String(detail.data.scopeEntity);
      const [contractName, detailName] = [await entityName(contractEntity), await entityName(detailEntity)];

      const lines: string[] = [];
      let failed = false;
      const line = (code: MessageCode, params: Params = {}) => lines.push(say(language, code, params));
      const attempt = async <T>(what: () => Promise<T>, failure: MessageCode, params: Params = {}) => {
        try {
          return await what();
        } catch (err) {
          failed = true;
          line(failure, {
            ...params,
            reason: err instanceof Problem ? (err.detail ?? err.title) : String(err),
          });
          return undefined;
        }
      };
      const app = appPath(directory);
      line("sync.token");
      line("sync.roles", { application: directory.application });
      const roleList = await attempt(() => rolesOf(directory), "sync.rolesFailed");
      let role = roleList?.find((r) => r.name === roleName);
      if (roleList) {
        line("sync.lookingFor", { name: roleName });
        if (role) line("sync.roleFound", { name: roleName, id: role.id });
        else {
          line("sync.creatingRole", { name: roleName });
          role = await attempt(
            async () => {
              const created = await call(directory, "POST", `${app}/roles`, "roles", {
                role: { name: roleName },
              });
              return ((await created.json()) as { role: { id: string; name: string } }).role;
            },
            "sync.createRoleFailed",
            { name: roleName },
          );
        }
      }
      if (role) {
        const roleId = role.id;
        line("sync.permissionsOf", { id: roleId });
        const held = await attempt(
          async () =>
            listOf<{ id: string; is_internal?: boolean }>(
              await call(directory, "GET", `${app}/roles/${encodeURIComponent(roleId)}/permissions`, "roles"),
              "role_permission_assignments",
            ),
          "sync.permissionsFailed",
          { id: roleId },
        );
        const own = (held ?? []).filter((p) => !p.is_internal);
        line(own.length ? "sync.permissionsFound" : "sync.noPermission", { count: own.length });
        for (const permission of own) {
          line("sync.removing", { id: permission.id });
          await attempt(
            () =>
              call(directory, "DELETE", `${app}/permissions/${encodeURIComponent(permission.id)}`, "roles"),
            "sync.removeFailed",
            { id: permission.id },
          );
        }
        const base = `/${String(contractType!.scopeName)}/${contractEntity}/${String(detailType!.scopeName)}/${detailEntity}`;
        const escapedBase = [contractType!.scopeName, contractEntity, detailType!.scopeName, detailEntity]
          .map((part) => `/${escapeRegex(String(part))}`)
          .join("");
        const [accesses, serviceList, actionList] = await Promise.all([
          records.list(dataServiceAccesses, workspaceId),
          records.list(dataServices, workspaceId),
          records.list(dataActions),
        ]);
        for (const access of accesses.filter((a) => a.hasRole === detail.data.hasRole)) {
          const service = serviceList.find((s) => s.id === access.hasDataService);
          const type = typeOf(service?.hasEntityType);
          if (!service || !type?.scopeName) {
            failed = true;
            line("sync.typeWithoutScopeName", {
              type: String(type?.name ?? service?.name ?? access.hasDataService),
            });
            continue;
          }
          for (const actionId of (service.hasDataActions as string[] | undefined) ?? []) {
            const action = String(actionList.find((a) => a.id === actionId)?.name ?? "").toUpperCase();
            if (!action) continue;
            const scope = String(type.scopeName);
            const name = `${action} ${contractName} ${detailName} ${scope}`;
            const regex = action !== "GET";
            // A plain resource is compared as written; in a regex every value matches only itself.
            const resource = regex ? `^${escapedBase}/${escapeRegex(scope)}/(.*)$` : `${base}/${scope}`;
            line("sync.creatingPermission", { name });
            const made = await attempt(
              async () => {
                const created = await call(directory, "POST", `${app}/permissions`, "roles", {
                  permission: { name, action: action.split(":")[0], resource, is_regex: regex },
                });
                return ((await created.json()) as { permission: { id: string } }).permission;
              },
              "sync.createPermissionFailed",
              { name },
            );
            if (!made) continue;
            line("sync.assigning", { permission: made.id, name, role: roleId });
            await attempt(
              () =>
                call(
                  directory,
                  "PUT",
                  `${app}/roles/${encodeURIComponent(roleId)}/permissions/${encodeURIComponent(made.id)}`,
                  "roles",
                ),
              "sync.assignFailed",
              { permission: made.id, role: roleId },
            );
          }
        }
      }
      if (failed) throw problem(502, "contractDetail.syncFailed", {}, { details: lines });
      return { details: lines };
    },
  );
}
