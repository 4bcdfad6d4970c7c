import type { Permission } from "@orrery/model";
import type { Config } from "../../config.ts";
import { KeyrockFailure, keyrockFetch, keyrockManagement } from "../keyrock-management.ts";
import { LoginFailed, type IdentityProvider } from "./provider.ts";

/** How long a permission's is_regex flag, read one by one, is remembered. */
const FLAG_TTL_MS = 5 * 60_000;
/** How long the application's name is remembered, and how soon a failed read of it is tried again. */
const NAME_TTL_MS = 5 * 60_000;
const NAME_RETRY_MS = 2_000;

/** An entry of Keyrock's role_permission_assignments: internal and XACML permissions have no action or resource. */
interface Assignment {
  id: string;
  action?: string | null;
  resource?: string | null;
}

interface KeyrockUser {
  id?: string;
  username?: string;
  email?: string;
  roles?: Array<{ id: string }>;
  organizations?: Array<{ roles?: Array<{ id: string }> }>;
}

/**
 * FIWARE Keyrock: authorization code at /oauth2/authorize and /oauth2/token (Basic client auth,
 * form body), the roles the user holds in the application, directly or through an organisation,
 * from /user, and each role's permissions from the management API (/v1, one management token kept
 * until it expires). Permissions are read at sign-in and again through `refresh` while the session
 * lasts, so a role removed in Keyrock stops working within minutes.
 */
