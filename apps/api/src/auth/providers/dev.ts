import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../../storage/database.ts";
import { devAuthorizationCodes } from "../../storage/schema.ts";
import type { Policy } from "../policy.ts";
import { languageOf, say, type Language, type MessageCode } from "../../messages/say.ts";
import { LoginFailed, type IdentityProvider } from "./provider.ts";

/** The demo users of the development identity manager: the password is the user name. */
export const demoUsers = [
  { username: "admin", roles: ["admin"], summary: "idm.user.admin" },
  { username: "operator", roles: ["operator"], summary: "idm.user.operator" },
  { username: "viewer", roles: ["viewer"], summary: "idm.user.viewer" },
  { username: "showroom", roles: ["showroom"], summary: "idm.user.showroom" },
] as const satisfies ReadonlyArray<{ username: string; roles: string[]; summary: MessageCode }>;

export function checkDemoPassword(username: string, password: string) {
  const user = demoUsers.find((u) => u.username === username);
  const a = Buffer.from(password);
  const b = Buffer.from(username);
  return user && a.length === b.length && timingSafeEqual(a, b) ? user : undefined;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's language: the console's (OpenID Connect's ui_locales), else the browser's. */
const pageLanguage = (params: Record<string, string>, acceptLanguage: string | undefined): Language =>
  languageOf(params.ui_locales ? params.ui_locales.replaceAll(" ", ",") : acceptLanguage);

function loginPage(params: Record<string, string>, language: Language, error?: MessageCode): string {
  const t = (code: MessageCode) => escape(say(language, code));
  const hidden = Object.entries(params)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join("");
  const users = demoUsers
    .map(
      (u) =>
        `<li><code>${u.username}</code> / <code>${u.username}</code>${t("idm.colon")}${t(u.summary)}</li>`,
    )
    .join("");
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${t("idm.title")}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#212529}
label{display:block;margin:.75rem 0 .25rem}input[type=text],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1.5rem;background:#0d6efd;color:#fff;border:0;border-radius:.375rem}
.error{color:#b02a37;background:#f8d7da;padding:.5rem;border-radius:.375rem}.note{font-size:.875rem;color:#6c757d}</style></head>
<body><h1>${t("idm.signIn")}</h1><p class="note">${t("idm.note")}</p>
${error ? `<p class="error" role="alert">${t(error)}</p>` : ""}
<form method="post" action="/idm/authorize">${hidden}
<label for="username">${t("idm.username")}</label><input id="username" name="username" type="text" autocomplete="username" required autofocus>
<label for="password">${t("idm.password")}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${t("idm.signIn")}</button></form>
<h2 style="font-size:1rem;margin-top:2rem">${t("idm.demoUsers")}</h2><ul class="note">${users}</ul></body></html>`;
}

/**
 * A small OAuth 2.0 authorization server inside the API process: a login page issuing
 * authorization codes bound to a PKCE challenge. Codes are in the database like sessions.
 */
export function devProvider(
  app: FastifyInstance,
  db: Database,
  policy: Policy,
  publicUrl: string,
): IdentityProvider {
  const loginParams = ["state", "code_challenge", "redirect_uri", "ui_locales"] as const;

  app.get(
    "/idm/authorize",
    { config: { access: "public" }, schema: { hide: true } },
    async (request, reply) => {
      const q = request.query as Record<string, string>;
      const params = Object.fromEntries(loginParams.map((k) => [k, q[k] ?? ""]));
      return reply
        .type("text/html")
        .send(loginPage(params, pageLanguage(params, request.headers["accept-language"])));
    },
  );

  app.post(
    "/idm/authorize",
    { config: { access: "public" }, schema: { hide: true } },
    async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, string>;
      const params = Object.fromEntries(loginParams.map((k) => [k, String(form[k] ?? "")]));
      const language = pageLanguage(params, request.headers["accept-language"]);
      if (!params.redirect_uri?.startsWith(`${publicUrl}/`) || !params.code_challenge || !params.state) {
        return reply
          .code(400)
          .type("text/html")
          .send(loginPage(params, language, "idm.incomplete"));
      }
      const user = checkDemoPassword(String(form.username ?? ""), String(form.password ?? ""));
      if (!user)
        return reply
          .code(401)
          .type("text/html")
          .send(loginPage(params, language, "idm.wrongPassword"));
      const code = randomBytes(24).toString("base64url");
      await db.insert(devAuthorizationCodes).values({
        code,
        username: user.username,
        codeChallenge: params.code_challenge,
        redirectUri: params.redirect_uri,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const target = new URL(params.redirect_uri);
      target.searchParams.set("code", code);
      target.searchParams.set("state", params.state);
      return reply.redirect(target.toString(), 303);
    },
  );

  return {
    name: "dev",
    async authorizeUrl({ state, codeChallenge, redirectUri, language }) {
      const url = new URL(`${publicUrl}/idm/authorize`);
      url.search = new URLSearchParams({
        state,
        code_challenge: codeChallenge,
        redirect_uri: redirectUri,
        ...(language ? { ui_locales: language } : {}),
      }).toString();
      return url.toString();
    },
    async finish({ code, codeVerifier, redirectUri }) {
      const [row] = await db
        .delete(devAuthorizationCodes)
        .where(and(eq(devAuthorizationCodes.code, code), gt(devAuthorizationCodes.expiresAt, new Date())))
        .returning();
      const challenge = createHash("sha256").update(codeVerifier).digest("base64url");
      if (!row || row.codeChallenge !== challenge || row.redirectUri !== redirectUri) {
        throw new LoginFailed("The authorization code is invalid or expired.");
      }
      const user = demoUsers.find((u) => u.username === row.username)!;
      return {
        subject: user.username,
        username: user.username,
        provider: "dev",
        permissions: policy.permissionsFor(user.roles),
      };
    },
  };
}
