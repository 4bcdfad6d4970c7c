import type { IncomingMessage, ServerResponse } from "node:http";
import { basicCredentials, isForm, listen, readBody, redirect, sendJson, type Listening } from "./http.ts";
import { opaque } from "./pkce.ts";

/**
 * A fake FIWARE Keyrock 8.4 that answers as the real one does (its source, ging/fiware-idm, and
 * notes/keyrock-real.md), odd parts included:
 * - /oauth2/authorize shows a login form, then the application's consent page, and keeps the user
 *   signed in with a session cookie (single sign-on); it ignores PKCE and echoes code_challenge.
 * - errors are bare JSON strings on /oauth2 and /user, `{error:{message,code,title}}` on /v1, HTML
 *   pages (status 200) for an unknown client on /oauth2/authorize; an empty list is a 404.
 * - /user names the application roles a user holds directly and through organisations
 *   (`organizations[].roles`), with `displayName` "".
 * - the role-permission list never carries `is_regex`; only the read of one permission does (0/1,
 *   as MariaDB answers it). Both need the management account to hold "Manage roles".
 * - /oauth2/token also grants `password` (username = the email) and `client_credentials`.
 * - /auth/external_logout ends the Keyrock session and sends the browser to the application's URL.
 * - the management API's users (GET /v1/users, for administrators only, answers 201), the
 *   application's roles (with `urls`, internal ones included, ordered by id descending), role
 *   creation, and user role assignments (the list of the application's, one user's, assign with
 *   POST or PUT and a JSON content type, remove) with Keyrock's bodies and 404s; POST is kept as
 *   "deprecated" in Keyrock's routes, and the fake notes each use of it.
 * - the organisations' roles in the application (`role_organization` "member", never in the
 *   application's user list), and an organisation and its members, readable only by an owner of
 *   the organisation (403 "User not allow to perform the action" otherwise, administrators too),
 *   and the account's own organisations (GET /v1/organizations, members' too, with their names).
 */

export interface KeyrockPermission {
  id: string;
  name: string;
  action?: string | null;
  resource?: string | null;
  is_regex?: boolean;
  is_internal?: boolean;
  description?: string | null;
  xml?: string | null;
}

export interface KeyrockRole {
  id: string;
  name: string;
  permissions: KeyrockPermission[];
}

export interface KeyrockUser {
  id: string;
  username: string;
  email: string;
  password: string;
  /** Ids of the user's roles in the application. */
  roles: string[];
}

export interface KeyrockOrganization {
  id: string;
  name: string;
  /** Members' user ids. */
  members: string[];
  /** Ids of the organisation's roles in the application. */
  roles: string[];
  /** Whether the management account owns the organisation, which alone lets it read it (default true). */
  ownedByAdmin?: boolean;
  /**
   * Whether the management account is a plain member of an organisation it does not own: Keyrock
   * then lists it (with its name) in GET /v1/organizations, but still refuses to read it.
   */
  adminIsMember?: boolean;
}

export interface FakeKeyrockOptions {
  clientId: string;
  clientSecret: string;
  /** The application's URL, where external_logout sends the browser. */
  appUrl?: string;
  /** The application's name, as GET /v1/applications/{app} gives it (default "Orrery console"). */
  appName?: string;
  /** The application's registered callback URLs; when omitted any redirect_uri is accepted. */
  redirectUris?: string[];
  /** The account that may use the management API (POST /v1/auth/tokens takes its email as name). */
  admin: { email: string; password: string; username?: string };
  /** Whether the management account holds the application's "Manage roles" permission (default true). */
  adminManagesRoles?: boolean;
  /** Whether the management account is a Keyrock administrator, who alone may list users (default true). */
  adminIsAdministrator?: boolean;
  users: KeyrockUser[];
  organizations?: KeyrockOrganization[];
  roles: KeyrockRole[];
  /** Lifetime of access tokens in seconds; Keyrock's default is 3599. */
  expiresIn?: number;
}

