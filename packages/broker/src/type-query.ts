import { sql, type SQL } from "drizzle-orm";
import { checkName } from "./attributes.ts";
import { badRequest } from "./problems.ts";

/**
 * The entity type selection of query parameter `type` (ETSI GS CIM 009 v1.8, 4.17): names joined
 * by "," or "|" (or), ";" (and), with parentheses. Translated to conditions on the types array,
 * which a GIN index answers.
 */
export type TypeNode = { kind: "name"; name: string } | { kind: "and" | "or"; items: TypeNode[] };

export function parseTypeQuery(text: string): TypeNode {
  let pos = 0;
  const fail = (why: string): never => {
    throw badRequest(`invalid type selection ${JSON.stringify(text)}: ${why}`);
  };
  const or = (): TypeNode => {
    const items = [and()];
    while (text[pos] === "|" || text[pos] === ",") {
      pos++;
      items.push(and());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  };
  const and = (): TypeNode => {
    const items = [item()];
    while (text[pos] === ";") {
      pos++;
      items.push(item());
    }
    return items.length === 1 ? items[0]! : { kind: "and", items };
  };
  const item = (): TypeNode => {
    if (text[pos] === "(") {
      pos++;
      const node = or();
      if (text[pos] !== ")") fail("missing )");
      pos++;
      return node;
    }
    const match = /^[^,|;()]+/.exec(text.slice(pos));
    if (!match) return fail("expected a type name");
    pos += match[0].length;
    checkName(match[0], "entity type");
    return { kind: "name", name: match[0] };
  };
  const node = or();
  if (pos < text.length) fail(`unexpected ${text[pos]}`);
  return node;
}

export function typeNames(node: TypeNode): string[] {
  return node.kind === "name" ? [node.name] : node.items.flatMap(typeNames);
}

/** SQL over the `types` column; names are expanded by the caller's function. */
export function typeCondition(node: TypeNode, expand: (t: string) => string): SQL {
  if (node.kind === "name") return sql`types @> ARRAY[${expand(node.name)}]::text[]`;
  if (node.kind === "or" && node.items.every((i) => i.kind === "name"))
    return sql`types && ARRAY[${sql.join(
      node.items.map((i) => sql`${expand((i as { name: string }).name)}`),
      sql`, `,
    )}]::text[]`;
  const parts = node.items.map((i) => typeCondition(i, expand));
  return sql`(${sql.join(parts, node.kind === "and" ? sql` AND ` : sql` OR `)})`;
}

/** The same selection as typeCondition, on an entity's (expanded) types in JS. */
export function typeMatches(node: TypeNode, expand: (t: string) => string, types: string[]): boolean {
  if (node.kind === "name") return types.includes(expand(node.name));
  return node.kind === "and"
    ? node.items.every((i) => typeMatches(i, expand, types))
    : node.items.some((i) => typeMatches(i, expand, types));
}
