import { DrizzleQueryError } from "drizzle-orm";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { z } from "zod";
import { fieldMessageOfIssue } from "./messages/issues.ts";
import { en } from "./messages/en.ts";
import { pathLabel } from "./messages/labels.ts";
import {
  languageOf,
  say,
  type Language,
  type Message,
  type MessageCode,
  type Params,
} from "./messages/say.ts";

/** The catalogued messages of a problem: its title, and its detail when that is one sentence of ours. */
export interface Said {
  title: MessageCode;
  detail?: Message;
}

/**
 * An RFC 9457 problem: thrown anywhere, answered as application/problem+json. A problem made by
 * `problem()` or `invalid()` carries catalogued messages (`said`), written in the language the
 * client asks for and sent with their stable `code` and `params`.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly extra: Record<string, unknown> = {},
    readonly said?: Said,
  ) {
    super(detail ? `${title}: ${detail}` : title);
  }
}

const titleOf = (status: number): MessageCode =>
  `title.${status}` in en ? (`title.${status}` as MessageCode) : status >= 500 ? "title.500" : "title.400";

/** A problem whose detail is a catalogued message. */
export function problem(
  status: number,
  code: MessageCode,
  params?: Params,
  extra: Record<string, unknown> = {},
) {
  const title = titleOf(status);
  return new Problem(status, say("en", title), say("en", code, params), extra, {
    title,
    detail: { code, ...(params ? { params } : {}) },
  });
}

export interface FieldError {
  path: string;
  message: string;
  code?: MessageCode;
  params?: Params;
}

/** A field error with a catalogued message. */
export const fieldError = (path: string, code: MessageCode, params?: Params): FieldError => ({
  path,
  message: say("en", code, params),
  code,
  ...(params ? { params } : {}),
});

/** Field errors as sentences, each field named by its label ("“Not on or after” must come after “Not before”"). */
const lines = (errors: FieldError[], language: Language = "en") =>
  errors.map((e) => `${e.path ? pathLabel(language, e.path) : "body"} ${e.message}`);
const joined = (errors: FieldError[], language?: Language) => lines(errors, language).join("; ");

export const invalid = (errors: FieldError[]) =>
  new Problem(400, say("en", "title.invalid"), joined(errors), { errors }, { title: "title.invalid" });

/** 404: a record (by id), or a workspace, type, property or context that does not exist. */
export const notFound = (
  id: string,
  what: "record" | "workspace" | "type" | "property" | "context" = "record",
) => problem(404, `notFound.${what}`, { id });

const typeBase = "https://orrery.dev/problems/";

/** The body problemBody writes, as the OpenAPI document describes an error answer. */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.string().optional(),
  code: z.string().optional().describe("The stable code of the detail's catalogued message"),
  params: z.record(z.string(), z.unknown()).optional(),
  details: z
    .array(z.string())
    .optional()
    .describe("The detail, or the field errors, one sentence each: what the original console shows"),
  errors: z
    .array(
      z.object({
        path: z.string(),
        message: z.string(),
        code: z.string().optional(),
        params: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional()
    .describe("A validation failure's field errors"),
});

/** The problem+json body, in the reader's language where the problem's messages are catalogued. */
export function problemBody(problem: Problem, language: Language) {
  const errors = problem.extra.errors as FieldError[] | undefined;
  const localErrors = errors?.map((e) => (e.code ? { ...e, message: say(language, e.code, e.params) } : e));
  const said = problem.said;
  const detail = said?.detail
    ? say(language, said.detail.code, said.detail.params)
    : localErrors
      ? joined(localErrors, language)
      : problem.detail;
  // The spec's clients show a problem's `details` under its title (the original API's error shape,
  // an RFC 9457 extension member): the field errors one sentence each, or the detail.
  const details = localErrors ? lines(localErrors, language) : detail ? [detail] : undefined;
  return {
    type: `${typeBase}${problem.status}`,
    title: said ? say(language, said.title) : problem.title,
    status: problem.status,
    ...(detail ? { detail } : {}),
    ...(said?.detail ?? {}),
    ...(details ? { details } : {}),
    ...problem.extra,
    ...(localErrors ? { errors: localErrors } : {}),
  };
}

const send = (problem: Problem, request: FastifyRequest, reply: FastifyReply) =>
  reply
    .code(problem.status)
    .type("application/problem+json")
    .send(problemBody(problem, languageOf(request.headers["accept-language"])));

/**
 * Fastify's errors raised before routing (a request target whose percent-encoding is broken),
 * answered as problems too instead of Fastify's own body. Given to Fastify's `frameworkErrors`.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void send(
    error.code === "FST_ERR_BAD_URL"
      ? problem(400, "request.badUrl")
      : new Problem(400, say("en", "title.400"), error.message, {}, { title: "title.400" }),
    request,
    reply,
  );
}

/** Fastify's own client errors, as catalogued messages where we know them. */
function clientError(error: FastifyError, request: FastifyRequest): Problem {
  const status = error.statusCode!;
  // Fastify's message names no limit: the route's own, else the server's.
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
    return problem(413, "request.tooLarge", {
      limit: request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0,
    });
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
    return problem(415, "request.unsupportedMediaType", { type: /:\s*(.*)$/.exec(error.message)?.[1] ?? "" });
  if (error instanceof SyntaxError || error.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
    return problem(400, "request.invalidJson", { reason: error.message });
  return new Problem(status, say("en", titleOf(status)), error.message, {}, { title: titleOf(status) });
}

/**
 * A failed statement as it may be logged: the statement and the database's reason, never the values
 * it was given (drizzle puts them in its message and the database in its `detail`: records' data,
 * encrypted secrets, who made the change).
 */
function withoutValues(error: Error): Error {
  if (!(error instanceof DrizzleQueryError)) return error;
  const reason = error.cause as Record<string, unknown> | undefined;
  const logged = new Error(`Failed query: ${error.query}`);
  const frames = error.stack?.split("\n").filter((line) => line.startsWith("    at ")) ?? [];
  logged.stack = [`Error: ${logged.message}`, ...frames].join("\n");
  return Object.assign(logged, {
    reason: reason && {
      message: reason.message,
      code: reason.code,
      table: reason.table,
      constraint: reason.constraint,
    },
  });
}

export function registerProblems(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Problem, request, reply) => {
    let answer: Problem;
    if (error instanceof Problem) {
      answer = error;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext === "body" ? "" : `${error.validationContext}.`;
      answer = invalid(
        error.validation.map((v) => ({
          path: where + v.instancePath.replace(/^\//, "").replaceAll("/", "."),
          ...fieldMessageOfIssue(v.keyword, v.params as Record<string, unknown>, v.message),
        })),
      );
    } else if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
      answer = clientError(error, request);
    } else {
      request.log.error({ err: withoutValues(error) }, "unexpected error");
      answer = problem(500, "server.failed");
    }
    return send(answer, request, reply);
  });
  app.setNotFoundHandler((request, reply) =>
    send(
      problem(404, "request.noRoute", { method: request.method, path: request.url.split("?")[0]! }),
      request,
      reply,
    ),
  );
}
