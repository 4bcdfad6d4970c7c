import { randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../storage/database.ts";
import { devIdmPermissions, devIdmRoleAssignments, devIdmRoles } from "../../storage/schema.ts";
import { checkDemoPassword, demoUsers } from "./dev.ts";

/** A demo user's e-mail address (Keyrock's management sign-in takes the address as its name). */
const emailOf = (username: string) => `${username}@example.org`;
const TOKEN_LIFETIME_MS = 60 * 60_000;

/**
 * The console's own application at the development identity manager: its roles are the demo users'
 * (config/permissions.yaml's), each role's id its name, held as dev.ts says. They are fixed in code,
 * so the directory lists them and refuses to change them.
 */
export const DEV_CONSOLE_APPLICATION = "orrery-console";
const consoleRoleNames = [...new Set(demoUsers.flatMap((u) => u.roles))];

const fail = (reply: FastifyReply, status: number, message: string, title: string) =>
  reply.code(status).send({ error: { message, code: status, title } });

/**
 * The development identity manager's user directory, at /idm/v1 with the part of Keyrock's
 * management API that Orrery uses for the users of a workspace: so that a workspace wired to it
 * is driven by the same Keyrock client, over HTTP, as a real Keyrock. The users are the demo users
 * (their id is the user name); an application's roles and their holders are kept in the database.
 * Only the demo administrator may manage it, with a token from POST /idm/v1/auth/tokens. An
 * application's permissions (each in at most one role) serve contract detail synchronisation. It
 * has no organisations.
 */
export function registerDevDirectory(app: FastifyInstance, db: Database): void {
  const tokens = new Map<string, number>();
  const base = "/idm/v1";
  const config = { access: "public" as const };
  const schema = { hide: true };

  /** The management token's check; answers and returns false when it fails. */
  function managed(request: FastifyRequest, reply: FastifyReply): boolean {
    const token = request.headers["x-auth-token"];
    if (typeof token !== "string" || !token) {
      void fail(reply, 400, "Expecting to find X-Auth-token/Authorization in requests", "Bad Request");
      return false;
    }
    const until = tokens.get(token);
    if (until === undefined || until < Date.now()) {
      tokens.delete(token);
      void fail(reply, 404, "Token not found", "Not Found");
      return false;
    }
    return true;
  }

  /** The console application's roles are fixed: a change answers as Keyrock does without "Manage roles". */
  function fixed(request: FastifyRequest, reply: FastifyReply): boolean {
    if ((request.params as { app?: string }).app !== DEV_CONSOLE_APPLICATION) return false;
    void fail(reply, 403, "User not authorized to perform action", "Forbidden");
    return true;
  }

  const roleIn = async (application: string, id: string) =>
    (
      await db
        .select()
        .from(devIdmRoles)
        .where(and(eq(devIdmRoles.application, application), eq(devIdmRoles.id, id)))
    )[0];

  app.post(`${base}/auth/tokens`, { config, schema }, async (request, reply) => {
    const body = (request.body ?? {}) as { name?: unknown; password?: unknown };
    const name = String(body.name ?? "").replace(/@example\.org$/, "");
    const user = checkDemoPassword(name, String(body.password ?? ""));
    if (!user) return fail(reply, 401, "Invalid email or password", "Unauthorized");
    if (!(user.roles as readonly string[]).includes("admin"))
      return fail(reply, 403, "User not authorized to perform action", "Forbidden");
    const token = randomBytes(24).toString("base64url");
    const until = Date.now() + TOKEN_LIFETIME_MS;
    tokens.set(token, until);
    return reply
      .code(201)
      .header("x-subject-token", token)
      .send({ token: { methods: ["password"], expires_at: new Date(until).toISOString() } });
  });

  app.delete(`${base}/auth/tokens`, { config, schema }, async (request, reply) => {
    if (!managed(request, reply)) return reply;
    tokens.delete(String(request.headers["x-subject-token"] ?? ""));
    return reply.code(204).send();
  });

  app.get(`${base}/users`, { config, schema }, async (request, reply) => {
    if (!managed(request, reply)) return reply;
    return reply.code(201).send({
      users: demoUsers.map((u) => ({
        id: u.username,
        username: u.username,
        email: emailOf(u.username),
        enabled: true,
      })),
    });
  });

  app.get(`${base}/applications/:app/roles`, { config, schema }, async (request, reply) => {
    if (!managed(request, reply)) return reply;
    const { app: application } = request.params as { app: string };
    if (application === DEV_CONSOLE_APPLICATION)
      return { roles: consoleRoleNames.map((name) => ({ id: name, name })) };
    const roles = await db
      .select({ id: devIdmRoles.id, name: devIdmRoles.name })
      .from(devIdmRoles)
      .where(eq(devIdmRoles.application, application));
    if (!roles.length) return fail(reply, 404, "Roles not found", "Not Found");
    return { roles };
  });

  app.post(`${base}/applications/:app/roles`, { config, schema }, async (request, reply) => {
    if (!managed(request, reply) || fixed(request, reply)) return reply;
    const { app: application } = request.params as { app: string };
    const name = (request.body as { role?: { name?: unknown } } | undefined)?.role?.name;
    if (typeof name !== "string" || !name.trim())
      return fail(reply, 400, "Missing parameter name in body request or empty name", "Bad Request");
    const role = { application, id: randomUUID(), name };
    await db.insert(devIdmRoles).values(role);
    return reply
      .code(201)
      .send({ role: { id: role.id, is_internal: false, name, oauth_client_id: application } });
  });

  const assignmentList = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!managed(request, reply)) return reply;
    const { app: application, user } = request.params as { app: string; user?: string };
    const rows =
      application === DEV_CONSOLE_APPLICATION
        ? demoUsers
            .filter((u) => user === undefined || u.username === user)
            .flatMap((u) => u.roles.map((role) => ({ user_id: u.username, role_id: role })))
        : await db
            .select({ user_id: devIdmRoleAssignments.userId, role_id: devIdmRoleAssignments.roleId })
            .from(devIdmRoleAssignments)
            .where(
              and(
                eq(devIdmRoleAssignments.application, application),
                user === undefined ? undefined : eq(devIdmRoleAssignments.userId, user),
              ),
            );
    if (!rows.length) return fail(reply, 404, "Assignments not found", "Not Found");
    return { role_user_assignments: rows };
  };
  app.get(`${base}/applications/:app/users`, { config, schema }, assignmentList);
  app.get(`${base}/applications/:app/users/:user/roles`, { config, schema }, assignmentList);
  // Roles held through organisations: none here, Keyrock's empty list.
  app.get(`${base}/applications/:app/organizations`, { config, schema }, async (request, reply) => {
    if (!managed(request, reply)) return reply;
    return fail(reply, 404, "Assignments not found", "Not Found");
  });

  app.post(`${base}/applications/:app/permissions`, { config, schema }, async (request, reply) => {
    if (!managed(request, reply) || fixed(request, reply)) return reply;
    const { app: application } = request.params as { app: string };
    const p = (request.body as { permission?: Record<string, unknown> } | undefined)?.permission;
    if (typeof p?.name !== "string" || !p.name)
      return fail(reply, 400, "Missing parameter name in body request or empty name", "Bad Request");
    if (typeof p.action !== "string" || typeof p.resource !== "string")
      return fail(reply, 400, "Missing parameter action or resource in body request", "Bad Request");
    const permission = {
      application,
      id: randomUUID(),
      name: p.name,
      action: p.action,
      resource: p.resource,
      isRegex: p.is_regex === true,
    };
    await db.insert(devIdmPermissions).values(permission);
    return reply.code(201).send({
      permission: {
        id: permission.id,
        is_internal: false,
        name: permission.name,
        action: permission.action,
        resource: permission.resource,
        is_regex: permission.isRegex,
        oauth_client_id: application,
      },
    });
  });

  const permissionWhere = (application: string, id: string) =>
    and(eq(devIdmPermissions.application, application), eq(devIdmPermissions.id, id));

  app.delete(
    `${base}/applications/:app/permissions/:permission`,
    { config, schema },
    async (request, reply) => {
      if (!managed(request, reply)) return reply;
      const { app: application, permission } = request.params as { app: string; permission: string };
      const removed = await db
        .delete(devIdmPermissions)
        .where(permissionWhere(application, permission))
        .returning();
      if (!removed.length) return fail(reply, 404, "Permission not found", "Not Found");
      return reply.code(204).send();
    },
  );

  app.get(`${base}/applications/:app/roles/:role/permissions`, { config, schema }, async (request, reply) => {
    if (!managed(request, reply)) return reply;
    const { app: application, role } = request.params as { app: string; role: string };
    const rows = await db
      .select()
      .from(devIdmPermissions)
      .where(and(eq(devIdmPermissions.application, application), eq(devIdmPermissions.roleId, role)));
    if (!rows.length) return fail(reply, 404, "Assignments not found", "Not Found");
    return {
      role_permission_assignments: rows.map((p) => ({
        id: p.id,
        is_internal: false,
        name: p.name,
        description: null,
        action: p.action,
        resource: p.resource,
        xml: null,
      })),
    };
  });

  app.route({
    method: ["POST", "PUT"],
    url: `${base}/applications/:app/roles/:role/permissions/:permission`,
    config,
    schema,
    handler: async (request, reply) => {
      if (!managed(request, reply)) return reply;
      const {
        app: application,
        role,
        permission,
      } = request.params as {
        app: string;
        role: string;
        permission: string;
      };
      if (!(await roleIn(application, role))) return fail(reply, 404, "Role not found", "Not Found");
      const updated = await db
        .update(devIdmPermissions)
        .set({ roleId: role })
        .where(permissionWhere(application, permission))
        .returning();
      if (!updated.length) return fail(reply, 404, "Permission not found", "Not Found");
      return reply
        .code(201)
        .send({ role_permission_assignments: { role_id: role, permission_id: permission } });
    },
  });

  app.route({
    method: ["POST", "PUT", "DELETE"],
    url: `${base}/applications/:app/users/:user/roles/:role`,
    config,
    schema,
    handler: async (request, reply) => {
      if (!managed(request, reply) || fixed(request, reply)) return reply;
      const { app: application, user, role } = request.params as { app: string; user: string; role: string };
      if (!demoUsers.some((u) => u.username === user)) return fail(reply, 404, "User not found", "Not Found");
      if (!(await roleIn(application, role))) return fail(reply, 404, "Role not found", "Not Found");
      const assignment = { application, userId: user, roleId: role };
      if (request.method === "DELETE") {
        const removed = await db
          .delete(devIdmRoleAssignments)
          .where(
            and(
              eq(devIdmRoleAssignments.application, application),
              eq(devIdmRoleAssignments.userId, user),
              eq(devIdmRoleAssignments.roleId, role),
            ),
          )
          .returning();
        if (!removed.length) return fail(reply, 404, "Assignments not found", "Not Found");
        return reply.code(204).send();
      }
      await db.insert(devIdmRoleAssignments).values(assignment).onConflictDoNothing();
      return reply.code(201).send({
        role_user_assignments: { role_id: role, user_id: user, oauth_client_id: application },
      });
    },
  });
}
