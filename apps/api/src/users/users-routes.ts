import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { contractDetails, identityManagerGrants, identityManagers, isAllowed } from "@orrery/model";
import type { Config } from "../config.ts";
import { asSegment } from "../auth/guard.ts";
import { KeyrockFailure, keyrockManagement, type KeyrockManagement } from "../auth/keyrock-management.ts";
import { address } from "../context-data/broker-access.ts";
import { registerDetailSynchronize } from "../contracts/detail-synchronize.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { requireOwnGrant } from "../trust/grant-peer.ts";
import { consoleRoles } from "./console-roles.ts";

/**
 * A user of the workspace's identity manager, with the names of the roles they hold in its
 * application: directly (which may be removed here) and through an organisation they belong to
 * (which only the organisation can take away).
 */
const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().optional(),
  roles: z.array(z.string()),
  organizationRoles: z.array(z.object({ role: z.string(), organization: z.string() })),
});

/** An organisation holding roles in the application that the management account may not read. */
const unreadableSchema = z.object({ id: z.string(), name: z.string() });

export type Step = "signIn" | "users" | "roles" | "organization";

/** The identity manager's management API for a workspace: its account, application and name. */
export interface Directory {
  management: KeyrockManagement;
  application: string;
  name: string;
  account: string;
}

/** The workspace's identity manager, through Keyrock's management API: shared by users and contract-detail synchronisation. */
export interface IdentityManagerClient {
  directoryOf(workspaceId: string): Promise<Directory>;
  /**
   * A management call; Keyrock's refusals and silences become 502 problems saying what to do,
   * except the statuses `tolerated`, answered as a bodiless response of that status.
   */
  call(
    directory: Directory,
    method: string,
    path: string,
    step: Step,
    body?: unknown,
    tolerated?: readonly number[],
  ): Promise<Response>;
  /** The list under `key` of a Keyrock answer; Keyrock's 404 is its empty list. */
  listOf<T>(response: Response, key: string): Promise<T[]>;
  /** /v1/applications/{the grant's clientId} */
  appPath(directory: Directory): string;
  rolesOf(directory: Directory): Promise<Array<{ id: string; name: string }>>;
  /** Refuses the console's own application: every role of it gives console permissions at sign-in. */
  refuseConsoleApplication(directory: Directory): void;
}

/**
 * The management API of the workspace's identity manager (Keyrock's /v1, or the development
 * identity manager's copy of it), signed in with the workspace's password grant; the application
 * is the grant's clientId. One management token per identity manager and grant, reused until it
 * expires and released when the API stops.
 */
