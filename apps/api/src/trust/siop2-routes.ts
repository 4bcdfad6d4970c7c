import { randomBytes } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { and, eq, gt, isNotNull, isNull, lt } from "drizzle-orm";
import { isAllowed, services, vcVerifiers } from "@orrery/model";
import { asSegment } from "../auth/guard.ts";
import type { Config } from "../config.ts";
import { address } from "../context-data/broker-access.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import type { Database } from "../storage/database.ts";
import { siop2States } from "../storage/schema.ts";
import { PeerUnreachable, callPeer } from "../peers.ts";

/** How long an issued state waits for the verifier's code and the console's poll. */
export const STATE_LIFETIME_MS = 5 * 60_000;
/** How often expired states are swept besides at each issue. */
const SWEEP_MS = 60_000;
/** How much of a verifier's refusal goes to the log. */
const LOGGED_BODY_CHARS = 2_000;

/**
 * Per minute. The callback comes from the verifier's server, one address for all its users; the
 * poll runs every second for each login in flight, keyed by the signed-in user.
 */
export const SIOP2_LIMITS = { states: 30, callback: 120, poll: 120 } as const;

/**
 * SIOP-2 login to a workspace whose service is behind a FIWARE VC verifier (spec section 7; the
 * original's SIOP2Controller, made safe):
 * - the console asks the API for a state (signed in: the user must be able to see the workspace);
 *   the state is random, bound to the workspace and the user, and expires in a few minutes;
 * - the verifier calls back with the code of a state (server to server, no login): only an issued
 *   state still waiting gets a code, once; anything else is refused and nothing is stored, so
 *   neither a flood of made-up states nor someone who learnt a state (it is in the QR code) can
 *   store or swap a code;
 * - the console polls with the state and the workspace, as the same user (503 until the code is
 *   there); the poll, single use, exchanges the code at the verifier's token endpoint and answers
 *   the access token (text/plain, as the original did), which the console sends as
 *   Gateway-Authorization on the workspace's context-data calls.
 */
