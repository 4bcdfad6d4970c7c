import { compilePattern, type Pattern } from "./patterns.ts";
import { badRequest } from "./problems.ts";

/**
 * The NGSI-LD query language (ETSI GS CIM 009 v1.8, 4.9): a parser to a small tree and an
 * evaluator over stored entities. The evaluator is the reference semantics; query-sql.ts
 * translates the parts PostgreSQL can answer exactly and leaves the rest to this evaluator.
 *
 *   Query  := And ( "|" And )*          ";" binds tighter than "|"
 *   And    := Item ( ";" Item )*
 *   Item   := "(" Query ")" | Term
 *   Term   := Path [ Op Value ]         a Path alone tests that the attribute exists
 *           | "!" Path                  ... and "!" before it that it does not
 *   Path   := name ( "." name )* ( "[" key "]" )*    "." = sub-attribute, "[ ]" = inside the value
 *   Op     := "==" | "!=" | ">=" | ">" | "<=" | "<" | "~=" | "!~="
 *   Value  := Scalar | Scalar ("," Scalar)+ | Scalar ".." Scalar | a pattern after ~= / !~=
 */

export type Scalar =
  | { kind: "number"; value: number }
  | { kind: "string"; value: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "dateTime"; value: string; ms: number };

export type Operator = "==" | "!=" | ">" | ">=" | "<" | "<=" | "~=" | "!~=";

export type QueryValue =
  | { kind: "single"; value: Scalar }
  | { kind: "list"; values: Scalar[] }
  | { kind: "range"; min: Scalar; max: Scalar }
  | { kind: "pattern"; source: string; regex: Pattern };

export interface AttributePath {
  /** As written in the query: attribute, then sub-attributes, then keys into the value. */
  attribute: string;
  subAttributes: string[];
  keys: string[];
}

export type QueryNode =
  | { kind: "and" | "or"; items: QueryNode[] }
  | { kind: "term"; path: AttributePath; op?: Operator; value?: QueryValue; absent?: true };

