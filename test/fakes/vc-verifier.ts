import { randomBytes } from "node:crypto";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { isForm, listen, readBody, sendJson, type Listening } from "./http.ts";

/**
 * A fake FIWARE VCVerifier (notes/trust-and-peers.md 1.4): GET /api/v1/loginQR shows the login
 * page of a state (400 {summary} without state or client_callback); presenting a credential there
 * (the page's button, standing for the wallet) makes the verifier call the client back server to
 * server with `state` and a single-use `code`; POST /token exchanges the code when redirect_uri is
 * the callback it was given (403 otherwise) for a bearer access token.
 *
 * Machine to machine, as VCVerifier's `POST /services/{service_id}/token` with
 * `grant_type=vp_token` (openapi/api_api.go): the presentation (base64url JSON, `vp_token`) becomes
 * a JWT signed with the verifier's key, `iss` its address, `aud` [service id], `exp` after
 * `jwtExpiration` seconds, the credential embedded (`verifiableCredential`, or
 * `verifiablePresentation` for several, as `jwtInclusion` makes it); the key set is at
 * `GET /.well-known/jwks`. Unlike the real verifier, the fake does not check the credentials'
 * proofs or issuers: tests give it the credential they mean the verifier to have accepted.
 */
export interface FakeVerifier extends Listening {
  /** Completes the login of a state as a wallet would; resolves with the callback's status. */
  present(state: string): Promise<number>;
  /** Access tokens issued. */
  readonly issued: string[];
}

export interface FakeVerifierOptions {
  /** Lifetime of the JWTs it issues, in seconds (VCVerifier's `verifier.jwtExpiration`, 30 minutes by default). */
  jwtExpiration?: number;
}

export async function startFakeVerifier(port = 0, options: FakeVerifierOptions = {}): Promise<FakeVerifier> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomBytes(8).toString("hex");
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const lifetime = options.jwtExpiration ?? 1800;
  const logins = new Map<string, { callback: string; clientId: string }>();
  const codes = new Map<string, { callback: string }>();
  const issued: string[] = [];
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  async function present(state: string): Promise<number> {
    const login = logins.get(state);
    if (!login) return 404;
    logins.delete(state);
    const code = randomBytes(16).toString("base64url");
    codes.set(code, { callback: login.callback });
    const target = new URL(login.callback);
    target.searchParams.set("state", state);
    target.searchParams.set("code", code);
    const response = await fetch(target, { signal: AbortSignal.timeout(10_000) });
    return response.status;
  }

  const server: Listening = await listen(async (req, res, url) => {
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /_fake/health") return sendJson(res, 200, { ok: true });
    if (route === "GET /api/v1/loginQR") {
      const state = url.searchParams.get("state");
      const callback = url.searchParams.get("client_callback");
      if (!state) return sendJson(res, 400, { summary: "no_state_provided" });
      if (!callback) return sendJson(res, 400, { summary: "NoCallbackProvided" });
      logins.set(state, { callback, clientId: url.searchParams.get("client_id") ?? "" });
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html><body><h1>Scan the QR code with your wallet</h1>
<p>client ${escape(url.searchParams.get("client_id") ?? "")}</p>
<form method="post" action="/_fake/present"><input type="hidden" name="state" value="${escape(state)}">
<button>Present credential</button></form></body></html>`);
      return;
    }
    if (route === "POST /_fake/present") {
      const state = new URLSearchParams(await readBody(req)).get("state") ?? "";
      const status = await present(state);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html><body><p>Presented (${status})</p></body></html>`);
      return;
    }
    if (route === "GET /.well-known/jwks") return sendJson(res, 200, { keys: [jwk] });
    const service = /^\/services\/([^/]+)\/token$/.exec(url.pathname)?.[1];
    if (req.method === "POST" && service) {
      const form = new URLSearchParams(await readBody(req));
      if (!form.get("grant_type")) return sendJson(res, 400, { summary: "no_grant_type_provided" });
      if (form.get("grant_type") !== "vp_token")
        return sendJson(res, 400, { summary: "unsupported_grant_type" });
      const vpToken = form.get("vp_token");
      if (!vpToken) return sendJson(res, 400, { summary: "no_token_provided" });
      let credentials: unknown[];
      try {
        const vp = JSON.parse(Buffer.from(vpToken, "base64url").toString("utf8")) as {
          verifiableCredential?: unknown;
        };
        credentials = [vp.verifiableCredential ?? []].flat();
      } catch {
        return sendJson(res, 400, { summary: "invalid_token" });
      }
      if (!credentials.length) return sendJson(res, 400, { summary: "invalid_token" });
      const clientId = decodeURIComponent(service);
      const iat = Math.floor(Date.now() / 1000);
      const token = await new SignJWT(
        credentials.length > 1
          ? { verifiablePresentation: credentials }
          : { verifiableCredential: credentials[0] },
      )
        .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
        .setIssuer(server.url)
        .setAudience([clientId])
        .setIssuedAt(iat)
        .setExpirationTime(iat + lifetime)
        .sign(privateKey);
      issued.push(token);
      return sendJson(res, 200, {
        token_type: "Bearer",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        expires_in: lifetime,
        id_token: token,
        access_token: token,
        scope: form.get("scope") ?? "",
      });
    }
    if (route === "POST /token") {
      if (!isForm(req)) return sendJson(res, 400, { summary: "invalid_request" });
      const form = new URLSearchParams(await readBody(req));
      if (form.get("grant_type") !== "authorization_code")
        return sendJson(res, 400, { summary: "unsupported_grant_type" });
      const entry = codes.get(form.get("code") ?? "");
      if (!entry) return sendJson(res, 403, { summary: "invalid_code" });
      if (form.get("redirect_uri") !== entry.callback)
        return sendJson(res, 403, { summary: "redirect_uri_does_not_match" });
      codes.delete(form.get("code")!);
      const token = `vc.${randomBytes(24).toString("base64url")}`;
      issued.push(token);
      return sendJson(res, 200, {
        token_type: "Bearer",
        expires_in: 3600,
        access_token: token,
        id_token: token,
      });
    }
    return sendJson(res, 404, { summary: "not_found" });
  }, port);
  return { ...server, present, issued };
}
