import type { FastifyInstance } from "fastify";
import { isAllowed } from "@orrery/model";
import { Problem } from "../problems.ts";
import type { Session, Sessions } from "./sessions.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** public: anyone; session: any signed-in user; permission (default): the permission matcher decides. */
    access?: "public" | "session" | "permission";
  }
  interface FastifyRequest {
    session?: Session;
    bearer?: string;
  }
}

export function requestPath(url: string): string {
  const path = url.split("?")[0]!;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Every /api route is checked here, on the server, with the same matcher the console uses to hide
 * buttons. No route can forget it: access is "permission" unless a route declares otherwise.
 */
export function registerGuard(app: FastifyInstance, sessions: Sessions): void {
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/") && request.url !== "/api") return;
    const access = request.routeOptions.config?.access ?? "permission";
    if (access === "public") return;
    const header = request.headers.authorization ?? "";
    const [scheme, token, extra] = header.split(" ");
    if (!token || extra !== undefined || scheme?.toLowerCase() !== "bearer") {
      throw new Problem(
        401,
        "Unauthorized",
        "You must be authenticated: send Authorization: Bearer <token>.",
      );
    }
    const session = await sessions.find(token);
    if (!session)
      throw new Problem(401, "Unauthorized", "The access token is unknown or expired. Sign in again.");
    request.session = session;
    request.bearer = token;
    if (
      access === "permission" &&
      !isAllowed(session.permissions, request.method, requestPath(request.url))
    ) {
      throw new Problem(
        403,
        "Forbidden",
        `You are not allowed to ${request.method} ${requestPath(request.url)}.`,
      );
    }
  });
}
