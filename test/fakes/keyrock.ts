import type { IncomingMessage, ServerResponse } from "node:http";
import { basicCredentials, isForm, listen, readBody, redirect, sendJson, type Listening } from "./http.ts";
import { opaque, s256 } from "./pkce.ts";

/**
 * A fake FIWARE Keyrock written from the contract in notes/trust-and-peers.md sections 1.1 to 1.3:
 * the OAuth2 endpoints (/oauth2/authorize, /oauth2/token), the user info (/user) and the parts of
 * the management API v1 that read role permissions. Its quirks are Keyrock's, on purpose: errors
 * are bare JSON strings on /oauth2 and /user, `{error:{message,code,title}}` on /v1, an empty list
 * is a 404, and token_type is lowercase "bearer".
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
  /** Ids of the user's roles in the application. */
  roles: string[];
}

export interface FakeKeyrockOptions {
  clientId: string;
  clientSecret: string;
  /** The application's registered callback URLs; when omitted any redirect_uri is accepted. */
  redirectUris?: string[];
  /** The account that may use the management API (POST /v1/auth/tokens takes its email as name). */
  admin: { email: string; password: string };
  users: KeyrockUser[];
  roles: KeyrockRole[];
  /** Who /oauth2/authorize signs in without showing a login page; null answers access_denied. */
  signedInUser?: string | null;
  /** Lifetime of access tokens in seconds; Keyrock's default is 3599. */
  expiresIn?: number;
}

export interface FakeKeyrock extends Listening {
  /** Changes who the next authorization signs in as (null: the user denies access). */
  signIn(username: string | null): void;
  /** Every OAuth2 access token issued, to assert none of them reaches a log line. */
  readonly issuedTokens: readonly string[];
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
  clientId: string;
  redirectUri: string;
  userId: string;
  codeChallenge?: string;
  expiresAt: number;
}

const keyrockError = (res: ServerResponse, status: number, message: string) => sendJson(res, status, message);
const apiError = (res: ServerResponse, status: number, message: string, title: string) =>
  sendJson(res, status, { error: { message, code: status, title } });

