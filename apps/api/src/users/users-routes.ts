import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  contractDetails,
  contracts,
  dataActions,
  dataServiceAccesses,
  dataServices,
  identityManagerGrants,
  identityManagers,
  isAllowed,
  types,
} from "@orrery/model";
import type { Config } from "../config.ts";
import { workspaceData } from "../context-data/workspace-data.ts";
import { languageOf, say, type MessageCode, type Params } from "../messages/say.ts";
import { asSegment } from "../auth/guard.ts";
import { KeyrockFailure, keyrockManagement, type KeyrockManagement } from "../auth/keyrock-management.ts";
import { address, viaBroker } from "../context-data/broker-access.ts";
import { Problem, notFound, problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";

/** A user of the workspace's identity manager, with the names of their roles in its application. */
const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().optional(),
  roles: z.array(z.string()),
});

type Step = "signIn" | "users" | "roles";

/** The identity manager's management API for a workspace: its account, application and name. */
interface Directory {
  management: KeyrockManagement;
  application: string;
  name: string;
  account: string;
}

/**
 * The users of a workspace (spec section 7): read and changed in the application of the workspace's
 * identity manager (Keyrock's management API /v1, or the development identity manager's copy of
 * it), signed in with the workspace's password grant; the application is the grant's clientId. One
 * management token per identity manager and grant, reused until it expires and released when the
 * API stops. Assigning or removing a role needs update permission on a contract detail of the
 * workspace that names the role (its roleScopeName).
 */