export function keyrockProvider(settings: Config["keyrock"]): IdentityProvider {
  if (!settings.url || !settings.clientId || !settings.clientSecret) {
    throw new Error("AUTH_PROVIDER=keyrock needs KEYROCK_URL, KEYROCK_CLIENT_ID and KEYROCK_CLIENT_SECRET");
  }
  const basic = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString("base64")}`;
  const app = encodeURIComponent(settings.clientId);
  const management = keyrockManagement(settings.url, {
    name: settings.adminUsername,
    password: settings.adminPassword,
  });
  const flags = new Map<string, { regex: boolean; until: number }>();
  let application: { name?: string; until: number } = { until: 0 };

  /** Keyrock's failures as sign-in failures saying what and where. */
  const failed = (err: unknown): never => {
    if (!(err instanceof KeyrockFailure)) throw err;
    if (err.status === undefined)
      throw new LoginFailed(`Keyrock (${settings.url}) could not be reached for ${err.what}: ${err.reason}.`);
    throw new LoginFailed(`Keyrock refused ${err.what} (${err.status}): ${err.reason}`);
  };

  /** One call to Keyrock outside the management API. */
  const call = (path: string, init: RequestInit, what: string) =>
    keyrockFetch(`${settings.url}${path}`, init, what).catch(failed);

  /** A management read; 403 means the account lacks "Manage roles" on the application. */
  async function manage(path: string, what: string): Promise<Response | undefined> {
    if (!settings.adminUsername)
      throw new LoginFailed(
        "KEYROCK_ADMIN_USERNAME and KEYROCK_ADMIN_PASSWORD are needed to read role permissions.",
      );
    const response = await management.call("GET", path, what).catch((err: unknown) => {
      if (err instanceof KeyrockFailure && err.status === 403)
        throw new LoginFailed(
          `The Keyrock management account ${settings.adminUsername} may not read the application's roles: ` +
            `give it the "Manage roles" permission of the application ${settings.clientId}.`,
        );
      if (
        err instanceof KeyrockFailure &&
        err.status !== undefined &&
        err.what.includes("sign-in") &&
        !settings.adminUsername.includes("@")
      )
        throw new LoginFailed(
          `Keyrock refused ${err.what} (${err.status}): ${err.reason} ` +
            "KEYROCK_ADMIN_USERNAME must be the account's e-mail address, not its user name.",
        );
      return failed(err);
    });
    return response.status === 404 ? undefined : response; // Keyrock answers an empty list with 404
  }

  /** Whether a permission is a regular expression: only the read of one permission tells. */
  async function isRegex(id: string): Promise<boolean> {
    const known = flags.get(id);
    if (known && known.until > Date.now()) return known.regex;
    const response = await manage(
      `/v1/applications/${app}/permissions/${encodeURIComponent(id)}`,
      `permission ${id}`,
    );
    const body = (await response?.json().catch(() => ({}))) as
      { permission?: { is_regex?: unknown } } | undefined;
    const flag = body?.permission?.is_regex;
    const regex = flag === true || flag === 1 || flag === "1";
    flags.set(id, { regex, until: Date.now() + FLAG_TTL_MS });
    return regex;
  }

  async function permissionsOf(roleIds: string[]): Promise<Permission[]> {
    if (!roleIds.length) return [];
    const lists = await Promise.all(
      roleIds.map(async (roleId) => {
        const response = await manage(
          `/v1/applications/${app}/roles/${encodeURIComponent(roleId)}/permissions`,
          `the permissions of role ${roleId}`,
        );
        const body = (await response?.json().catch(() => ({}))) as {
          role_permission_assignments?: Assignment[];
        };
        return (body?.role_permission_assignments ?? []).filter(
          (p): p is Assignment & Permission => !!p.action && !!p.resource,
        );
      }),
    );
    const seen = new Set<string>();
    const permissions: Permission[] = [];
    for (const p of lists.flat()) {
      // A plain (non-regex) Keyrock resource is one path compared with ===, as Keyrock's own decision point does.
      const permission: Permission = (await isRegex(p.id))
        ? { action: p.action.toUpperCase(), resource: p.resource }
        : { action: p.action.toUpperCase(), resource: p.resource, exact: true };
      const key = `${permission.action} ${permission.exact ? "=" : "~"} ${permission.resource}`;
      if (seen.has(key)) continue;
      seen.add(key);
      permissions.push(permission);
    }
    return permissions;
  }

  /**
   * The application's name in Keyrock (users know it by that, not by its client id), read with the
   * management token; undefined when it cannot be read. Only the name is kept: the answer also
   * holds the application's secret.
   */
  async function applicationName(): Promise<string | undefined> {
    if (application.until > Date.now()) return application.name;
    const body = (await manage(`/v1/applications/${app}`, "the application")
      .then((response) => response?.json())
      .catch(() => undefined)) as { application?: { name?: unknown } } | undefined;
    const name = body?.application?.name;
    application =
      typeof name === "string" && name
        ? { name, until: Date.now() + NAME_TTL_MS }
        : { until: Date.now() + NAME_RETRY_MS };
    return application.name;
  }

  /** The user and the ids of the roles held directly and through organisations; undefined when the token is no longer valid. */
  async function userOf(accessToken: string): Promise<{ user: KeyrockUser; roleIds: string[] } | undefined> {
    let response: Response;
    try {
      response = await call(
        `/user?${new URLSearchParams({ access_token: accessToken })}`,
        {
          headers: { accept: "application/json" },
        },
        "the user information",
      );
    } catch (err) {
      if (err instanceof LoginFailed && / \(401\)/.test(err.message)) return undefined;
      throw err;
    }
    const user = (await response.json().catch(() => ({}))) as KeyrockUser;
    if (!user.id) return undefined;
    const roleIds = [...(user.roles ?? []), ...(user.organizations ?? []).flatMap((o) => o.roles ?? [])].map(
      (r) => r.id,
    );
    return { user, roleIds: [...new Set(roleIds)] };
  }

  return {
    name: "keyrock",
    signOutUrl: `${settings.url}/auth/external_logout?${new URLSearchParams({ _method: "DELETE", client_id: settings.clientId })}`,
    async check() {
      try {
        await manage(`/v1/applications/${app}/roles/provider/permissions`, "the application's roles");
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
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
        "/oauth2/token",
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
      const token = (await tokenResponse.json().catch(() => ({}))) as {
        access_token?: string;
        expires_in?: number;
      };
      if (!token.access_token) throw new LoginFailed("Keyrock returned no access token.");
      const found = await userOf(token.access_token);
      if (!found) throw new LoginFailed("Keyrock returned no user for this token.");
      if (!found.roleIds.filter((id) => id !== "provider" && id !== "purchaser").length)
        throw new LoginFailed(
          `Your Keyrock account has no role in the application "${(await applicationName()) ?? settings.clientId}", so Orrery has nothing to let you do. ` +
            "Ask an administrator to give you a role there.",
        );
      return {
        subject: found.user.id!,
        username: found.user.username || found.user.email || found.user.id!,
        provider: "keyrock",
        permissions: await permissionsOf(found.roleIds),
        expiresAt: token.expires_in ? new Date(Date.now() + token.expires_in * 1000) : undefined,
        grant: token.access_token,
      };
    },
    async refresh(grant) {
      const found = await userOf(grant);
      return found ? permissionsOf(found.roleIds) : undefined;
    },
    applicationName,
    close: () => management.release(),
  };
}
