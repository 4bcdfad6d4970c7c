import type { IncomingMessage, ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { basicCredentials, isForm, listen, readBody, redirect, sendJson, type Listening } from "./http.ts";
import { opaque, s256 } from "./pkce.ts";

/**
 * A fake OpenID Connect provider (authorization code flow with PKCE S256 only), enough for a
 * certified client library to accept it: discovery, a JWK set, /authorize, /token issuing an
 * RS256 id token. Errors follow RFC 6749 section 5.2.
 */

export interface OidcUser {
  sub: string;
  preferred_username: string;
  email?: string;
  /** Role names, placed at the configured claim path of the id token. */
  roles: string[];
}

/** Ways to make the id token wrong, to check the relying party refuses it. */
export type Forgery = "wrong-nonce" | "wrong-audience" | "expired";

export interface FakeOidcOptions {
  clientId: string;
  clientSecret: string;
  /** Registered redirect URIs; when omitted any is accepted. */
  redirectUris?: string[];
  users: OidcUser[];
  /** Who /authorize signs in without a login page; null answers access_denied. */
  signedInUser?: string | null;
  /** Dotted path of the roles claim, e.g. `realm_access.roles` as Keycloak does; default `roles`. */
  rolesClaim?: string;
  /** Access token lifetime in seconds (expires_in); default 300. */
  expiresIn?: number;
}

export interface FakeOidc extends Listening {
  signIn(username: string | null): void;
  /** The next id tokens are forged this way (undefined: honest). */
  forge(forgery: Forgery | undefined): void;
  readonly issuedTokens: readonly string[];
}

interface Grant {
  redirectUri: string;
  user: OidcUser;
  nonce?: string;
  codeChallenge: string;
  expiresAt: number;
}

/** Sets value at a dotted path, creating the objects on the way. */
function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
  sendJson(res, status, { error, error_description: description }, { "cache-control": "no-store" });

export async function startFakeOidc(options: FakeOidcOptions): Promise<FakeOidc> {
  const kid = "fake-oidc-key-1";
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  // An explicit null means nobody approves; left out, the first user does.
  let signedInUser: string | null =
    options.signedInUser === undefined
      ? (options.users[0]?.preferred_username ?? null)
      : options.signedInUser;
  let forgery: Forgery | undefined;
  const codes = new Map<string, Grant>();
  const issuedTokens: string[] = [];
  const expiresIn = options.expiresIn ?? 300;
  let issuer = "";

  function authorize(res: ServerResponse, query: URLSearchParams) {
    const redirectUri = query.get("redirect_uri") ?? "";
    if (query.get("client_id") !== options.clientId)
      return oauthError(res, 400, "invalid_client", "unknown client");
    if (!redirectUri || (options.redirectUris && !options.redirectUris.includes(redirectUri)))
      return oauthError(res, 400, "invalid_request", "redirect_uri is not registered");
    const target = new URL(redirectUri);
    const fail = (error: string, description: string) => {
      target.searchParams.set("error", error);
      target.searchParams.set("error_description", description);
      return redirect(res, target.toString());
    };
    const state = query.get("state");
    if (state !== null) target.searchParams.set("state", state);
    if (query.get("response_type") !== "code") return fail("unsupported_response_type", "only code");
    if (!(query.get("scope") ?? "").split(" ").includes("openid"))
      return fail("invalid_scope", "the openid scope is required");
    const codeChallenge = query.get("code_challenge");
    if (!codeChallenge || query.get("code_challenge_method") !== "S256")
      return fail("invalid_request", "PKCE with S256 is required");
    const user = options.users.find((u) => u.preferred_username === signedInUser);
    if (!user) return fail("access_denied", "The user denied access");
    const code = opaque();
    codes.set(code, {
      redirectUri,
      user,
      nonce: query.get("nonce") ?? undefined,
      codeChallenge,
      expiresAt: Date.now() + 60_000,
    });
    target.searchParams.set("code", code);
    return redirect(res, target.toString());
  }

  async function idToken(grant: Grant): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      preferred_username: grant.user.preferred_username,
      ...(grant.user.email ? { email: grant.user.email } : {}),
      ...(grant.nonce !== undefined
        ? { nonce: forgery === "wrong-nonce" ? `${grant.nonce}x` : grant.nonce }
        : {}),
    };
    setAt(claims, options.rolesClaim ?? "roles", grant.user.roles);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(issuer)
      .setSubject(grant.user.sub)
      .setAudience(forgery === "wrong-audience" ? "someone-else" : options.clientId)
      .setIssuedAt(forgery === "expired" ? now - 7200 : now)
      .setExpirationTime(forgery === "expired" ? now - 3600 : now + expiresIn)
      .sign(privateKey);
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    if (!isForm(req)) return oauthError(res, 400, "invalid_request", "form body expected");
    const form = new URLSearchParams(await readBody(req));
    // client_secret_basic or client_secret_post, both advertised in the discovery document.
    const client = basicCredentials(req.headers.authorization, true) ?? {
      id: form.get("client_id") ?? "",
      secret: form.get("client_secret") ?? "",
    };
    if (client.id !== options.clientId || client.secret !== options.clientSecret)
      return oauthError(res, 401, "invalid_client", "client authentication failed");
    if (form.get("grant_type") !== "authorization_code")
      return oauthError(res, 400, "unsupported_grant_type", "only authorization_code");
    const code = form.get("code") ?? "";
    const grant = codes.get(code);
    codes.delete(code);
    if (!grant || grant.expiresAt < Date.now())
      return oauthError(res, 400, "invalid_grant", "the authorization code is invalid or used");
    if (form.get("redirect_uri") !== grant.redirectUri)
      return oauthError(res, 400, "invalid_grant", "redirect_uri differs from the authorization request");
    if (s256(form.get("code_verifier") ?? "") !== grant.codeChallenge)
      return oauthError(res, 400, "invalid_grant", "PKCE verification failed");
    const accessToken = opaque();
    issuedTokens.push(accessToken);
    return sendJson(
      res,
      200,
      {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: expiresIn,
        id_token: await idToken(grant),
        scope: "openid profile email",
      },
      { "cache-control": "no-store" },
    );
  }

  const server = await listen(async (req, res, url) => {
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /.well-known/openid-configuration")
      return sendJson(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        scopes_supported: ["openid", "profile", "email"],
      });
    if (route === "GET /jwks") return sendJson(res, 200, { keys: [jwk] });
    if (route === "GET /authorize") return authorize(res, url.searchParams);
    if (route === "POST /token") return token(req, res);
    return oauthError(res, 404, "not_found", `${req.method} ${url.pathname}`);
  });
  issuer = server.url;

  return {
    ...server,
    signIn: (username) => void (signedInUser = username),
    forge: (f) => void (forgery = f),
    issuedTokens,
  };
}