export async function startFakeKeyrock(options: FakeKeyrockOptions): Promise<FakeKeyrock> {
  // An explicit null means nobody approves; left out, the first user does.
  let signedInUser: string | null =
    options.signedInUser === undefined ? (options.users[0]?.username ?? null) : options.signedInUser;
  const roles = [...internalRoles, ...options.roles];
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, { userId: string; expiresAt: number }>();
  const adminTokens = new Set<string>();
  const issuedTokens: string[] = [];
  const expiresIn = options.expiresIn ?? 3599;

  function authorize(res: ServerResponse, query: URLSearchParams) {
    const redirectUri = query.get("redirect_uri") ?? "";
    if (query.get("client_id") !== options.clientId)
      return keyrockError(res, 400, "Invalid client: client is invalid");
    if (!redirectUri || (options.redirectUris && !options.redirectUris.includes(redirectUri)))
      return keyrockError(res, 400, "Invalid request: redirect_uri mismatch");
    const target = new URL(redirectUri);
    const state = query.get("state");
    if (state !== null) target.searchParams.set("state", state);
    if (query.get("response_type") !== "code") {
      target.searchParams.set("error", "unsupported_response_type");
      return redirect(res, target.toString());
    }
    const user = options.users.find((u) => u.username === signedInUser);
    if (!user) {
      target.searchParams.set("error", "access_denied");
      target.searchParams.set("error_description", "User denied access");
      return redirect(res, target.toString());
    }
    const challenge = query.get("code_challenge") ?? undefined;
    if (challenge && (query.get("code_challenge_method") ?? "plain") !== "S256")
      return keyrockError(res, 400, "Invalid request: code_challenge_method is invalid");
    const code = opaque(20);
    codes.set(code, {
      clientId: options.clientId,
      redirectUri,
      userId: user.id,
      codeChallenge: challenge,
      expiresAt: Date.now() + 300_000,
    });
    target.searchParams.set("code", code);
    return redirect(res, target.toString());
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    if (!isForm(req))
      return keyrockError(res, 400, "Invalid request: content must be application/x-www-form-urlencoded");
    const form = new URLSearchParams(await readBody(req));
    // Basic client authentication, or client_id/client_secret in the form (both work on Keyrock).
    const client = basicCredentials(req.headers.authorization, false) ?? {
      id: form.get("client_id") ?? "",
      secret: form.get("client_secret") ?? "",
    };
    if (client.id !== options.clientId || client.secret !== options.clientSecret)
      return keyrockError(res, 401, "Invalid client: client is invalid");
    if (form.get("grant_type") !== "authorization_code")
      return keyrockError(res, 400, "Unsupported grant type: `grant_type` is invalid");
    const code = form.get("code") ?? "";
    const grant = codes.get(code);
    codes.delete(code); // single use, even when the exchange below fails
    if (!grant || grant.expiresAt < Date.now() || grant.clientId !== client.id)
      return keyrockError(res, 400, "Invalid grant: authorization code is invalid");
    if (form.get("redirect_uri") !== grant.redirectUri)
      return keyrockError(res, 400, "Invalid request: redirect_uri is not a valid URI");
    if (grant.codeChallenge && s256(form.get("code_verifier") ?? "") !== grant.codeChallenge)
      return keyrockError(res, 400, "Invalid grant: code verifier is invalid");
    const accessToken = opaque(20);
    accessTokens.set(accessToken, { userId: grant.userId, expiresAt: Date.now() + expiresIn * 1000 });
    issuedTokens.push(accessToken);
    return sendJson(res, 200, {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: expiresIn,
      refresh_token: opaque(20),
      scope: ["bearer"],
    });
  }

  function userInfo(res: ServerResponse, query: URLSearchParams) {
    const entry = accessTokens.get(query.get("access_token") ?? "");
    const user = entry && entry.expiresAt > Date.now() && options.users.find((u) => u.id === entry.userId);
    if (!user) return keyrockError(res, 401, "Invalid token: access token is invalid");
    return sendJson(res, 200, {
      organizations: [],
      displayName: user.username,
      roles: roles.filter((r) => user.roles.includes(r.id)).map((r) => ({ id: r.id, name: r.name })),
      app_id: options.clientId,
      trusted_apps: [],
      isGravatarEnabled: false,
      email: user.email,
      id: user.id,
      authorization_decision: "",
      app_azf_domain: "",
      eidas_profile: {},
      attributes: {},
      shared_attributes: "",
      username: user.username,
    });
  }

  async function apiToken(req: IncomingMessage, res: ServerResponse) {
    if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
      return keyrockError(res, 400, "Missing parameter: header Content-Type: application/json");
    let body: { name?: unknown; password?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return apiError(res, 400, "Invalid JSON body", "Bad Request");
    }
    if (body.name !== options.admin.email || body.password !== options.admin.password)
      return apiError(res, 401, "Invalid email or password", "Unauthorized");
    const subjectToken = opaque(16);
    adminTokens.add(subjectToken);
    return sendJson(
      res,
      201,
      { token: { methods: ["password"], expires_at: new Date(Date.now() + 3600_000).toISOString() } },
      { "x-subject-token": subjectToken },
    );
  }

  function rolePermissions(req: IncomingMessage, res: ServerResponse, appId: string, roleId: string) {
    const authToken = req.headers["x-auth-token"];
    if (typeof authToken !== "string" || !authToken)
      return keyrockError(res, 400, "Expecting to find X-Auth-token/Authorization in requests");
    if (!adminTokens.has(authToken)) return apiError(res, 401, "Invalid token", "Unauthorized");
    if (appId !== options.clientId) return apiError(res, 404, "Application not found", "Not Found");
    const role = roles.find((r) => r.id === roleId);
    if (!role) return apiError(res, 404, "Role not found", "Not Found");
    if (!role.permissions.length) return apiError(res, 404, "Assignments not found", "Not Found");
    return sendJson(res, 200, {
      role_permission_assignments: role.permissions.map((p) => ({
        id: p.id,
        is_internal: p.is_internal ?? false,
        name: p.name,
        description: p.description ?? null,
        action: p.action ?? null,
        resource: p.resource ?? null,
        // Some Keyrock versions leave is_regex out of this list; the provider then reads resources as patterns.
        is_regex: p.is_regex ?? false,
        authorization_service_header: null,
        use_authorization_service_header: false,
        xml: p.xml ?? null,
      })),
    });
  }

  const server = await listen(async (req, res, url) => {
    const route = `${req.method} ${url.pathname}`;
    const permissions = url.pathname.match(/^\/v1\/applications\/([^/]+)\/roles\/([^/]+)\/permissions$/);
    if (route === "GET /oauth2/authorize") return authorize(res, url.searchParams);
    if (route === "POST /oauth2/token") return token(req, res);
    if (route === "GET /user") return userInfo(res, url.searchParams);
    if (route === "POST /v1/auth/tokens") return apiToken(req, res);
    if (req.method === "GET" && permissions)
      return rolePermissions(
        req,
        res,
        decodeURIComponent(permissions[1]!),
        decodeURIComponent(permissions[2]!),
      );
    return keyrockError(res, 404, `Cannot ${req.method} ${url.pathname}`);
  });

  return {
    ...server,
    signIn: (username) => void (signedInUser = username),
    issuedTokens,
  };
}
