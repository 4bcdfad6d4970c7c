/** Deeper than any document an operator writes; deep enough input overflows the stack of whatever recurses over it. */
export const maxJsonDepth = 100;

/** Why a value cannot be kept: PostgreSQL refuses NUL in text and JSON; a lone UTF-16 surrogate is not Unicode. */
export type HostileFlaw = "nul" | "surrogate" | "deep";

function flawOf(value: string): HostileFlaw | undefined {
  if (value.includes("\u0000")) return "nul";
  if (!value.isWellFormed()) return "surrogate";
  return undefined;
}

/**
 * The first reason a parsed value (a JSON body, path parameters, a query) cannot be accepted, with
 * where it stands (`.a[2]`, `{}` after a key), walking without recursion so that the walk itself
 * cannot overflow. Used by the API and the embedded broker at their boundaries.
 */
export function hostileValue(root: unknown): { at: string; flaw: HostileFlaw } | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: "", depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      const flaw = flawOf(value);
      if (flaw) return { at: path, flaw };
    } else if (value !== null && typeof value === "object") {
      if (depth >= maxJsonDepth) return { at: "", flaw: "deep" };
      for (const [key, child] of Object.entries(value)) {
        const flaw = flawOf(key);
        if (flaw) return { at: `${path}{}`, flaw };
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
