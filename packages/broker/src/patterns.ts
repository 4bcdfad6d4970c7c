import { RE2JS } from "re2js";
import { badRequest } from "./problems.ts";

/** A user's regular expression (idPattern, q's ~=), run by a linear-time engine. */
export interface Pattern {
  source: string;
  /** Whether the pattern occurs in the value (a search, as NGSI-LD's idPattern and ~= mean). */
  test(value: string): boolean;
}

const compiled = new Map<string, Pattern>();

/**
 * Compiles a pattern with RE2's semantics (re2js): matching takes time linear in the value, so a
 * pattern such as `(a+)+$` cannot stall the process the way a backtracking engine would. What RE2
 * cannot express (backreferences, lookaround) is refused with 400 and RE2's reason. NGSI-LD's
 * `(?i)` prefix is RE2's own inline flag.
 */
export function compilePattern(source: string, what: string): Pattern {
  let pattern = compiled.get(source);
  if (pattern) return pattern;
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    throw badRequest(
      `${what} ${JSON.stringify(source)} is not a regular expression this broker runs: ${(err as Error).message}`,
    );
  }
  pattern = { source, test: (value) => re.matcher(value).find() };
  if (compiled.size > 1000) compiled.clear();
  compiled.set(source, pattern);
  return pattern;
}
