import { listen, readBody, sendJson, type Listening } from "./http.ts";

/**
 * A fake credentials configuration service, stateful, in its two variants (notes/fdsc.md §3,
 * api/credentials-config-service.yaml of FIWARE/credentials-config-service 3.4.0):
 * - `ccs`, the standalone Java service: POST 201 with an empty body and `Location: /service/{id}`
 *   (an id made when absent), 409 and 400 as its ProblemDetails (the 400 title copied from the
 *   trusted issuers list), 404 with an empty body, the list's `pageSize` = the items on the page,
 *   and a 500 for an unknown scope (the Java code dereferences null);
 * - `verifier`, the same API served by the VC verifier (port 8090, FIWARE/VCVerifier ccsapi): POST
 *   201 with the service, RFC 7807 errors typed `…/problem/{validation-error|not-found|conflict}`,
 *   `id` required, a 404 "Scope not found", the list's `pageSize` echoing the request.
 */
export type CcsVariant = "ccs" | "verifier";

export interface FakeCredentialsConfig extends Listening {
  readonly variant: CcsVariant;
  readonly services: Map<string, Service>;
}

type Json = Record<string, unknown>;
interface Service extends Json {
  id: string;
  defaultOidcScope: string;
  oidcScopes: Record<string, { credentials: Json[] } & Json>;
}

const VERIFIER_PROBLEM = "https://fiware.github.io/VCVerifier/problem";

