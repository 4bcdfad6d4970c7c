import type { FastifyInstance, FastifyRequest } from "fastify";
import { Problem } from "./problems.ts";

/** Deeper than any document an operator writes; deep enough input overflows the stack of whatever recurses over it. */
export const maxJsonDepth = 100;

/**
 * Why a string cannot be kept, or undefined: PostgreSQL refuses NUL in text and JSON, and a lone
 * UTF-16 surrogate is not Unicode (no encoder can write it).
 */
function flawOf(value: string): string | undefined {
  if (value.includes("\u0000")) return "contains a NUL character (\\u0000)";
  if (!value.isWellFormed()) return "contains a lone UTF-16 surrogate, which is not Unicode text";
  return undefined;
}

/**
 * The first reason a parsed value cannot be accepted, with where it stands, walking without
 * recursion so that the walk itself cannot overflow.
 */
export function hostileValue(root: unknown, where: string): string | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [
    { value: root, path: where, depth: 0 },
  ];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      const flaw = flawOf(value);
      if (flaw) return `${path} ${flaw}`;
    } else if (value !== null && typeof value === "object") {
      if (depth >= maxJsonDepth) return `${where} is nested deeper than ${maxJsonDepth} levels`;
      for (const [key, child] of Object.entries(value)) {
        const flaw = flawOf(key);
        if (flaw) return `a key of ${path} ${flaw}`;
        stack.push({
          value: child,
          path: Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`,
          depth: depth + 1,
        });
      }
    }
  }
  return undefined;
}

const isApiRoute = (request: FastifyRequest) => request.routeOptions.url?.startsWith("/api") === true;

/**
 * Refuses, with a 400 before any handler runs, API requests whose path parameters, query or body
 * carry what storage or a broker would choke on (NUL, lone surrogates, absurd nesting): nothing is
 * stored and no 500 follows. The embedded broker checks its own requests.
 */
export function registerHostileInputCheck(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (!isApiRoute(request)) return;
    const flaw =
      hostileValue(request.params, "the path") ??
      hostileValue(request.query, "the query") ??
      hostileValue(request.body, "the body");
    if (flaw) throw new Problem(400, "Bad request", `The request cannot be accepted: ${flaw}.`);
  });
}