export function registerUsersRoutes(app: FastifyInstance, records: Records, config: Config): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const held = new Map<string, { version: string; management: KeyrockManagement }>();
  app.addHook("onClose", async () => {
    await Promise.all([...held.values()].map((h) => h.management.release()));
  });

  async function directoryOf(workspaceId: string): Promise<Directory> {
    const workspace = await records.requireWorkspace(workspaceId);
    const { hasIdentityManager: idmId, hasIdentityManagerGrant: grantId } = workspace.data;
    const idm = idmId ? await records.find(identityManagers, String(idmId)) : undefined;
    const grant = grantId ? await records.find(identityManagerGrants, String(grantId)) : undefined;
    if (!idm || !grant) throw problem(400, "users.noIdentityManager");
    if (grant.data.grantType !== "password")
      throw problem(400, "users.notPasswordGrant", { grant: String(grant.data.name) });
    const key = `${idm.id} ${grant.id}`;
    const version = `${idm.version} ${grant.version}`;
    let entry = held.get(key);
    if (!entry || entry.version !== version) {
      void entry?.management.release();
      const password = (await records.secret(identityManagerGrants, grant.id, "password")) ?? "";
      const base = address(idm.data).replace(/\/$/, "");
      entry = {
        version,
        management: keyrockManagement(base, { name: String(grant.data.username), password }),
      };
      held.set(key, entry);
    }
    return {
      management: entry.management,
      application: String(grant.data.clientId),
      name: String(idm.data.name),
      account: String(grant.data.username),
    };
  }

  /** A management call; Keyrock's refusals and silences become 502 problems saying what to do. */
  async function call(directory: Directory, method: string, path: string, step: Step, body?: unknown) {
    const { name, account, application } = directory;
    try {
      return await directory.management.call(method, path, step, body);
    } catch (err) {
      if (!(err instanceof KeyrockFailure)) throw err;
      const what = err.what as Step | string;
      if (err.status === undefined) throw problem(502, "users.unreachable", { name, cause: err.reason });
      if (what.includes("sign-in"))
        throw problem(502, "users.signInRefused", { name, account, status: err.status, reason: err.reason });
      if (err.status === 403 && what === "users")
        throw problem(502, "users.notAdministrator", { name, account });
      if (err.status === 403) throw problem(502, "users.manageRoles", { name, account, application });
      throw problem(502, "users.refused", { name, status: err.status, reason: err.reason });
    }
  }

  const listOf = async <T>(response: Response, key: string): Promise<T[]> => {
    if (response.status === 404) return []; // Keyrock's empty list
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return Array.isArray(body[key]) ? (body[key] as T[]) : [];
  };

  const appPath = (directory: Directory) => `/v1/applications/${encodeURIComponent(directory.application)}`;

  async function rolesOf(directory: Directory) {
    const response = await call(directory, "GET", `${appPath(directory)}/roles`, "roles");
    return listOf<{ id: string; name: string }>(response, "roles");
  }

  /** Assigning or removing a role: update permission on a contract detail of the workspace naming it. */
  async function mayChange(request: FastifyRequest, workspaceId: string, roleName: string) {
    const permissions = request.session!.permissions;
    const base = `/api/workspace/${asSegment(workspaceId)}/contract-details`;
    if (!isAllowed(permissions, "GET", base))
      throw problem(403, "auth.forbidden", { method: request.method, path: base });
    const naming = (await records.list(contractDetails, workspaceId)).filter(
      (d) => d.roleScopeName === roleName,
    );
    if (!naming.length) throw problem(404, "users.roleNotInContracts", { role: roleName });
    if (!naming.some((d) => isAllowed(permissions, "PUT", `${base}/${asSegment(d.id)}`)))
      throw problem(403, "users.forbidden", { role: roleName });
  }

  const workspaceParams = z.object({ workspaceId: z.string() });
  const roleParams = z.object({ workspaceId: z.string(), userId: z.string(), roleName: z.string().min(1) });
  const tags = ["users"];

  api.get(
    "/api/workspace/:workspaceId/users",
    { schema: { tags, params: workspaceParams, response: { 200: z.array(userSchema) } } },
    async (request) => {
      const directory = await directoryOf(request.params.workspaceId);
      const [users, roles, assignments] = await Promise.all([
        call(directory, "GET", "/v1/users", "users").then((r) =>
          listOf<{ id: string; username?: string; email?: string }>(r, "users"),
        ),
        rolesOf(directory),
        call(directory, "GET", `${appPath(directory)}/users`, "roles").then((r) =>
          listOf<{ user_id: string; role_id: string }>(r, "role_user_assignments"),
        ),
      ]);
      const names = new Map(roles.map((r) => [r.id, r.name]));
      return users
        .map((u) => ({
          id: String(u.id),
          username: String(u.username ?? u.email ?? u.id),
          ...(u.email ? { email: String(u.email) } : {}),
          roles: [
            ...new Set(
              assignments
                .filter((a) => a.user_id === u.id && names.has(a.role_id))
                .map((a) => names.get(a.role_id)!),
            ),
          ].sort(),
        }))
        .sort((a, b) => a.username.localeCompare(b.username));
    },
  );

  /** Who is changed, in which identity manager, once the caller may change the role. */
  async function change(request: FastifyRequest<{ Params: z.infer<typeof roleParams> }>) {
    const { workspaceId, userId, roleName } = request.params;
    await mayChange(request, workspaceId, roleName);
    const directory = await directoryOf(workspaceId);
    const assignment = (roleId: string) =>
      `${appPath(directory)}/users/${encodeURIComponent(userId)}/roles/${encodeURIComponent(roleId)}`;
    return { directory, userId, roleName, assignment };
  }
  const roleRoute = `/api/workspace/:workspaceId/users/:userId/roles/:roleName`;
  const roleRouteOptions = { config: { access: "session" as const }, schema: { tags, params: roleParams } };

  api.post(roleRoute, roleRouteOptions, async (request, reply) => {
    const { directory, userId, roleName, assignment } = await change(request);
    let role = (await rolesOf(directory)).find((r) => r.name === roleName);
    if (!role) {
      const created = await call(directory, "POST", `${appPath(directory)}/roles`, "roles", {
        role: { name: roleName },
      });
      role = ((await created.json().catch(() => ({}))) as { role?: { id: string; name: string } }).role;
      if (!role?.id)
        throw problem(502, "users.refused", { name: directory.name, status: created.status, reason: "" });
    }
    const assigned = await call(directory, "POST", assignment(role.id), "roles");
    if (assigned.status === 404) throw problem(404, "users.unknownUser", { id: userId });
    return reply.code(204).send();
  });

  api.delete(roleRoute, roleRouteOptions, async (request, reply) => {
    const { directory, userId, roleName, assignment } = await change(request);
    let removed = 0;
    for (const role of (await rolesOf(directory)).filter((r) => r.name === roleName)) {
      const response = await call(directory, "DELETE", assignment(role.id), "roles");
      if (response.ok) removed++;
    }
    if (!removed) throw problem(404, "users.notHeld", { id: userId, role: roleName });
    return reply.code(204).send();
  });

  /**
   * A contract detail in the identity manager (the original's ContractDetailController): the role
   * named by its roleScopeName, created when missing, its permissions replaced by one per data
   * action of each data service its role accesses, on the path of the contract's and the detail's
   * scope entities. Answers the lines of each step, in the reader's language; a failed step makes
   * it a 502 problem carrying them.
   */
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
      const directory = await directoryOf(workspaceId);

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
            const resource = regex ? `^${base}/${scope}/(.*)$` : `${base}/${scope}`;
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