export interface FakeKeyrock extends Listening {
  /** Every OAuth2 access token issued, to assert none of them reaches a log line. */
  readonly issuedTokens: readonly string[];
  /** Management tokens issued and not deleted. */
  readonly liveAdminTokens: () => number;
  /** Gives the management account "Manage roles" on the application, or takes it away, as in Keyrock's pages. */
  setAdminManagesRoles(granted: boolean): void;
  /** Changes a user's roles, as an administrator would in Keyrock's pages. */
  setRoles(userId: string, roles: string[]): void;
  /** A user's role ids in the application now. */
  rolesOf(userId: string): string[];
  /** The application's roles now (internal ones included). */
  roleNames(): string[];
  /** The permissions of the role with that name now. */
  permissionsOf(roleName: string): KeyrockPermission[];
  /** Keyrock sessions (SSO cookies) still open. */
  readonly openSessions: () => number;
  /** The calls made on routes Keyrock marks deprecated ("POST /v1/..."). */
  readonly deprecatedCalls: readonly string[];
}

/** Keyrock's own roles on every application; their permissions have no action or resource. */
const internalRoles: KeyrockRole[] = [
  {
    id: "provider",
    name: "Provider",
    permissions: [
      { id: "1", name: "Get and assign all internal application roles", is_internal: true },
      { id: "2", name: "Manage the application", is_internal: true },
      { id: "5", name: "Get and assign all public application roles", is_internal: true },
    ],
  },
  {
    id: "purchaser",
    name: "Purchaser",
    permissions: [{ id: "5", name: "Get and assign all public application roles", is_internal: true }],
  },
];

interface Grant {
  redirectUri: string;
  userId: string;
  expiresAt: number;
}

const keyrockError = (res: ServerResponse, status: number, message: string) => sendJson(res, status, message);
const apiError = (res: ServerResponse, status: number, message: string, title: string) =>
  sendJson(res, status, { error: { message, code: status, title } });
const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
  res.end(`<!DOCTYPE html><html><body>${body}</body></html>`);
};
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const cookieOf = (req: IncomingMessage) => /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];

