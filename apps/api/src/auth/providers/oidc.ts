import * as client from "openid-client";
import type { Config } from "../../config.ts";
import type { Policy } from "../policy.ts";
import { LoginFailed, type IdentityProvider } from "./provider.ts";

/** Reads a claim by dotted path (`realm_access.roles` for Keycloak). */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>(
      (value, key) =>
        value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined,
      claims,
    );
}

/** Any OpenID Connect provider by issuer URL; permissions come from a roles claim mapped through the policy file. */
export async function oidcProvider(settings: Config["oidc"], policy: Policy): Promise<IdentityProvider> {
  if (!settings.issuer || !settings.clientId)
    throw new Error("AUTH_PROVIDER=oidc needs OIDC_ISSUER and OIDC_CLIENT_ID");
  const issuer = new URL(settings.issuer);
  const options = issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : undefined;
  const configuration = await client.discovery(
    issuer,
    settings.clientId,
    settings.clientSecret || undefined,
    undefined,
    options,
  );

  return {
    name: "oidc",
    async authorizeUrl({ state, codeChallenge, nonce, redirectUri, language }) {
      return client
        .buildAuthorizationUrl(configuration, {
          redirect_uri: redirectUri,
          scope: settings.scope,
          code_challenge: codeChallenge,
          code_challenge_method: "S256",
          state,
          nonce,
          ...(language ? { ui_locales: language } : {}),
        })
        .toString();
    },
    async finish({ codeVerifier, nonce, state, callbackUrl }) {
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
        });
      } catch (err) {
        throw new LoginFailed(`The identity provider refused the sign-in: ${(err as Error).message}`);
      }
      const claims = (tokens.claims() ?? {}) as Record<string, unknown>;
      const rolesValue = claimAt(claims, settings.rolesClaim);
      const roles = Array.isArray(rolesValue)
        ? rolesValue.map(String)
        : typeof rolesValue === "string"
          ? rolesValue.split(/[ ,]+/)
          : [];
      const expiresIn = tokens.expiresIn();
      return {
        subject: String(claims.sub),
        username: String(claims.preferred_username ?? claims.email ?? claims.sub),
        provider: "oidc",
        permissions: policy.permissionsFor(roles),
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : undefined,
      };
    },
  };
}
