import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { and, eq, gt, lt } from "drizzle-orm";
import { services, vcVerifiers } from "@orrery/model";
import type { Config } from "../config.ts";
import { address } from "../context-data/broker-access.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import type { Database } from "../storage/database.ts";
import { siop2States } from "../storage/schema.ts";
import { PeerUnreachable, callPeer } from "../peers.ts";

/** How long the verifier's code waits for the console's poll. */
const CODE_LIFETIME_MS = 5 * 60_000;

/**
 * SIOP-2 login to a workspace whose service is behind a FIWARE VC verifier (spec section 7; the
 * original's SIOP2Controller): the verifier calls back with the code of a state (server to server,
 * no login: the random state is the secret), kept in the database a few minutes; the console polls
 * with the state (503 until the code is there), and the poll, single use, exchanges the code at the
 * verifier's token endpoint and answers the access token (text/plain, as the original did). The
 * console then sends it as Gateway-Authorization on the workspace's context-data calls.
 */
export function registerSiop2Routes(
  app: FastifyInstance,
  records: Records,
  db: Database,
  config: Config,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const callbackUrl = `${config.publicUrl}/api/siop2/callback`;
  const text = z.string().min(1).max(2_000);

  api.get(
    "/api/siop2/callback",
    {
      config: { access: "public" },
      schema: { tags: ["siop2"], querystring: z.object({ state: text, code: text }) },
    },
    async (request, reply) => {
      const { state, code } = request.query;
      await db.delete(siop2States).where(lt(siop2States.expiresAt, new Date()));
      await db
        .insert(siop2States)
        .values({ state, code, expiresAt: new Date(Date.now() + CODE_LIFETIME_MS) })
        .onConflictDoUpdate({ target: siop2States.state, set: { code } });
      return reply.code(204).send();
    },
  );

  api.get(
    "/api/siop2/poll",
    {
      config: { access: "public" },
      schema: { tags: ["siop2"], querystring: z.object({ state: text, workspaceId: text }) },
    },
    async (request, reply) => {
      const { state, workspaceId } = request.query;
      const workspace = await records.requireWorkspace(workspaceId);
      const service = await records.find(services, String(workspace.data.hasService));
      if (service?.data.authorizationMode !== "siop2" || service.data.authorizationRequired !== true)
        throw problem(400, "siop2.notSiop2");
      const verifier = await records.find(vcVerifiers, String(service.data.hasVCVerifier));
      if (!verifier) throw problem(409, "workspace.incompleteService");
      // Single use: the code is taken out as it is read.
      const [found] = await db
        .delete(siop2States)
        .where(and(eq(siop2States.state, state), gt(siop2States.expiresAt, new Date())))
        .returning();
      if (!found) throw problem(503, "siop2.waiting");
      const name = String(verifier.data.name);
      const answer = await callPeer(`${address(verifier.data).replace(/\/$/, "")}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: found.code,
          redirect_uri: callbackUrl,
        }),
      }).catch((err: unknown) => {
        throw err instanceof PeerUnreachable
          ? problem(502, "siop2.unreachable", { name, cause: err.cause })
          : err;
      });
      const body = (typeof answer.body === "object" && answer.body !== null ? answer.body : {}) as {
        access_token?: unknown;
      };
      if (!answer.ok || typeof body.access_token !== "string")
        throw problem(502, "siop2.refused", { name, status: answer.status }, { verifierBody: body });
      return reply.type("text/plain").header("cache-control", "no-store").send(body.access_token);
    },
  );
}
