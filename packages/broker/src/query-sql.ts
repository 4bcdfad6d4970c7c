import { sql, type SQL } from "drizzle-orm";
import type { QueryNode, Resolved, ResolvedPath, Scalar } from "./query-language.ts";

/**
 * Translates the parts of a q query that PostgreSQL answers exactly into jsonpath conditions on
 * the attrs column (`attrs @? '$."iri"[*] ? (@.value > 20)'`), so that type + q queries page and
 * count in SQL. A term SQL cannot answer exactly (patterns, dates, string ordering, system members)
 * becomes a looser prefilter or nothing, and the caller then evaluates the whole q in JS
 * (query-language.ts) on the rows SQL returns.
 */
export interface Translation {
  /** A condition true for every matching entity (possibly for more); undefined: no condition. */
  where?: SQL;
  /** True when `where` matches exactly the entities the query matches. */
  exact: boolean;
}

/** Members compared by a term, as in targetsOf of query-language.ts. */
const valueMembers = ["value", "object", "json", "valueList", "languageMap", "vocab"];

const quote = (name: string) => JSON.stringify(name);

function basePath(p: ResolvedPath): string {
  return `$.${quote(p.attribute)}[*]${p.subAttributes.map((s) => `.${quote(s)}`).join("")}`;
}

function literal(s: Scalar): string | undefined {
  switch (s.kind) {
    case "number":
      return Number.isFinite(s.value) ? String(s.value) : undefined;
    case "boolean":
      return String(s.value);
    case "string":
      return JSON.stringify(s.value);
    default:
      return undefined; // dates compare in JS, by instant
  }
}

/**
 * Members that can hold a number or a boolean: object and vocab hold IRIs and languageMap an object
 * of strings (attributes.ts checks it). Comparing three members instead of six for `temperature>20`
 * takes a fifth off a count that evaluates it on every row.
 */
const scalarMembers = ["value", "json", "valueList"];

/** `(@.value.k op x || @.object.k op x || ...)` over the members a term compares. */
function condition(p: ResolvedPath, op: string, lit: string): string {
  const keys = p.keys.map((k) => `.${quote(k)}`).join("");
  const members = keys || lit.startsWith('"') ? valueMembers : scalarMembers;
  return members.map((m) => `@.${m}${keys} ${op} ${lit}`).join(" || ");
}

const pathMatch = (path: string): SQL => sql`attrs @? ${path}::jsonpath`;

function term(node: Extract<QueryNode, { kind: "term" }>, resolved: Resolved): Translation {
  const p = resolved.get(node.path)!;
  if (node.absent)
    return p.member || p.keys.length ? { exact: false } : { exact: true, where: sql`NOT ${exists(p)}` };
  if (p.member) return { exact: false, where: exists(p) };
  if (!node.op) {
    if (p.keys.length) return { exact: false, where: exists(p) };
    return { exact: true, where: exists(p) };
  }
  const value = node.value!;
  if (value.kind === "pattern") return { exact: false, where: exists(p) };
  const base = basePath(p);
  if (value.kind === "range") {
    const lo = literal(value.min);
    const hi = literal(value.max);
    // Lax jsonpath unwraps arrays per comparison, so the pair is only a prefilter for array values.
    if (lo === undefined || hi === undefined || node.op === "!=") return { exact: false, where: exists(p) };
    return {
      exact: false,
      where: pathMatch(`${base} ? ((${condition(p, ">=", lo)}) && (${condition(p, "<=", hi)}))`),
    };
  }
  const scalars = value.kind === "list" ? value.values : [value.value];
  const lits = scalars.map(literal);
  if (lits.some((l) => l === undefined)) return { exact: false, where: exists(p) };
  // String ordering in PostgreSQL depends on collation; JS orders by code unit. Only equality is exact for strings.
  if (!["==", "!="].includes(node.op) && scalars.some((s) => s.kind === "string"))
    return { exact: false, where: exists(p) };
  const op = node.op === "==" || node.op === "!=" ? "==" : node.op;
  const matched = pathMatch(`${base} ? (${lits.map((l) => condition(p, op, l!)).join(" || ")})`);
  if (node.op === "!=") return { exact: true, where: sql`(${exists(p)} AND NOT ${matched})` };
  return { exact: true, where: matched };
}

function exists(p: ResolvedPath): SQL {
  if (p.subAttributes.length === 0) return sql`attrs ? ${p.attribute}`;
  return pathMatch(basePath(p));
}

export function translate(node: QueryNode, resolved: Resolved): Translation {
  if (node.kind === "term") return term(node, resolved);
  const parts = node.items.map((i) => translate(i, resolved));
  if (node.kind === "and") {
    const wheres = parts.flatMap((t) => (t.where ? [t.where] : []));
    return {
      exact: parts.every((t) => t.exact && t.where),
      where: wheres.length ? sql`(${sql.join(wheres, sql` AND `)})` : undefined,
    };
  }
  if (parts.some((t) => !t.where)) return { exact: false };
  return {
    exact: parts.every((t) => t.exact),
    where: sql`(${sql.join(
      parts.map((t) => t.where!),
      sql` OR `,
    )})`,
  };
}