export async function startFakeKeyrock(options: FakeKeyrockOptions): Promise<FakeKeyrock> {
  const roles = [...internalRoles, ...options.roles];
  const loose = new Map<string, KeyrockPermission>(); // permissions made and in no role yet
  const users = options.users.map((u) => ({ ...u, roles: [...u.roles] }));
  const organizations = options.organizations ?? [];
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, { userId: string; expiresAt: number }>();
  const adminTokens = new Map<string, number>();
  const sessions = new Map<string, string>(); // cookie -> user id
  const consents = new Set<string>(); // user ids that authorised the application
  const issuedTokens: string[] = [];
  const deprecatedCalls: string[] = [];
  let adminManagesRoles = options.adminManagesRoles !== false;
  const expiresIn = options.expiresIn ?? 3599;

  /** Checks client and redirect_uri as Keyrock does; answers and returns false when they are wrong. */
  function checkClient(res: ServerResponse, query: URLSearchParams): boolean {
    if (query.get("client_id") !== options.clientId) {
      html(res, 200, "<h1>Error</h1><p>invalid client</p>");
      return false;
    }
    const redirectUri = query.get("redirect_uri") ?? "";
    if (!redirectUri || (options.redirectUris && !options.redirectUris.includes(redirectUri))) {
      html(res, 200, "<h1>Error</h1><p>Mismatching redirect uri</p>");
      return false;
    }
    if (!query.get("state")) {
      keyrockError(res, 400, "Invalid request: Missing parameter: `state`");
      return false;
    }
    return true;
  }

  function issueCode(res: ServerResponse, query: URLSearchParams, userId: string) {
    const target = new URL(query.get("redirect_uri")!);
    if (query.get("response_type") !== "code") {
      target.searchParams.set("error", "unsupported_response_type");
      return redirect(res, target.toString());
    }
    const code = opaque(20);
    codes.set(code, { redirectUri: query.get("redirect_uri")!, userId, expiresAt: Date.now() + 300_000 });
    target.searchParams.set("code", code);
    target.searchParams.set("state", query.get("state")!);
    // Keyrock echoes what it does not use (it does not check PKCE).
    const challenge = query.get("code_challenge");
    if (challenge) target.searchParams.set("code_challenge", challenge);
    return redirect(res, target.toString());
  }

  const loginForm = (query: URLSearchParams, error?: string) =>
    `<h1>Sign in</h1>${error ? `<p class="alert">${escape(error)}</p>` : ""}
<form method="post" action="/oauth2/authorize?${escape(query.toString())}">
<input type="hidden" name="_csrf" value="${opaque(8)}">
<input type="text" name="email"><input type="password" name="password"><button>Sign in</button></form>`;

  const consentForm = (query: URLSearchParams) =>
    `<h1>Authorize Orrery</h1><form method="post" action="/oauth2/enable_app?${escape(query.toString())}">
<input type="hidden" name="_csrf" value="${opaque(8)}"><button name="action" value="allow">Authorize</button></form>`;

  async function authorize(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (!checkClient(res, query)) return;
    let userId = sessions.get(cookieOf(req) ?? "");
    const headers: Record<string, string> = {};
    if (req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      const user = users.find((u) => u.email === form.get("email") && u.password === form.get("password"));
      if (!user) return html(res, 200, loginForm(query, "Invalid email or password"));
      const cookie = opaque(16);
      sessions.set(cookie, user.id);
      headers["set-cookie"] = `session=${cookie}; Path=/; HttpOnly`;
      userId = user.id;
    }
    if (!userId) return html(res, 200, loginForm(query));
    if (consents.has(userId)) {
      if (headers["set-cookie"]) res.setHeader("set-cookie", headers["set-cookie"]);
      return issueCode(res, query, userId);
    }
    return html(res, 200, consentForm(query), headers);
  }

  async function enableApp(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (!checkClient(res, query)) return;
    const userId = sessions.get(cookieOf(req) ?? "");
    if (!userId) return html(res, 200, loginForm(query));
    const form = new URLSearchParams(await readBody(req));
    // Deny takes the user to Keyrock's home; nothing comes back to the application.
    if (form.get("action") !== "allow") return redirect(res, "/");
    consents.add(userId);
    return issueCode(res, query, userId);
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    if (!isForm(req))
      return keyrockError(res, 400, "Invalid request: content must be application/x-www-form-urlencoded");
    const form = new URLSearchParams(await readBody(req));
    const client = basicCredentials(req.headers.authorization, false) ?? {
      id: form.get("client_id") ?? "",
      secret: form.get("client_secret") ?? "",
    };
    if (client.id !== options.clientId || client.secret !== options.clientSecret)
      return keyrockError(res, 401, "Invalid client: client is invalid");
    if (
      !["authorization_code", "refresh_token", "password", "client_credentials"].includes(
        form.get("grant_type") ?? "",
      )
    )
      return keyrockError(res, 400, "Unauthorized client: `grant_type` is invalid");
    // A token for the application itself (notes/trust-and-peers.md 2.1: Keyrock 8.4 grants it).
    if (form.get("grant_type") === "client_credentials") {
      const accessToken = opaque(20);
      issuedTokens.push(accessToken);
      return sendJson(res, 200, {
        access_token: accessToken,
        token_type: "bearer",
        expires_in: expiresIn,
        scope: ["bearer"],
      });
    }
    /** A user's access token, as Keyrock answers a password or an authorization code grant. */
    const userToken = (userId: string) => {
      const accessToken = opaque(20);
      accessTokens.set(accessToken, { userId, expiresAt: Date.now() + expiresIn * 1000 });
      issuedTokens.push(accessToken);
      return sendJson(res, 200, {
        access_token: accessToken,
        token_type: "bearer",
        expires_in: expiresIn,
        refresh_token: opaque(20),
        scope: ["bearer"],
      });
    };
    // The resource owner password grant (notes/trust-and-peers.md 1.1): the username is the email.
    if (form.get("grant_type") === "password") {
      const user = users.find((u) => u.email === form.get("username") && u.password === form.get("password"));
      if (!user) return keyrockError(res, 400, "Invalid grant: user credentials are invalid");
      return userToken(user.id);
    }
    const code = form.get("code") ?? "";
    const grant = codes.get(code);
    if (!grant || grant.expiresAt < Date.now())
      return keyrockError(res, 400, "Invalid grant: authorization code is invalid");
    // A wrong redirect_uri does not burn the code (Keyrock's behaviour).
    if (form.get("redirect_uri") !== grant.redirectUri)
      return keyrockError(res, 400, "Invalid request: `redirect_uri` is invalid");
    codes.delete(code);
    return userToken(grant.userId);
  }

  const roleRef = (id: string) => {
    const role = roles.find((r) => r.id === id);
    return role ? [{ id: role.id, name: role.name }] : [];
  };

  function userInfo(res: ServerResponse, query: URLSearchParams) {
    const entry = accessTokens.get(query.get("access_token") ?? "");
    const user = entry && entry.expiresAt > Date.now() && users.find((u) => u.id === entry.userId);
    if (!user) return keyrockError(res, 401, "Invalid token: access token is invalid");
    return sendJson(res, 200, {
      organizations: organizations
        .filter((o) => o.members.includes(user.id))
        .map((o) => ({
          id: o.id,
          name: o.name,
          description: "",
          website: null,
          roles: o.roles.flatMap(roleRef),
        })),
      displayName: "",
      roles: user.roles.flatMap(roleRef),
      app_id: options.clientId,
      trusted_apps: [],
      isGravatarEnabled: false,
      image: "",
      email: user.email,
      id: user.id,
      authorization_decision: "",
      app_azf_domain: "",
      eidas_profile: {},
      attributes: {},
      shared_attributes: "",
      username: user.username,
      sub: user.id,
      given_name: "",
      family_name: "",
      gravatar: "",
      extra: {},
    });
  }

  async function apiToken(req: IncomingMessage, res: ServerResponse) {
    if (req.method === "DELETE") {
      const auth = String(req.headers["x-auth-token"] ?? "");
      const subject = String(req.headers["x-subject-token"] ?? "");
      if (!adminTokens.has(auth) || !adminTokens.has(subject))
        return apiError(res, 404, "Token not found", "Not Found");
      adminTokens.delete(subject);
      res.writeHead(204).end();
      return;
    }
    if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
      return apiError(res, 400, "Missing parameter: header Content-Type: application/json", "Bad Request");
    let body: { name?: unknown; password?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return apiError(res, 400, "Invalid JSON body", "Bad Request");
    }
    if (body.name !== options.admin.email || body.password !== options.admin.password)
      return apiError(res, 401, "Invalid email or password", "Unauthorized");
    const subjectToken = opaque(16);
    const expiresAt = Date.now() + 3600_000;
    adminTokens.set(subjectToken, expiresAt);
    return sendJson(
      res,
      201,
      {
        token: { methods: ["password"], expires_at: new Date(expiresAt).toISOString() },
        idm_authorization_config: { level: "basic", authzforce: false },
      },
      { "x-subject-token": subjectToken },
    );
  }

  /** The management API's checks of its token and of the "Manage roles" permission. */
  function management(req: IncomingMessage, res: ServerResponse, appId?: string): boolean {
    const authToken = req.headers["x-auth-token"];
    if (typeof authToken !== "string" || !authToken) {
      apiError(res, 400, "Expecting to find X-Auth-token/Authorization in requests", "Bad Request");
      return false;
    }
    const expiresAt = adminTokens.get(authToken);
    if (expiresAt === undefined) {
      apiError(res, 404, "Token not found", "Not Found");
      return false;
    }
    if (expiresAt < Date.now()) {
      apiError(res, 401, "Token has expired", "Unauthorized");
      return false;
    }
    if (appId === undefined) return true; // not an application's route: the token is enough
    if (appId !== options.clientId) {
      apiError(res, 404, "Application not found", "Not Found");
      return false;
    }
    if (!adminManagesRoles) {
      apiError(res, 403, "User not authorized to perform action", "Forbidden");
      return false;
    }
    return true;
  }

  function rolePermissions(res: ServerResponse, roleId: string) {
    const role = roles.find((r) => r.id === roleId);
    if (!role) return apiError(res, 404, "Role not found", "Not Found");
    if (!role.permissions.length) return apiError(res, 404, "Assignments not found", "Not Found");
    // The fields of Keyrock's role_permission_assignments index: no is_regex.
    return sendJson(res, 200, {
      role_permission_assignments: role.permissions.map((p) => ({
        id: p.id,
        is_internal: p.is_internal ?? false,
        name: p.name,
        description: p.description ?? null,
        action: p.action ?? null,
        resource: p.resource ?? null,
        xml: p.xml ?? null,
      })),
    });
  }

  function permission(res: ServerResponse, permissionId: string) {
    const found = roles.flatMap((r) => r.permissions).find((p) => p.id === permissionId);
    if (!found) return apiError(res, 404, "permission not found", "Not Found");
    return sendJson(res, 200, {
      permission: {
        id: found.id,
        is_internal: found.is_internal ? 1 : 0,
        name: found.name,
        description: found.description ?? null,
        action: found.action ?? null,
        resource: found.resource ?? null,
        authorization_service_header: null,
        use_authorization_service_header: 0,
        regex_entity_ids: null,
        regex_attributes: null,
        regex_types: null,
        xml: found.xml ?? null,
        is_regex: found.is_regex ? 1 : 0,
        oauth_client_id: options.clientId,
      },
    });
  }

  /** GET /v1/users: every user, for administrators only; Keyrock answers it with 201. */
  function userList(res: ServerResponse) {
    if (options.adminIsAdministrator === false)
      return apiError(res, 403, "User not authorized to perform action", "Forbidden");
    return sendJson(res, 201, {
      users: users.map((u) => ({
        id: u.id,
        username: u.username,
        email: u.email,
        enabled: true,
        gravatar: false,
        date_password: "2026-01-05T10:00:00.000Z",
        description: null,
        website: null,
      })),
    });
  }

  function roleIndex(res: ServerResponse) {
    const sorted = [...roles].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return sendJson(res, 200, {
      roles: sorted.map((r) => ({
        id: r.id,
        name: r.name,
        urls: { permissions_url: `/v1/roles/${r.id}/permissions` },
      })),
    });
  }

  async function createRole(req: IncomingMessage, res: ServerResponse) {
    if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
      return apiError(res, 400, "Missing parameter: header Content-Type: application/json", "Bad Request");
    const body = JSON.parse((await readBody(req)) || "{}") as { role?: { name?: unknown } };
    if (!body.role) return apiError(res, 400, "Missing parameter role in body request", "Bad Request");
    if (!body.role.name)
      return apiError(res, 400, "Missing parameter name in body request or empty name", "Bad Request");
    const role = { id: crypto.randomUUID(), name: String(body.role.name), permissions: [] };
    roles.push(role);
    return sendJson(res, 201, {
      role: { id: role.id, is_internal: false, name: role.name, oauth_client_id: options.clientId },
    });
  }

  /** role_user_assignments of the application or of one user; an empty list is a 404. */
  function assignments(res: ServerResponse, userId?: string) {
    const list = users
      .filter((u) => userId === undefined || u.id === userId)
      .flatMap((u) => u.roles.map((roleId) => ({ user_id: u.id, role_id: roleId })));
    if (!list.length) return apiError(res, 404, "Assignments not found", "Not Found");
    return sendJson(res, 200, { role_user_assignments: list });
  }

  async function assignment(req: IncomingMessage, res: ServerResponse, userId: string, roleId: string) {
    const user = users.find((u) => u.id === userId);
    if (!user) return apiError(res, 404, "User not found", "Not Found");
    if (!roles.some((r) => r.id === roleId)) return apiError(res, 404, "Role not found", "Not Found");
    if (req.method === "DELETE") {
      if (!user.roles.includes(roleId)) return apiError(res, 404, "Assignments not found", "Not Found");
      user.roles = user.roles.filter((r) => r !== roleId);
      res.writeHead(204).end();
      return;
    }
    if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
      return apiError(res, 400, "Missing parameter: header Content-Type: application/json", "Bad Request");
    if (!user.roles.includes(roleId)) user.roles.push(roleId);
    return sendJson(res, 201, {
      role_user_assignments: { role_id: roleId, user_id: userId, oauth_client_id: options.clientId },
    });
  }

  /** GET /v1/applications/{app}/organizations: the organisations' roles in the application. */
  function organizationAssignments(res: ServerResponse) {
    const list = organizations.flatMap((o) =>
      o.roles.map((roleId) => ({ organization_id: o.id, role_organization: "member", role_id: roleId })),
    );
    if (!list.length) return apiError(res, 404, "Assignments not found", "Not Found");
    return sendJson(res, 200, { role_organization_assignments: list });
  }

  /**
   * GET /v1/organizations: the organisations the account belongs to, as owner or member, each as
   * Keyrock's Sequelize include names it (`Organization`); 404 when none.
   */
  function ownOrganizations(res: ServerResponse) {
    const list = organizations.flatMap((o) =>
      o.ownedByAdmin !== false || o.adminIsMember
        ? [
            {
              role: o.ownedByAdmin !== false ? "owner" : "member",
              Organization: { id: o.id, name: o.name, description: "", image: "default", website: null },
            },
          ]
        : [],
    );
    if (!list.length) return apiError(res, 404, "Organizations not found", "Not Found");
    return sendJson(res, 200, { organizations: list });
  }

  /** GET /v1/organizations/{org} and its /users: for the organisation's owners only. */
  function organization(res: ServerResponse, organizationId: string, members: boolean) {
    const found = organizations.find((o) => o.id === organizationId);
    if (!found) return apiError(res, 404, "Organization not found", "Not Found");
    if (found.ownedByAdmin === false)
      return apiError(res, 403, "User not allow to perform the action", "Forbidden");
    if (!members)
      return sendJson(res, 200, {
        organization: { id: found.id, name: found.name, description: "", website: null, image: "default" },
      });
    if (!found.members.length) return apiError(res, 404, "Assignments not found", "Not Found");
    return sendJson(res, 200, {
      organization_users: found.members.map((userId) => ({
        user_id: userId,
        organization_id: found.id,
        role: "member",
      })),
    });
  }

  /** POST /v1/applications/{app}/permissions: a permission of the application, not yet in a role. */
  async function createPermission(req: IncomingMessage, res: ServerResponse) {
    if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
      return apiError(res, 400, "Missing parameter: header Content-Type: application/json", "Bad Request");
    const body = JSON.parse((await readBody(req)) || "{}") as { permission?: Record<string, unknown> };
    const p = body.permission;
    if (!p?.name)
      return apiError(res, 400, "Missing parameter name in body request or empty name", "Bad Request");
    if (!p.xml && (!p.action || !p.resource))
      return apiError(res, 400, "Missing parameter action or resource in body request", "Bad Request");
    const permission: KeyrockPermission = {
      id: crypto.randomUUID(),
      name: String(p.name),
      action: String(p.action),
      resource: String(p.resource),
      is_regex: p.is_regex === true || p.is_regex === 1,
    };
    loose.set(permission.id, permission);
    return sendJson(res, 201, {
      permission: { ...permission, is_internal: false, oauth_client_id: options.clientId },
    });
  }

  /** DELETE a permission (from the roles holding it too); PUT or POST one into a role. */
  function permissionChange(
    req: IncomingMessage,
    res: ServerResponse,
    permissionId: string,
    roleId?: string,
  ) {
    const held = roles.flatMap((r) => r.permissions).find((p) => p.id === permissionId);
    const permission = loose.get(permissionId) ?? held;
    if (!permission) return apiError(res, 404, "Permission not found", "Not Found");
    if (permission.is_internal) return apiError(res, 403, "Not allowed", "Forbidden");
    if (req.method === "DELETE" && !roleId) {
      loose.delete(permissionId);
      for (const role of roles) role.permissions = role.permissions.filter((p) => p.id !== permissionId);
      res.writeHead(204).end();
      return;
    }
    const role = roles.find((r) => r.id === roleId);
    if (!role) return apiError(res, 404, "Role not found", "Not Found");
    if (!role.permissions.some((p) => p.id === permissionId)) role.permissions.push(permission);
    return sendJson(res, 201, {
      role_permission_assignments: { role_id: role.id, permission_id: permissionId },
    });
  }

  /** The management API's user and role routes; false when the path is none of them. */
  async function managementRoute(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const method = req.method ?? "GET";
    if (path === "/v1/users" && method === "GET") {
      if (!management(req, res)) return true;
      userList(res);
      return true;
    }
    if (
      method === "POST" &&
      /^\/v1\/applications\/[^/]+\/(users|roles)\/[^/]+\/(roles|permissions)\/[^/]+$/.test(path)
    )
      deprecatedCalls.push(`${method} ${path}`);
    if (path === "/v1/organizations" && method === "GET") {
      if (management(req, res)) ownOrganizations(res);
      return true;
    }
    const organizationPath = path.match(/^\/v1\/organizations\/([^/]+)(\/users)?$/);
    if (organizationPath && method === "GET") {
      if (management(req, res))
        organization(res, decodeURIComponent(organizationPath[1]!), !!organizationPath[2]);
      return true;
    }
    // The application itself: Keyrock lets any of several application permissions read it ("Manage
    // roles" among them; the fake asks for that one), answers 201, and includes the secret.
    const application = path.match(/^\/v1\/applications\/([^/]+)$/);
    if (application && method === "GET") {
      if (management(req, res, decodeURIComponent(application[1]!)))
        sendJson(res, 201, {
          application: {
            id: options.clientId,
            name: options.appName ?? "Orrery console",
            description: "",
            secret: options.clientSecret,
            url: options.appUrl ?? "",
            redirect_uri: options.redirectUris?.[0] ?? "",
            image: "default",
            grant_type: "authorization_code,refresh_token",
            response_type: "code",
            client_type: null,
          },
        });
      return true;
    }
    const organizationRoles = path.match(/^\/v1\/applications\/([^/]+)\/organizations$/);
    if (organizationRoles && method === "GET") {
      if (management(req, res, decodeURIComponent(organizationRoles[1]!))) organizationAssignments(res);
      return true;
    }
    const permissionPath = path.match(
      /^\/v1\/applications\/([^/]+)\/(?:roles\/([^/]+)\/)?permissions(?:\/([^/]+))?$/,
    );
    if (permissionPath) {
      const [, app, roleId, permissionId] = permissionPath.map((p) =>
        p === undefined ? p : decodeURIComponent(p),
      );
      const route =
        !roleId && !permissionId && method === "POST"
          ? () => createPermission(req, res)
          : permissionId && ((!roleId && method === "DELETE") || (roleId && ["PUT", "POST"].includes(method)))
            ? () => permissionChange(req, res, permissionId, roleId)
            : undefined;
      if (!route) return false;
      if (management(req, res, app!)) await route();
      return true;
    }
    const m = path.match(/^\/v1\/applications\/([^/]+)\/(roles|users)(?:\/([^/]+)\/roles(?:\/([^/]+))?)?$/);
    if (!m) return false;
    const [, app, what, userId, roleId] = m.map((p) => (p === undefined ? p : decodeURIComponent(p)));
    const route =
      what === "roles" && !userId
        ? { GET: () => roleIndex(res), POST: () => createRole(req, res) }[method]
        : what === "users" && !userId
          ? { GET: () => assignments(res) }[method]
          : what === "users" && !roleId
            ? { GET: () => assignments(res, userId) }[method]
            : what === "users" && ["POST", "PUT", "DELETE"].includes(method)
              ? () => assignment(req, res, userId!, roleId!)
              : undefined;
    if (!route) return false;
    if (management(req, res, app!)) await route();
    return true;
  }

  function externalLogout(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (query.get("client_id") !== options.clientId)
      return html(res, 200, "<h1>Error</h1><p>invalid client</p>");
    const cookie = cookieOf(req);
    if (cookie) sessions.delete(cookie);
    res.writeHead(302, { location: options.appUrl ?? "/", "set-cookie": "session=; Path=/; Max-Age=0" });
    res.end();
  }

  const server = await listen(async (req, res, url) => {
    const route = `${req.method} ${url.pathname}`;
    const q = url.searchParams;
    const roleList = url.pathname.match(/^\/v1\/applications\/([^/]+)\/roles\/([^/]+)\/permissions$/);
    const onePermission = url.pathname.match(/^\/v1\/applications\/([^/]+)\/permissions\/([^/]+)$/);
    if (route === "GET /oauth2/authorize" || route === "POST /oauth2/authorize")
      return authorize(req, res, q);
    if (route === "POST /oauth2/enable_app") return enableApp(req, res, q);
    if (route === "POST /oauth2/token") return token(req, res);
    // Keyrock's version document; tag FIWARE_8.4 reports 8.3.0 (notes/keyrock-real.md).
    if (route === "GET /version")
      return sendJson(res, 200, {
        keyrock: {
          version: "8.3.0",
          release_date: "2023-06-14",
          uptime: "00:00:01.0",
          git_hash: "https://github.com/ging/fiware-idm/releases/tag/8.3.0",
          doc: "https://fiware-idm.readthedocs.io/en/8.3.0/",
          api: { version: "v1", link: `http://${req.headers.host ?? "localhost"}/v1` },
        },
      });
    if (route === "GET /user") return userInfo(res, q);
    if (url.pathname === "/v1/auth/tokens" && ["POST", "DELETE"].includes(req.method!))
      return apiToken(req, res);
    if (route === "GET /auth/external_logout") return externalLogout(req, res, q);
    if (await managementRoute(req, res, url.pathname)) return;
    if (req.method === "GET" && roleList) {
      if (!management(req, res, decodeURIComponent(roleList[1]!))) return;
      return rolePermissions(res, decodeURIComponent(roleList[2]!));
    }
    if (req.method === "GET" && onePermission) {
      if (!management(req, res, decodeURIComponent(onePermission[1]!))) return;
      return permission(res, decodeURIComponent(onePermission[2]!));
    }
    return html(res, 404, `<pre>Cannot ${req.method} ${url.pathname}</pre>`);
  });

  return {
    ...server,
    issuedTokens,
    liveAdminTokens: () => adminTokens.size,
    openSessions: () => sessions.size,
    deprecatedCalls,
    setAdminManagesRoles(granted) {
      adminManagesRoles = granted;
    },
    setRoles(userId, next) {
      users.find((u) => u.id === userId)!.roles = [...next];
    },
    rolesOf: (userId) => [...(users.find((u) => u.id === userId)?.roles ?? [])],
    roleNames: () => roles.map((r) => r.name),
    permissionsOf: (roleName) =>
      roles.find((r) => r.name === roleName)?.permissions.map((p) => ({ ...p })) ?? [],
  };
}
