import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Message, MessageCode } from "./messages/say.ts";
import { problem } from "./problems.ts";

/** Deeper than any document an operator writes; deep enough input overflows the stack of whatever recurses over it. */
export const maxJsonDepth = 100;

/**
 * Why a string cannot be kept, or undefined: PostgreSQL refuses NUL in text and JSON, and a lone
 * UTF-16 surrogate is not Unicode (no encoder can write it).
 */
function flawOf(value: string): MessageCode | undefined {
  if (value.includes("\u0000")) return "request.hostile.nul";
  if (!value.isWellFormed()) return "request.hostile.surrogate";
  return undefined;
}

/**
 * The first reason a parsed value cannot be accepted, with where it stands, walking without
 * recursion so that the walk itself cannot overflow.
 */
export function hostileValue(root: unknown): { at: string; flaw: Message } | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: "", depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      const flaw = flawOf(value);
      if (flaw) return { at: path, flaw: { code: flaw } };
    } else if (value !== null && typeof value === "object") {
      if (depth >= maxJsonDepth)
        return { at: "", flaw: { code: "request.hostile.deep", params: { depth: maxJsonDepth } } };
      for (const [key, child] of Object.entries(value)) {
        const flaw = flawOf(key);
        if (flaw) return { at: `${path}{}`, flaw: { code: flaw } };
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
    for (const [where, value] of [
      ["request.where.path", request.params],
      ["request.where.query", request.query],
      ["request.where.body", request.body],
    ] as const) {
      const found = hostileValue(value);
      if (found)
        throw problem(400, "request.hostile", { where: { code: where }, at: found.at, flaw: found.flaw });
    }
  });
}