export async function registerSiop2Routes(
  app: FastifyInstance,
  records: Records,
  db: Database,
  config: Config,
): Promise<void> {
  const callbackUrl = `${config.publicUrl}/api/siop2/callback`;
  const text = z.string().min(1).max(2_000);

  const sweep = () => db.delete(siop2States).where(lt(siop2States.expiresAt, new Date()));
  const sweeper = setInterval(
    () => void sweep().catch((err: unknown) => app.log.warn({ err }, "SIOP-2 states sweep failed")),
    SWEEP_MS,
  );
  sweeper.unref();
  app.addHook("onClose", async () => clearInterval(sweeper));

  /** The workspace's service in SIOP-2 mode and its verifier, else the problem that says why not. */
  async function verifierOf(workspaceId: string) {
    const workspace = await records.requireWorkspace(workspaceId);
    const service = await records.find(services, String(workspace.data.hasService));
    if (service?.data.authorizationMode !== "siop2" || service.data.authorizationRequired !== true)
      throw problem(400, "siop2.notSiop2");
    const verifier = await records.find(vcVerifiers, String(service.data.hasVCVerifier));
    if (!verifier) throw problem(409, "workspace.incompleteService");
    return { verifier, clientId: String(service.data.clientId ?? "") };
  }

  // In a scope of their own, so that the rate limits apply to these routes only.
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      // Signed-in routes count per user (several users may share one address), the callback per address.
      keyGenerator: (request: FastifyRequest) =>
        request.session ? `subject:${request.session.subject}` : `ip:${request.ip}`,
      errorResponseBuilder: (_request, context) =>
        problem(429, "request.tooMany", { seconds: Math.ceil(context.ttl / 1000) }),
    });
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

    api.post(
      "/api/siop2/states",
      {
        // Any signed-in user who may see the workspace: the SIOP-2 token, not Orrery's permissions,
        // decides what the workspace's broker lets them do. Anonymous callers cannot issue states.
        config: { access: "session", ...perMinute(SIOP2_LIMITS.states) },
        schema: { tags: ["siop2"], body: z.object({ workspaceId: text }) },
      },
      async (request, reply) => {
        const { workspaceId } = request.body;
        const session = request.session!;
        const path = `/api/workspaces/${asSegment(workspaceId)}`;
        if (!isAllowed(session.permissions, "GET", path))
          throw problem(403, "auth.forbidden", { method: "GET", path });
        const { verifier, clientId } = await verifierOf(workspaceId);
        await sweep();
        const state = randomBytes(32).toString("base64url");
        const expiresAt = new Date(Date.now() + STATE_LIFETIME_MS);
        await db.insert(siop2States).values({ state, workspaceId, subject: session.subject, expiresAt });
        const loginUrl = new URL(`${address(verifier.data).replace(/\/$/, "")}/api/v1/loginQR`);
        loginUrl.search = new URLSearchParams({
          state,
          client_id: clientId,
          client_callback: callbackUrl,
        }).toString();
        return reply
          .code(201)
          .header("cache-control", "no-store")
          .send({ state, loginUrl: loginUrl.toString(), expiresAt: expiresAt.toISOString() });
      },
    );

    api.get(
      "/api/siop2/callback",
      {
        config: { access: "public", ...perMinute(SIOP2_LIMITS.callback) },
        schema: { tags: ["siop2"], querystring: z.object({ state: text, code: text }) },
      },
      async (request, reply) => {
        const { state, code } = request.query;
        const live = and(eq(siop2States.state, state), gt(siop2States.expiresAt, new Date()));
        const [filled] = await db
          .update(siop2States)
          .set({ code })
          .where(and(live, isNull(siop2States.code)))
          .returning({ state: siop2States.state });
        if (filled) return reply.code(204).send();
        const [called] = await db
          .select({ state: siop2States.state })
          .from(siop2States)
          .where(and(live, isNotNull(siop2States.code)));
        throw called ? problem(409, "siop2.alreadyCalledBack") : problem(404, "siop2.unknownState");
      },
    );

    api.get(
      "/api/siop2/poll",
      {
        config: { access: "session", ...perMinute(SIOP2_LIMITS.poll) },
        schema: { tags: ["siop2"], querystring: z.object({ state: text, workspaceId: text }) },
      },
      async (request, reply) => {
        const { state, workspaceId } = request.query;
        const { verifier } = await verifierOf(workspaceId);
        const mine = and(
          eq(siop2States.state, state),
          eq(siop2States.workspaceId, workspaceId),
          eq(siop2States.subject, request.session!.subject),
          gt(siop2States.expiresAt, new Date()),
        );
        // Single use: the code is taken out as it is read.
        const [found] = await db
          .delete(siop2States)
          .where(and(mine, isNotNull(siop2States.code)))
          .returning();
        if (!found) {
          const [pending] = await db.select({ state: siop2States.state }).from(siop2States).where(mine);
          throw pending ? problem(503, "siop2.waiting") : problem(404, "siop2.unknownState");
        }
        const name = String(verifier.data.name);
        const answer = await callPeer(
          `${address(verifier.data).replace(/\/$/, "")}/token`,
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
            body: new URLSearchParams({
              grant_type: "authorization_code",
              code: found.code!,
              redirect_uri: callbackUrl,
            }),
          },
          "vc-verifiers",
        ).catch((err: unknown) => {
          throw err instanceof PeerUnreachable
            ? problem(502, "siop2.unreachable", { name, cause: err.cause })
            : err;
        });
        const token = (answer.body as { access_token?: unknown } | null)?.access_token;
        if (answer.ok && typeof token === "string")
          return reply.type("text/plain").header("cache-control", "no-store").send(token);
        // The verifier's words are for the operator's log, not for the caller: a catalogued reason.
        // An answer without an access token may still hold other tokens: only its field names are logged.
        const said = answer.ok
          ? Object.keys(answer.body ?? {}).join(", ")
          : typeof answer.body === "string"
            ? answer.body
            : JSON.stringify(answer.body);
        request.log.warn(
          { verifier: name, status: answer.status, body: said.slice(0, LOGGED_BODY_CHARS) },
          "the VC verifier did not exchange a SIOP-2 code for a token",
        );
        throw answer.ok
          ? problem(502, "siop2.noToken", { name })
          : problem(502, "siop2.refused", { name, status: answer.status });
      },
    );
  });
}
