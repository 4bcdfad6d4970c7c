import type { FastifyInstance, FastifyRequest } from "fastify";
import { isAllowed } from "@orrery/model";
import { problem } from "../problems.ts";
import type { Session, Sessions } from "./sessions.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** public: anyone; session: any signed-in user; permission (default): the permission matcher decides. */
    access?: "public" | "session" | "permission";
    /**
     * A credential in the query, for a route whose clients cannot send an Authorization header
     * (EventSource): the session it stands for, used when the request has no Authorization header.
     */
    queryCredential?: (request: FastifyRequest) => Promise<Session | undefined> | Session | undefined;
  }
  interface FastifyRequest {
    session?: Session;
    bearer?: string;
  }
}

/** A path parameter as it stands in a served path: decoded, with the characters that would change the path's shape escaped. */
export const asSegment = (value: string, wildcard = false) =>
  value.replace(wildcard ? /[%?#]/g : /[%/?#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The path the router served: the matched route's pattern with the decoded parameters put back.
 * Permissions are decided on this, never on the raw request target, which may be percent-encoded
 * (`/%61pi/...`), in absolute form (`GET http://host/api/...`) or otherwise spelled so that a test
 * on the string and the router disagree.
 */
export function servedPath(request: FastifyRequest): string | undefined {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return undefined;
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  return pattern.replace(/:(\w+)(?:\([^)]*\))?|\*/g, (match, name: string | undefined) =>
    asSegment(params[name ?? "*"] ?? "", match === "*"),
  );
}

/** The session of a request's bearer token; 401 without one, or with one that is unknown or expired. */
export async function bearerSession(request: FastifyRequest, sessions: Sessions): Promise<Session> {
  const header = request.headers.authorization ?? "";
  const [scheme, token, extra] = header.split(" ");
  if (!token || extra !== undefined || scheme?.toLowerCase() !== "bearer") {
    throw problem(401, "auth.unauthenticated");
  }
  const session = await sessions.find(token);
  if (!session) throw problem(401, "auth.unknownToken");
  request.session = session;
  request.bearer = token;
  return session;
}

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");

/**
 * Every /api route is checked here, on the server, with the same matcher the console uses to hide
 * buttons. No route can forget it: access is "permission" unless a route declares otherwise, and
 * whether a request is an /api request is read from the route the router matched, for every
 * request, whatever its target looked like.
 */
export function registerGuard(app: FastifyInstance, sessions: Sessions): void {
  app.addHook("onRequest", async (request) => {
    const path = servedPath(request);
    if (path === undefined || !isApi(request.routeOptions.url!)) return;
    const access = request.routeOptions.config?.access ?? "permission";
    if (access === "public") return;
    const header = request.headers.authorization ?? "";
    const fromQuery = header ? undefined : await request.routeOptions.config?.queryCredential?.(request);
    if (fromQuery) request.session = fromQuery;
    const session = fromQuery ?? (await bearerSession(request, sessions));
    // HEAD is the GET of the same route without its body.
    const method = request.method === "HEAD" ? "GET" : request.method;
    if (access === "permission" && !isAllowed(session.permissions, method, path)) {
      throw problem(403, "auth.forbidden", { method, path });
    }
  });
}
