import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";

/** An RFC 9457 problem: thrown anywhere, answered as application/problem+json. */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ? `${title}: ${detail}` : title);
  }
}

export interface FieldError {
  path: string;
  message: string;
}

export const invalid = (errors: FieldError[]) =>
  new Problem(
    400,
    "The submitted data is invalid",
    errors.map((e) => `${e.path || "body"} ${e.message}`).join("; "),
    {
      errors,
    },
  );
export const notFound = (what: string) => new Problem(404, "Not found", `${what} does not exist`);

const typeBase = "https://orrery.dev/problems/";
const titles: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  412: "Precondition failed",
  413: "Payload too large",
  415: "Unsupported media type",
  501: "Not implemented",
  502: "Bad gateway",
};

/** The problem+json body of a problem. */
const problemBody = (problem: Problem) => ({
  type: `${typeBase}${problem.status}`,
  title: problem.title,
  status: problem.status,
  ...(problem.detail ? { detail: problem.detail } : {}),
  ...problem.extra,
});

/**
 * Fastify's errors raised before routing (a request target whose percent-encoding is broken),
 * answered as problems too instead of Fastify's own body. Given to Fastify's `frameworkErrors`.
 */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const problem =
    error.code === "FST_ERR_BAD_URL"
      ? new Problem(
          400,
          "Bad request",
          "The request target is not a valid URL: its percent-encoding is broken.",
        )
      : new Problem(400, "Bad request", error.message);
  void reply.code(problem.status).type("application/problem+json").send(problemBody(problem));
}

export function registerProblems(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Problem, request, reply) => {
    let problem: Problem;
    if (error instanceof Problem) {
      problem = error;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext === "body" ? "" : `${error.validationContext}.`;
      problem = invalid(
        error.validation.map((v) => ({
          path: where + v.instancePath.replace(/^\//, "").replaceAll("/", "."),
          message:
            v.keyword === "unrecognized_keys"
              ? `has unknown fields: ${(v.params as { keys?: string[] }).keys?.join(", ")}`
              : (v.message ?? "is invalid"),
        })),
      );
    } else if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
      problem = new Problem(error.statusCode, titles[error.statusCode] ?? "Bad request", error.message);
    } else {
      request.log.error({ err: error }, "unexpected error");
      problem = new Problem(500, "Internal server error", "The server failed; the error is in its log.");
    }
    return reply.code(problem.status).type("application/problem+json").send(problemBody(problem));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .type("application/problem+json")
      .send({
        type: `${typeBase}404`,
        title: "Not found",
        status: 404,
        detail: `No route ${request.method} ${request.url.split("?")[0]}`,
      }),
  );
}