export async function startFakeCredentialsConfig(
  options: { port?: number; variant?: CcsVariant } = {},
): Promise<FakeCredentialsConfig> {
  const variant = options.variant ?? "ccs";
  const services = new Map<string, Service>();
  type Res = Parameters<Parameters<typeof listen>[0]>[1];

  const invalid = (res: Res, detail: string) =>
    variant === "ccs"
      ? sendJson(res, 400, { status: 400, title: "Received an invalid issuer configuration.", detail })
      : sendJson(
          res,
          400,
          { type: `${VERIFIER_PROBLEM}/validation-error`, title: "Invalid service", status: 400, detail },
          {
            "content-type": "application/problem+json",
          },
        );
  const notFound = (res: Res, title: string, detail: string) => {
    if (variant === "ccs") return void res.writeHead(404).end();
    sendJson(
      res,
      404,
      { type: `${VERIFIER_PROBLEM}/not-found`, title, status: 404, detail },
      {
        "content-type": "application/problem+json",
      },
    );
  };

  /** The service's checks: the Java validator's messages, and the verifier's own stricter ones. */
  const problemOf = (body: Json, creating: boolean): string | undefined => {
    if (variant === "verifier" && creating && (typeof body.id !== "string" || !body.id))
      return "The service needs an id.";
    if (body.defaultOidcScope === undefined || body.defaultOidcScope === null)
      return "Default OIDC scope cannot be null.";
    const scopes = body.oidcScopes as Json | undefined;
    if (!scopes || typeof scopes !== "object") return "OIDC scopes cannot be null.";
    if (!(String(body.defaultOidcScope) in scopes))
      return "Default OIDC scope must exist in OIDC scopes array.";
    for (const [name, scope] of Object.entries(scopes)) {
      const credentials = (scope as Json)?.credentials;
      if (!Array.isArray(credentials) || credentials.length === 0)
        return variant === "verifier"
          ? `The scope ${name} needs at least one credential.`
          : "Credentials cannot be empty.";
      for (const credential of credentials as Json[]) {
        if (typeof credential?.type !== "string" || !credential.type)
          return "Type of a credential cannot be null.";
        const claims = ((credential.jwtInclusion as Json | undefined)?.claimsToInclude ?? []) as Json[];
        const keys = claims.map((c) => String(c.newKey ?? c.originalKey));
        if (new Set(keys).size !== keys.length) return "Configuration contains duplicate claim keys.";
      }
    }
    return undefined;
  };

  const server = await listen(async (req, res, url) => {
    const method = req.method ?? "GET";
    const path = url.pathname;
    const readJson = async (): Promise<Json | undefined> => {
      try {
        const body = JSON.parse(await readBody(req)) as Json;
        return body && typeof body === "object" && !Array.isArray(body) ? body : undefined;
      } catch {
        return undefined;
      }
    };
    if (path === "/_fake/health") return sendJson(res, 200, { variant, services: services.size });
    if (path === "/service" && method === "GET") {
      const page = Number(url.searchParams.get("page") ?? 0);
      const size = Number(url.searchParams.get("pageSize") ?? 100);
      if (!Number.isInteger(page) || !Number.isInteger(size) || page < 0 || size < 1)
        return invalid(res, "Page and pageSize must be positive.");
      const all = [...services.values()].sort((a, b) => a.id.localeCompare(b.id));
      const items = all.slice(page * size, page * size + size);
      return sendJson(res, 200, {
        total: all.length,
        pageNumber: page,
        pageSize: variant === "ccs" ? items.length : size,
        services: items,
      });
    }
    if (path === "/service" && method === "POST") {
      const body = await readJson();
      if (!body) return invalid(res, "The body is not a service.");
      const problem = problemOf(body, true);
      if (problem) return invalid(res, problem);
      const id = typeof body.id === "string" && body.id ? body.id : crypto.randomUUID();
      if (services.has(id))
        return variant === "ccs"
          ? sendJson(res, 409, {
              status: 409,
              title: "Conflict.",
              detail: `The service with id ${id} already exists.`,
              instance: id,
            })
          : sendJson(
              res,
              409,
              {
                type: `${VERIFIER_PROBLEM}/conflict`,
                title: "Service already exists",
                status: 409,
                detail: `A service with id "${id}" already exists.`,
              },
              { "content-type": "application/problem+json" },
            );
      const service = { ...body, id } as Service;
      services.set(id, service);
      const location = { location: `/service/${encodeURIComponent(id)}` };
      if (variant === "ccs") return void res.writeHead(201, location).end();
      return sendJson(res, 201, service, location);
    }
    const item = /^\/service\/([^/]+)(\/scope)?$/.exec(path);
    if (item) {
      const id = decodeURIComponent(item[1]!);
      const found = services.get(id);
      const missing = () => notFound(res, "Service not found", `No service with id "${id}" exists.`);
      if (item[2]) {
        if (method !== "GET") return missing();
        if (!found) return missing();
        const scope = url.searchParams.get("oidcScope") ?? found.defaultOidcScope;
        const entry = found.oidcScopes[scope];
        if (!entry)
          return variant === "ccs"
            ? sendJson(res, 500, {
                status: 500,
                title: "Internal Server Error",
                detail: "Request could not be answered due to an unexpected internal error.",
              })
            : notFound(res, "Scope not found", `No scope "${scope}" in service "${id}".`);
        return sendJson(
          res,
          200,
          entry.credentials.map((c) => c.type),
        );
      }
      if (method === "GET") return found ? sendJson(res, 200, found) : missing();
      if (method === "DELETE") {
        if (!found) return missing();
        services.delete(id);
        return void res.writeHead(204).end();
      }
      if (method === "PUT") {
        const body = await readJson();
        if (!body) return invalid(res, "The body is not a service.");
        if (body.id !== undefined && body.id !== id)
          return invalid(res, "The id of a service cannot be updated.");
        const problem = problemOf(body, false);
        if (problem) return invalid(res, problem);
        if (!found) return missing();
        const service = { ...body, id } as Service;
        services.set(id, service);
        return sendJson(res, 200, service);
      }
    }
    if (variant === "ccs")
      return sendJson(res, 404, { status: 404, title: "Not Found", detail: "Page Not Found" });
    return void res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404 page not found");
  }, options.port ?? 0);
  return { ...server, variant, services };
}