const operators: Operator[] = ["==", "!=", ">=", "<=", "!~=", "~=", ">", "<"];
const maxLength = 4096;
const maxDepth = 32;

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  parse(): QueryNode {
    const node = this.query();
    if (this.pos < this.text.length) this.fail(`unexpected ${JSON.stringify(this.text[this.pos])}`);
    return node;
  }

  private fail(why: string): never {
    throw badRequest(`invalid q at position ${this.pos}: ${why}`);
  }

  private peek(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  private query(): QueryNode {
    const items = [this.and()];
    while (this.peek("|")) {
      this.pos++;
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  }

  private and(): QueryNode {
    const items = [this.item()];
    while (this.peek(";")) {
      this.pos++;
      items.push(this.item());
    }
    return items.length === 1 ? items[0]! : { kind: "and", items };
  }

  private item(): QueryNode {
    if (this.peek("(")) {
      if (++this.depth > maxDepth) this.fail("too deeply nested");
      this.pos++;
      const node = this.query();
      if (!this.peek(")")) this.fail("missing )");
      this.pos++;
      this.depth--;
      return node;
    }
    return this.term();
  }

  private term(): QueryNode {
    if (this.peek("!")) {
      this.pos++;
      const path = this.path();
      if (this.pos < this.text.length && !";|)".includes(this.text[this.pos]!))
        this.fail("! takes an attribute alone (it tests that the attribute does not exist)");
      return { kind: "term", path, absent: true };
    }
    const path = this.path();
    const op = operators.find((o) => this.peek(o));
    if (!op) {
      if (this.pos < this.text.length && !";|)".includes(this.text[this.pos]!)) {
        const found = /^[=!<>~]+/.exec(this.text.slice(this.pos))?.[0] ?? this.text[this.pos];
        this.fail(`unknown operator ${JSON.stringify(found)}`);
      }
      return { kind: "term", path };
    }
    this.pos += op.length;
    const value = op === "~=" || op === "!~=" ? this.pattern() : this.value();
    if (value.kind !== "single" && value.kind !== "pattern" && op !== "==" && op !== "!=")
      this.fail(`${op} cannot take a ${value.kind === "list" ? "list" : "range"}`);
    if (
      (op === ">" || op === "<" || op === ">=" || op === "<=") &&
      value.kind === "single" &&
      value.value.kind === "boolean"
    )
      this.fail(`${op} cannot compare booleans`);
    return { kind: "term", path, op, value };
  }

  private name(): string {
    const match = /^[^\s.[\]=!<>~;|()"',]+/.exec(this.text.slice(this.pos));
    if (!match) this.fail("expected an attribute name");
    this.pos += match[0].length;
    // A full IRI keeps its dots (https://schema.org/name): read on until an operator or a bracket.
    if (
      match[0].endsWith(":") ||
      /^[a-z][a-z0-9+.-]*:\/\//i.test(this.text.slice(this.pos - match[0].length))
    ) {
      const rest = /^[^\s[\]=!<>~;|()"',]*/.exec(this.text.slice(this.pos))![0];
      this.pos += rest.length;
      return match[0] + rest;
    }
    return match[0];
  }

  private path(): AttributePath {
    const attribute = this.name();
    const subAttributes: string[] = [];
    const keys: string[] = [];
    while (this.peek(".")) {
      this.pos++;
      subAttributes.push(this.name());
    }
    while (this.peek("[")) {
      this.pos++;
      const end = this.text.indexOf("]", this.pos);
      if (end <= this.pos) this.fail("expected a key and ]");
      keys.push(this.text.slice(this.pos, end));
      this.pos = end + 1;
    }
    return { attribute, subAttributes, keys };
  }

  private value(): QueryValue {
    const first = this.scalar();
    if (this.peek("..")) {
      this.pos += 2;
      const max = this.scalar();
      if (first.kind !== max.kind) this.fail("the ends of a range must be of one kind");
      return { kind: "range", min: first, max };
    }
    if (this.peek(",")) {
      const values = [first];
      while (this.peek(",")) {
        this.pos++;
        values.push(this.scalar());
      }
      return { kind: "list", values };
    }
    return { kind: "single", value: first };
  }

  private scalar(): Scalar {
    if (this.peek('"')) {
      let out = "";
      this.pos++;
      while (this.pos < this.text.length && this.text[this.pos] !== '"') {
        if (this.text[this.pos] === "\\" && this.pos + 1 < this.text.length) this.pos++;
        out += this.text[this.pos++];
      }
      if (!this.peek('"')) this.fail("unterminated string");
      this.pos++;
      return { kind: "string", value: out };
    }
    let end = this.pos;
    while (end < this.text.length && !";|),".includes(this.text[end]!) && !this.text.startsWith("..", end))
      end++;
    const raw = this.text.slice(this.pos, end);
    if (raw === "") this.fail("expected a value");
    if (/^[=<>!~]/.test(raw)) this.fail(`unknown operator before ${JSON.stringify(raw)}`);
    this.pos = end;
    return scalarOf(raw);
  }

  private pattern(): QueryValue {
    let source: string;
    if (this.peek('"')) {
      const s = this.scalar();
      source = String(s.value);
    } else {
      // Unquoted: up to ; or | or an unbalanced ) (quote a pattern that needs those).
      let end = this.pos;
      let depth = 0;
      while (end < this.text.length) {
        const c = this.text[end]!;
        if (c === ";" || c === "|") break;
        if (c === "(") depth++;
        if (c === ")" && depth-- === 0) break;
        if (c === "\\") end++;
        end++;
      }
      source = this.text.slice(this.pos, end);
      this.pos = end;
    }
    if (source === "") this.fail("expected a pattern");
    return { kind: "pattern", source, regex: compilePattern(source, "the pattern") };
  }
}

const numberPattern = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function scalarOf(raw: string): Scalar {
  if (raw === "true" || raw === "false") return { kind: "boolean", value: raw === "true" };
  if (numberPattern.test(raw)) return { kind: "number", value: Number(raw) };
  if (dateTimePattern.test(raw)) {
    const ms = Date.parse(/Z|[+-]\d{2}:?\d{2}$/.test(raw) ? raw : `${raw}Z`);
    if (!Number.isNaN(ms)) return { kind: "dateTime", value: raw, ms };
  }
  // URIs (relationship targets) and other unquoted text compare as strings.
  return { kind: "string", value: raw };
}

export function parseQuery(q: string): QueryNode {
  if (q.length > maxLength) throw badRequest(`q is longer than ${maxLength} characters`);
  if (q.trim() === "") throw badRequest("q is empty");
  return new Parser(q).parse();
}

/** Every attribute path of a query, to expand its names once. */
export function pathsOf(node: QueryNode, out: AttributePath[] = []): AttributePath[] {
  if (node.kind === "term") out.push(node.path);
  else for (const i of node.items) pathsOf(i, out);
  return out;
}

/** A query path with its names expanded: attribute IRI, sub-attribute IRIs, and a system member (observedAt, ...) if it ends in one. */
export interface ResolvedPath {
  attribute: string;
  subAttributes: string[];
  member?: "observedAt" | "createdAt" | "modifiedAt" | "unitCode" | "datasetId";
  keys: string[];
}

const systemMembers = ["observedAt", "createdAt", "modifiedAt", "unitCode", "datasetId"] as const;

export function resolvePath(path: AttributePath, expand: (term: string) => string): ResolvedPath {
  const subAttributes = path.subAttributes.map(expand);
  let member: ResolvedPath["member"];
  const last = subAttributes[subAttributes.length - 1];
  const found = systemMembers.find((m) => last === `https://uri.etsi.org/ngsi-ld/${m}`);
  if (found) {
    member = found;
    subAttributes.pop();
  }
  return { attribute: expand(path.attribute), subAttributes, member, keys: path.keys };
}

/** Values a term compares: per instance, the value member (or the system member asked), then the keys, arrays unwrapped one level. */
export function targetsOf(attrs: Record<string, unknown[]>, path: ResolvedPath): unknown[] {
  const out: unknown[] = [];
  for (const instance of attrs[path.attribute] ?? []) {
    let at = instance as Record<string, unknown> | undefined;
    for (const sub of path.subAttributes) at = at?.[sub] as Record<string, unknown> | undefined;
    if (!at) continue;
    const candidates = path.member
      ? [at[path.member]]
      : [at.value, at.object, at.json, at.valueList, at.languageMap, at.vocab];
    for (let v of candidates) {
      for (const key of path.keys)
        v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) out.push(...v);
      else out.push(v);
    }
  }
  return out;
}

function compare(target: unknown, s: Scalar): number | undefined {
  switch (s.kind) {
    case "number":
      return typeof target === "number" ? target - s.value : undefined;
    case "boolean":
      return typeof target === "boolean" ? (target === s.value ? 0 : 1) : undefined;
    case "string":
      return typeof target === "string" ? (target < s.value ? -1 : target > s.value ? 1 : 0) : undefined;
    case "dateTime": {
      if (typeof target !== "string") return undefined;
      const ms = Date.parse(target);
      return Number.isNaN(ms) ? undefined : ms - s.ms;
    }
  }
}

function equals(target: unknown, value: QueryValue): boolean {
  switch (value.kind) {
    case "single":
      return compare(target, value.value) === 0;
    case "list":
      return value.values.some((s) => compare(target, s) === 0);
    case "range": {
      const lo = compare(target, value.min);
      const hi = compare(target, value.max);
      return lo !== undefined && hi !== undefined && lo >= 0 && hi <= 0;
    }
    case "pattern":
      return typeof target === "string" && value.regex.test(target);
  }
}

export type Resolved = Map<AttributePath, ResolvedPath>;

/** Whether an entity's attributes satisfy the query (reference semantics). */
export function evaluate(node: QueryNode, attrs: Record<string, unknown[]>, resolved: Resolved): boolean {
  if (node.kind !== "term")
    return node.kind === "and"
      ? node.items.every((i) => evaluate(i, attrs, resolved))
      : node.items.some((i) => evaluate(i, attrs, resolved));
  const targets = targetsOf(attrs, resolved.get(node.path)!);
  if (node.absent) return targets.length === 0;
  if (!node.op) return targets.length > 0;
  const value = node.value!;
  switch (node.op) {
    case "==":
    case "~=":
      return targets.some((t) => equals(t, value));
    case "!=":
    case "!~=":
      return targets.length > 0 && !targets.some((t) => equals(t, value));
    default: {
      const s = (value as { value: Scalar }).value;
      return targets.some((t) => {
        const c = compare(t, s);
        if (c === undefined) return false;
        return node.op === ">" ? c > 0 : node.op === ">=" ? c >= 0 : node.op === "<" ? c < 0 : c <= 0;
      });
    }
  }
}