function identityManagerClient(
  app: FastifyInstance,
  records: Records,
  config: Config,
): IdentityManagerClient {
  const held = new Map<string, { version: string; management: KeyrockManagement }>();
  const own = consoleRoles(config);
  app.addHook("onClose", async () => {
    await Promise.all([...held.values()].map((h) => h.management.release()));
  });

  async function directoryOf(workspaceId: string): Promise<Directory> {
    const workspace = await records.requireWorkspace(workspaceId);
    const { hasIdentityManager: idmId, hasIdentityManagerGrant: grantId } = workspace.data;
    const idm = idmId ? await records.find(identityManagers, String(idmId)) : undefined;
    const grant = grantId ? await records.find(identityManagerGrants, String(grantId)) : undefined;
    if (!idm || !grant) throw problem(400, "users.noIdentityManager");
    await requireOwnGrant(records, grant, idm);
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

  async function call(
    directory: Directory,
    method: string,
    path: string,
    step: Step,
    body?: unknown,
    tolerated: readonly number[] = [],
  ) {
    const { name, account, application } = directory;
    try {
      return await directory.management.call(method, path, step, body);
    } catch (err) {
      if (!(err instanceof KeyrockFailure)) throw err;
      if (err.status !== undefined && tolerated.includes(err.status))
        return new Response(null, { status: err.status });
      const what = err.what as Step | string;
      if (err.status === undefined) throw problem(502, "users.unreachable", { name, cause: err.reason });
      if (what.includes("sign-in"))
        throw problem(502, "users.signInRefused", { name, account, status: err.status, reason: err.reason });
      if (err.status === 403 && what === "users")
        throw problem(502, "users.notAdministrator", { name, account });
      if (err.status === 403 && what === "organization")
        throw problem(502, "users.organizationNotOwned", {
          name,
          account,
          organization: decodeURIComponent(path.split("/")[3] ?? ""),
        });
      if (err.status === 403) throw problem(502, "users.manageRoles", { name, account, application });
      throw problem(502, "users.refused", { name, status: err.status, reason: err.reason });
    }
  }

  async function listOf<T>(response: Response, key: string): Promise<T[]> {
    if (response.status === 404) return []; // Keyrock's empty list
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return Array.isArray(body[key]) ? (body[key] as T[]) : [];
  }

  const appPath = (directory: Directory) => `/v1/applications/${encodeURIComponent(directory.application)}`;

  async function rolesOf(directory: Directory) {
    const response = await call(directory, "GET", `${appPath(directory)}/roles`, "roles");
    return listOf<{ id: string; name: string }>(response, "roles");
  }

  function refuseConsoleApplication(directory: Directory) {
    if (own.isConsoleApplication(directory.application))
      throw problem(403, "users.consoleApplication", {
        name: directory.name,
        application: directory.application,
      });
  }

  return { directoryOf, call, listOf, appPath, rolesOf, refuseConsoleApplication };
}

/**
 * The users of a workspace (spec section 7) in the application of its identity manager, with the
 * roles they hold directly and through organisations (Keyrock lists those apart). Assigning or
 * removing a role needs update permission on a contract detail of the workspace that names the
 * role (its roleScopeName), and is refused for the console's own roles: giving a contract role
 * makes nobody more than they are.
 */
export function registerUsersRoutes(app: FastifyInstance, records: Records, config: Config): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const idm = identityManagerClient(app, records, config);
  const { call, listOf, appPath, rolesOf } = idm;
  const own = consoleRoles(config);

  /** Assigning or removing a role: update permission on a contract detail of the workspace naming it. */
  async function mayChange(request: FastifyRequest, workspaceId: string, roleName: string) {
    const permissions = request.session!.permissions;
    const base = `/api/workspace/${asSegment(workspaceId)}/contract-details`;
    const updatable = (id: string) => isAllowed(permissions, "PUT", `${base}/${asSegment(id)}`);
    if (!isAllowed(permissions, "GET", base))
      throw problem(403, "auth.forbidden", { method: request.method, path: base });
    const details = await records.list(contractDetails, workspaceId);
    // Who may update no contract detail, nor create one, gives no role: refused alike whether a
    // detail names it or not. Who may create one (an administrator in a workspace without any yet)
    // is told that none names the role: a 404, not a refusal of their rights.
    if (!details.some((d) => updatable(d.id)) && !isAllowed(permissions, "POST", base))
      throw problem(403, "users.forbidden", { role: roleName });
    if (own.isConsoleRole(roleName)) throw problem(403, "users.consoleRole", { role: roleName });
    const naming = details.filter((d) => d.roleScopeName === roleName);
    if (!naming.length) throw problem(404, "users.roleNotInContracts", { role: roleName });
    if (!naming.some((d) => updatable(d.id))) throw problem(403, "users.forbidden", { role: roleName });
  }

  /**
   * The organisations holding roles in the application: each one's name, members and role names;
   * and those the management account may not read. Keyrock lets only an organisation's owners read
   * it and its members (403 otherwise, administrators too: routes/api/organizations.js), and partner
   * organisations of a data space are not the account's: they are named (from the account's own
   * organisations, which Keyrock lists with their names, when it is a member; by id otherwise) and
   * the users list goes on without them.
   */
  async function organizationsOf(directory: Directory, names: Map<string, string>) {
    const assignments = await call(directory, "GET", `${appPath(directory)}/organizations`, "roles").then(
      (r) =>
        listOf<{ organization_id: string; role_organization: string; role_id: string }>(
          r,
          "role_organization_assignments",
        ),
    );
    const ids = [...new Set(assignments.filter((a) => names.has(a.role_id)).map((a) => a.organization_id))];
    const read = await Promise.all(
      ids.map(async (id) => {
        const path = `/v1/organizations/${encodeURIComponent(id)}`;
        const [info, members] = await Promise.all([
          readOrganization(directory, path),
          readOrganization(directory, `${path}/users`),
        ]);
        if (!info || !members) return { id, unreadable: true as const };
        const body = (await info.json().catch(() => ({}))) as { organization?: { name?: unknown } };
        const name = typeof body.organization?.name === "string" ? body.organization.name : id;
        const list = await listOf<{ user_id: string; role: string }>(members, "organization_users");
        // A role given to the organisation's members (or owners) reaches its members of that kind.
        const roleNames = (kind: string) =>
          assignments
            .filter((a) => a.organization_id === id && a.role_organization === kind)
            .map((a) => names.get(a.role_id)!);
        return { id, unreadable: false as const, name, members: list, roleNames };
      }),
    );
    const unreadableIds = read.filter((o) => o.unreadable).map((o) => o.id);
    const known = unreadableIds.length ? await ownOrganizationNames(directory) : new Map<string, string>();
    return {
      organizations: read.filter((o) => !o.unreadable),
      unreadable: unreadableIds
        .map((id) => ({ id, name: known.get(id) ?? id }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /**
   * An organisation or its members as Keyrock answers them; undefined when Keyrock refuses the
   * account (403: not an owner) or no longer knows the organisation (404 "Organization not found";
   * an organisation without members is an empty list, also a 404, which is answered).
   */
  async function readOrganization(directory: Directory, path: string): Promise<Response | undefined> {
    const response = await call(directory, "GET", path, "organization", undefined, [403]);
    if (response.status === 403 || (response.status === 404 && !path.endsWith("/users"))) return undefined;
    return response;
  }

  /** The organisations the account belongs to, with their names (Keyrock's GET /v1/organizations). */
  async function ownOrganizationNames(directory: Directory): Promise<Map<string, string>> {
    const response = await call(directory, "GET", "/v1/organizations", "organization");
    const list = await listOf<{ Organization?: { id?: unknown; name?: unknown } }>(response, "organizations");
    return new Map(
      list.flatMap(({ Organization: o }) =>
        typeof o?.id === "string" && typeof o.name === "string" ? [[o.id, o.name] as const] : [],
      ),
    );
  }

  const workspaceParams = z.object({ workspaceId: z.string() });
  const roleParams = z.object({ workspaceId: z.string(), userId: z.string(), roleName: z.string().min(1) });
  const tags = ["users"];

  api.get(
    "/api/workspace/:workspaceId/users",
    {
      schema: {
        tags,
        summary:
          "The users of the workspace's identity manager with their roles; with include=unreadableOrganizations, also the organisations holding roles that the management account may not read",
        params: workspaceParams,
        querystring: z.object({ include: z.literal("unreadableOrganizations").optional() }).strict(),
        response: {
          200: z.union([
            z.array(userSchema),
            z.object({ users: z.array(userSchema), unreadableOrganizations: z.array(unreadableSchema) }),
          ]),
        },
      },
    },
    async (request) => {
      const directory = await idm.directoryOf(request.params.workspaceId);
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
      const { organizations, unreadable } = await organizationsOf(directory, names);
      const sorted = (list: string[]) => [...new Set(list)].sort();
      const listed = users
        .map((u) => ({
          id: String(u.id),
          username: String(u.username ?? u.email ?? u.id),
          ...(u.email ? { email: String(u.email) } : {}),
          roles: sorted(
            assignments
              .filter((a) => a.user_id === u.id && names.has(a.role_id))
              .map((a) => names.get(a.role_id)!),
          ),
          organizationRoles: organizations
            .flatMap((o) =>
              o.members
                .filter((m) => m.user_id === u.id)
                .flatMap((m) => o.roleNames(m.role).map((role) => ({ role, organization: o.name }))),
            )
            .sort((a, b) => `${a.role} ${a.organization}`.localeCompare(`${b.role} ${b.organization}`)),
        }))
        .sort((a, b) => a.username.localeCompare(b.username));
      // The spec's answer is the list alone: the organisations left out only for who asks for them.
      return request.query.include ? { users: listed, unreadableOrganizations: unreadable } : listed;
    },
  );

  /** Who is changed, in which identity manager, once the caller may change the role. */
  async function change(request: FastifyRequest<{ Params: z.infer<typeof roleParams> }>) {
    const { workspaceId, userId, roleName } = request.params;
    await mayChange(request, workspaceId, roleName);
    const directory = await idm.directoryOf(workspaceId);
    idm.refuseConsoleApplication(directory);
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
    // PUT: Keyrock keeps POST on this route only as deprecated.
    const assigned = await call(directory, "PUT", assignment(role.id), "roles");
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

  registerDetailSynchronize(app, records, config, idm);
}
