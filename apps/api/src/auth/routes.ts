import { createHash, randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { and, eq, gt, lt } from "drizzle-orm";
import { z } from "zod";
import { writeAudit, type Actor } from "../audit/trail.ts";
import type { Config } from "../config.ts";
import { problem } from "../problems.ts";
import type { Database } from "../storage/database.ts";
import { loginRequests } from "../storage/schema.ts";
import { checkDemoPassword, demoUsers } from "./providers/dev.ts";
import type { IdentityProvider } from "./providers/provider.ts";
import type { Policy } from "./policy.ts";
import type { Sessions } from "./sessions.ts";

// `exact`: a plain path compared as written (Keyrock's non-regex permissions), not a regular expression.
const permission = z.object({ action: z.string(), resource: z.string(), exact: z.boolean().optional() });
const tokenResponse = z.object({
  token: z.string(),
  token_type: z.literal("Bearer"),
  expires_at: z.string(),
});

/** How soon the sign-in page's check of the identity manager's settings runs again, after a failure and after a pass. */
export const RECHECK_FAILED_MS = 2_000;
const RECHECK_PASSED_MS = 5 * 60_000;

/**
 * The provider's check of its settings, asked again when the sign-in page asks: an identity manager
 * that starts after the API, or an account given its rights later, is seen within seconds, and a
 * page loaded by anyone costs at most one check every RECHECK_FAILED_MS.
 */
function signInCheck(provider: IdentityProvider, startUp: { problem?: string; at: number }) {
  let last = startUp;
  let running: Promise<string | undefined> | undefined;
  return async (): Promise<string | undefined> => {
    const age = Date.now() - last.at;
    if (!provider.check || age < (last.problem ? RECHECK_FAILED_MS : RECHECK_PASSED_MS)) return last.problem;
    running ??= provider
      .check()
      .then((problem) => {
        last = { problem, at: Date.now() };
        return problem;
      })
      .finally(() => (running = undefined));
    return running;
  };
}

/**
 * Login is the OAuth 2.0 authorization-code flow with PKCE and state, run by the API against the
 * configured identity manager; the console receives the spec's token, token_type and expires_at.
 */
export function registerAuthRoutes(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Database;
    sessions: Sessions;
    provider: IdentityProvider;
    policy: Policy;
    /** What the provider's check said at start-up. */
    signInProblem?: string;
  },
): void {
  const { config, db, sessions, provider } = deps;
  /** The sign-in's audit event, written in the new session's transaction. */
  const signedIn = (by: Actor) =>
    config.auditTrail
      ? (tx: Parameters<typeof writeAudit>[0]) => writeAudit(tx, by, [{ action: "signIn" }])
      : undefined;
  const checkSignIn = signInCheck(provider, { problem: deps.signInProblem, at: Date.now() });
  const api = app.withTypeProvider<ZodTypeProvider>();
  const redirectUri = `${config.publicUrl}/api/auth/callback`;
  const consoleRoute = (path: string, params: Record<string, string>) =>
    `${config.consoleUrl}${path}?${new URLSearchParams(params).toString()}`;

  const clampExpiry = (expiresAt?: Date) => {
    const max = new Date(Date.now() + config.sessionTtlSeconds * 1000);
    return expiresAt && expiresAt < max ? expiresAt : max;
  };

  api.get(
    "/api/auth/login",
    {
      config: { access: "public" },
      schema: {
        tags: ["auth"],
        summary: "Start signing in",
        querystring: z.object({ lang: z.enum(["en", "fr"]).optional() }),
      },
    },
    async (request, reply) => {
      const state = randomBytes(24).toString("base64url");
      const codeVerifier = randomBytes(32).toString("base64url");
      const nonce = randomBytes(16).toString("base64url");
      await db.delete(loginRequests).where(lt(loginRequests.expiresAt, new Date()));
      await db
        .insert(loginRequests)
        .values({ state, codeVerifier, nonce, expiresAt: new Date(Date.now() + 10 * 60_000) });
      const codeChallenge = createHash("sha256").update(codeVerifier).digest("base64url");
      const language = request.query.lang;
      return reply.redirect(
        await provider.authorizeUrl({
          state,
          codeChallenge,
          nonce,
          redirectUri,
          ...(language ? { language } : {}),
        }),
        302,
      );
    },
  );

  api.get(
    "/api/auth/callback",
    {
      config: { access: "public" },
      schema: {
        tags: ["auth"],
        summary: "Finish signing in; redirects to the console's callbacks.authentication route",
        querystring: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
          error_description: z.string().optional(),
        }),
      },
    },
    async (request, reply) => {
      const { code, state, error, error_description } = request.query;
      const fail = (message: string) =>
        reply.redirect(consoleRoute("/authentication", { error: message }), 302);
      if (error) return fail(error_description ?? error);
      if (!code || !state) return fail("The identity manager did not return an authorization code.");
      const [pending] = await db
        .delete(loginRequests)
        .where(and(eq(loginRequests.state, state), gt(loginRequests.expiresAt, new Date())))
        .returning();
      if (!pending) return fail("This sign-in attempt is unknown or too old. Please sign in again.");
      try {
        const identity = await provider.finish({
          code,
          state,
          codeVerifier: pending.codeVerifier,
          nonce: pending.nonce,
          redirectUri,
          callbackUrl: new URL(request.url, config.publicUrl),
        });
        const session = await sessions.create(
          { ...identity, expiresAt: clampExpiry(identity.expiresAt) },
          signedIn(identity),
        );
        request.log.info({ user: identity.username, provider: identity.provider }, "signed in");
        return reply.redirect(
          consoleRoute("/callbacks/authentication", {
            token: session.token,
            token_type: "Bearer",
            expires_at: session.expiresAt.toISOString(),
          }),
          302,
        );
      } catch (err) {
        request.log.warn({ err: (err as Error).message }, "sign-in failed");
        return fail((err as Error).message || "The sign-in failed.");
      }
    },
  );

  api.get(
    "/api/auth/status",
    {
      config: { access: "public" },
      schema: {
        tags: ["auth"],
        summary:
          "What the sign-in page says: why signing in cannot work, if it cannot, and the application's name",
        response: {
          200: z.object({ signInProblem: z.string().nullable(), application: z.string().nullable() }),
        },
      },
    },
    async (_request, reply) => {
      const [signInProblem, application] = await Promise.all([
        checkSignIn(),
        provider.applicationName?.().catch(() => undefined),
      ]);
      return reply
        .header("cache-control", "no-store")
        .send({ signInProblem: signInProblem ?? null, application: application ?? null });
    },
  );

  api.post(
    "/api/auth/logout",
    { config: { access: "session" }, schema: { tags: ["auth"], summary: "Revoke the current session" } },
    async (request, reply) => {
      await sessions.revoke(request.bearer!);
      return reply.code(204).send();
    },
  );

  api.get(
    "/api/authorization/permissions",
    {
      config: { access: "session" },
      schema: { tags: ["auth"], summary: "The caller's permissions", response: { 200: z.array(permission) } },
    },
    async (request) => request.session!.permissions,
  );

  if (provider.name === "dev") {
    // For scripts and curl (`npm run token -- admin`): the dev identity manager's password grant.
    api.post(
      "/api/auth/dev-token",
      {
        config: { access: "public" },
        schema: {
          tags: ["auth"],
          summary: `Development only: a bearer token for a demo user (${demoUsers.map((u) => u.username).join(", ")})`,
          body: z.object({ username: z.string(), password: z.string() }),
          response: { 200: tokenResponse },
        },
      },
      async (request) => {
        const user = checkDemoPassword(request.body.username, request.body.password);
        if (!user) throw problem(401, "idm.wrongPassword");
        const by = { subject: user.username, username: user.username, provider: "dev" };
        const session = await sessions.create(
          { ...by, permissions: deps.policy.permissionsFor(user.roles), expiresAt: clampExpiry() },
          signedIn(by),
        );
        return {
          token: session.token,
          token_type: "Bearer" as const,
          expires_at: session.expiresAt.toISOString(),
        };
      },
    );
  }
}
