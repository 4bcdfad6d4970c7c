import type { Permission } from "@orrery/model";
import type { Config } from "../../config.ts";
import { LoginFailed, type IdentityProvider } from "./provider.ts";

const TIMEOUT_MS = 10_000;

/** An entry of role_permission_assignments; internal and XACML permissions have no action or resource. */
interface Assignment {
  action?: string | null;
  resource?: string | null;
  is_regex?: boolean | number | null;
}

/**
 * Keyrock matches a permission not flagged is_regex by string equality with the path. Orrery's
 * matcher reads every resource as an unanchored pattern, so such a resource would grant every path
 * containing it ("/api/context-brokers/1" would also grant ".../10"): anchor and escape it.
 * When Keyrock leaves the flag out the resource is taken as a pattern, as the original console did.
 */
function asPattern(resource: string, isRegex: Assignment["is_regex"]): string {
  // MySQL-backed Keyrock may answer the flag as 0/1.
  return isRegex === false || isRegex === 0
    ? `^${resource.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`
    : resource;
}

async function call(url: string, init: RequestInit, what: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new LoginFailed(`Keyrock could not be reached for ${what}: ${(err as Error).message}`);
  }
  if (!response.ok) {
    // Keyrock answers errors as a bare JSON string ("Invalid grant: ...").
    const body = (await response.text()).slice(0, 300);
    throw new LoginFailed(`Keyrock refused ${what} (${response.status}): ${body}`);
  }
  return response;
}

/**
 * FIWARE Keyrock: authorization code at /oauth2/authorize and /oauth2/token (Basic client auth,
 * form body), the user's roles in the application from /user, and each role's permissions from
 * the management API (/v1, admin token from /v1/auth/tokens). Permissions are read once at
 * sign-in, not on every request as the original console did.
 */
export function keyrockProvider(settings: Config["keyrock"]): IdentityProvider {
  if (!settings.url || !settings.clientId || !settings.clientSecret) {
    throw new Error("AUTH_PROVIDER=keyrock needs KEYROCK_URL, KEYROCK_CLIENT_ID and KEYROCK_CLIENT_SECRET");
  }
  const basic = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString("base64")}`;

  async function rolePermissions(roleIds: string[]): Promise<Permission[]> {
    if (!roleIds.length) return [];
    if (!settings.adminUsername)
      throw new LoginFailed(
        "KEYROCK_ADMIN_USERNAME and KEYROCK_ADMIN_PASSWORD are needed to read role permissions.",
      );
    const login = await call(
      `${settings.url}/v1/auth/tokens`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: settings.adminUsername, password: settings.adminPassword }),
      },
      "the management API sign-in",
    );
    const adminToken = login.headers.get("x-subject-token");
    if (!adminToken) throw new LoginFailed("Keyrock returned no X-Subject-Token for the management API.");
    const lists = await Promise.all(
      roleIds.map(async (roleId) => {
        const response = await fetch(
          `${settings.url}/v1/applications/${encodeURIComponent(settings.clientId)}/roles/${encodeURIComponent(roleId)}/permissions`,
          { headers: { "x-auth-token": adminToken }, signal: AbortSignal.timeout(TIMEOUT_MS) },
        );
        if (response.status === 404) return []; // Keyrock answers an empty list with 404
        if (!response.ok)
          throw new LoginFailed(`Keyrock refused the permissions of role ${roleId} (${response.status}).`);
        const body = (await response.json()) as {
          role_permission_assignments?: Assignment[];
        };
        return (body.role_permission_assignments ?? []).filter(
          (p): p is Assignment & Permission => !!p.action && !!p.resource,
        );
      }),
    );
    const seen = new Set<string>();
    return lists
      .flat()
      .map((p) => ({ action: p.action.toUpperCase(), resource: asPattern(p.resource, p.is_regex) }))
      .filter((p) => !seen.has(`${p.action} ${p.resource}`) && seen.add(`${p.action} ${p.resource}`));
  }

  return {
    name: "keyrock",
    async authorizeUrl({ state, codeChallenge, redirectUri }) {
      const url = new URL(`${settings.url}/oauth2/authorize`);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },
    async finish({ code, codeVerifier, redirectUri }) {
      const tokenResponse = await call(
        `${settings.url}/oauth2/token`,
        {
          method: "POST",
          headers: {
            authorization: basic,
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
          },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code,
            redirect_uri: redirectUri,
            code_verifier: codeVerifier,
          }),
        },
        "the authorization code",
      );
      const token = (await tokenResponse.json()) as { access_token?: string; expires_in?: number };
      if (!token.access_token) throw new LoginFailed("Keyrock returned no access token.");
      const userResponse = await call(
        `${settings.url}/user?${new URLSearchParams({ access_token: token.access_token })}`,
        { headers: { accept: "application/json" } },
        "the user information",
      );
      const user = (await userResponse.json()) as {
        id?: string;
        username?: string;
        email?: string;
        roles?: Array<{ id: string; name: string }>;
      };
      if (!user.id) throw new LoginFailed("Keyrock returned no user for this token.");
      return {
        subject: user.id,
        username: user.username || user.email || user.id,
        provider: "keyrock",
        permissions: await rolePermissions((user.roles ?? []).map((r) => r.id)),
        expiresAt: token.expires_in ? new Date(Date.now() + token.expires_in * 1000) : undefined,
      };
    },
  };
}
