import type { CompiledContext } from "./contexts.ts";
import { geometryProblem } from "./geo.ts";
import { attributeTypes, instanceMembers, NGSI_LD_NULL, type AttributeType, type Instance } from "./model.ts";
import { badRequest } from "./problems.ts";

/**
 * Reading attributes from request bodies (normalized or concise, ETSI GS CIM 009 v1.8 4.5) into
 * the stored form of model.ts: names expanded with the request's @context, types inferred for the
 * concise form, every rule on values checked so that what is stored is always well-formed.
 */

/** "full": a complete attribute (create, append, replace); "fragment": merge-patch and partial updates may omit the value. */
export type ParseMode = "full" | "fragment";

/** A parsed attribute: an instance list, or the NGSI-LD null that deletes it in merge operations. */
export type ParsedAttribute = Instance[] | "delete";

const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/;
export const isUri = (s: unknown): s is string =>
  typeof s === "string" && s.length <= 2048 && uriPattern.test(s);

/** Characters the spec forbids in names (4.6.2), plus whitespace and controls. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what the check rejects
const badNameChar = /[<>"'=;()\s\x00-\x1f\x7f]/;
/**
 * A name is a term of the @context or an IRI (4.6.2). A term cannot hold what no IRI may hold
 * (`{}|\^` and the backquote) nor the delimiters of the query language and of URLs (`?#/&[]`,
 * a compact IRI's `:` sends it to the IRI rule); an IRI must parse as one. So `P?|{{` is refused,
 * as Orion-LD does, while `temperature`, `ex:speed` and full IRIs pass.
 */
const badTermChar = /[{}|\\^`?#/&[\]]/;
export function checkName(name: string, what: string): void {
  const invalid =
    name === "" ||
    name.length > 512 ||
    badNameChar.test(name) ||
    (name.includes(":") ? !isUri(name) : badTermChar.test(name));
  if (invalid) throw badRequest(`${what} ${JSON.stringify(name)} is not a valid name`);
}

const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;
const daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The first instant the storage holds: PostgreSQL has no year 0000 (the year before 0001 is 1 BC). */
const firstInstant = Date.parse("0001-01-01T00:00:00Z");

/**
 * An ISO 8601 date-time of a real calendar day and time (not 30 February, hour 24 nor minute 60,
 * which Date.parse rolls over to the next day and the database refuses), from year 0001 on in UTC
 * (year 0000 is no year of the database's calendar).
 */
export function isDateTime(s: unknown): s is string {
  const m = typeof s === "string" ? dateTimePattern.exec(s) : null;
  if (!m) return false;
  // Read part by part: this runs for every instance of a temporal load (hundreds of thousands).
  const part = (k: number, missing: number) => (m[k] === undefined ? missing : Number(m[k]));
  const year = part(1, 0);
  const month = part(2, 0);
  const day = part(3, 0);
  if (month < 1 || month > 12 || day < 1) return false;
  // 29 February is checked against the year; other months have their days of any year.
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 ? (leap ? 29 : 28) : daysInMonth[month - 1]!)) return false;
  if (part(4, 0) > 23 || part(5, 0) > 59 || part(6, 0) > 59 || part(8, 0) > 23 || part(9, 0) > 59)
    return false;
  const instant = Date.parse(s as string);
  return !Number.isNaN(instant) && instant >= firstInstant;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isNull = (v: unknown) => v === null || v === NGSI_LD_NULL;

/** Keys whose presence tells the concise form's attribute type. */
const conciseKeys: Array<[string, AttributeType]> = [
  ["object", "Relationship"],
  ["objectList", "ListRelationship"],
  ["languageMap", "LanguageProperty"],
  ["vocab", "VocabProperty"],
  ["json", "JsonProperty"],
  ["valueList", "ListProperty"],
  ["value", "Property"],
];

const looksLikeGeometry = (v: unknown) =>
  isObject(v) && typeof v.type === "string" && "coordinates" in v && geometryProblem(v) === null;

/** Whether an array in a body is a list of attribute instances (multi-attribute) rather than an array value. */
function isInstanceArray(v: unknown[]): boolean {
  return (
    v.length > 0 &&
    v.every((x) => isObject(x) && ("type" in x || "datasetId" in x || conciseKeys.some(([k]) => k in x)))
  );
}

export function parseAttribute(
  name: string,
  raw: unknown,
  ctx: CompiledContext,
  mode: ParseMode,
  depth = 0,
): ParsedAttribute {
  if (mode === "fragment" && isNull(raw)) return "delete";
  if (Array.isArray(raw) && isInstanceArray(raw)) {
    if (depth > 0) throw badRequest(`sub-attribute ${name} cannot be multi-valued`);
    const instances = raw.map((r) => parseInstance(name, r, ctx, mode, depth));
    const seen = new Set<string>();
    for (const i of instances) {
      const key = i.datasetId ?? "";
      if (seen.has(key))
        throw badRequest(
          `attribute ${name} has two instances with ${key ? `datasetId ${key}` : "no datasetId"}`,
        );
      seen.add(key);
    }
    return instances;
  }
  return [parseInstance(name, raw, ctx, mode, depth)];
}

function parseInstance(
  name: string,
  raw: unknown,
  ctx: CompiledContext,
  mode: ParseMode,
  depth: number,
): Instance {
  if (raw === null || raw === undefined) throw badRequest(`attribute ${name} has no value`);
  // Concise form: a bare value is a Property, a bare GeoJSON geometry a GeoProperty.
  if (!isObject(raw)) return { type: "Property", value: raw };
  if (looksLikeGeometry(raw)) return { type: "GeoProperty", value: raw };
  let type: AttributeType;
  if ("type" in raw) {
    if (!attributeTypes.includes(raw.type as AttributeType))
      throw badRequest(
        `attribute ${name} has type ${JSON.stringify(raw.type)}; expected one of ${attributeTypes.join(", ")}`,
      );
    type = raw.type as AttributeType;
  } else {
    const found = conciseKeys.find(([k]) => k in raw);
    if (!found) {
      if (mode === "full") return { type: "Property", value: raw }; // concise: a JSON object value
      type = undefined as unknown as AttributeType; // a fragment keeps the stored type
    } else type = found[1] === "Property" && looksLikeGeometry(raw.value) ? "GeoProperty" : found[1];
  }
  const instance: Instance = { type };
  for (const [key, v] of Object.entries(raw)) {
    if (key === "type" || key === "createdAt" || key === "modifiedAt" || key === "@context") continue; // system-generated ones are ignored on input
    if (instanceMembers.has(key)) {
      instance[key] = v;
      continue;
    }
    checkName(key, "sub-attribute");
    if (depth >= 4) throw badRequest(`attribute ${name} nests sub-attributes too deeply`);
    const sub = parseAttribute(key, v, ctx, mode, depth + 1);
    if (sub === "delete") instance[ctx.expand(key)] = NGSI_LD_NULL;
    else instance[ctx.expand(key)] = sub[0];
  }
  checkInstance(name, instance, ctx, mode);
  if (!type) delete (instance as Partial<Instance>).type;
  return instance;
}

/** Members that belong to one attribute type only. */
const ownedMembers = [
  ["object", "Relationship"],
  ["languageMap", "LanguageProperty"],
  ["vocab", "VocabProperty"],
  ["json", "JsonProperty"],
  ["valueList", "ListProperty"],
  ["objectList", "ListRelationship"],
] as const;

function checkInstance(name: string, i: Instance, ctx: CompiledContext, mode: ParseMode): void {
  function fail(why: string): never {
    throw badRequest(`attribute ${name} ${why}`);
  }
  if (i.datasetId !== undefined && !isUri(i.datasetId)) fail("has a datasetId that is not a URI");
  if (i.observedAt !== undefined && !isDateTime(i.observedAt))
    fail("has an observedAt that is not an ISO 8601 date-time");
  if (i.unitCode !== undefined && (typeof i.unitCode !== "string" || i.unitCode === ""))
    fail("has a unitCode that is not a string");
  const full = mode === "full";
  switch (i.type) {
    case "Property":
      if (i.value === undefined ? full : i.value === null) fail("is a Property without a value");
      break;
    case "GeoProperty": {
      if (i.value === undefined) {
        if (full) fail("is a GeoProperty without a value");
        break;
      }
      const why = geometryProblem(i.value);
      if (why) fail(`is a GeoProperty whose value ${why}`);
      break;
    }
    case "Relationship": {
      if (i.object === undefined) {
        if (full) fail("is a Relationship without an object");
        break;
      }
      const targets = Array.isArray(i.object) ? i.object : [i.object];
      if (targets.length === 0 || !targets.every(isUri)) fail("is a Relationship whose object is not a URI");
      break;
    }
    case "LanguageProperty":
      if (i.languageMap === undefined ? full : !isObject(i.languageMap))
        fail("is a LanguageProperty without a languageMap object");
      break;
    case "VocabProperty":
      if (i.vocab === undefined) {
        if (full) fail("is a VocabProperty without a vocab");
        break;
      }
      {
        const terms = Array.isArray(i.vocab) ? i.vocab : [i.vocab];
        if (!terms.every((t) => typeof t === "string" && t !== ""))
          fail("has a vocab that is not a term or a list of terms");
        // Vocab values are terms of the context: stored expanded like names.
        const expanded = terms.map((t) => ctx.expand(t as string));
        i.vocab = Array.isArray(i.vocab) ? expanded : expanded[0];
      }
      break;
    case "JsonProperty":
      if (i.json === undefined && full) fail("is a JsonProperty without json");
      break;
    case "ListProperty":
      if (i.valueList === undefined ? full : !Array.isArray(i.valueList))
        fail("is a ListProperty without a valueList array");
      break;
    case "ListRelationship":
      if (i.objectList === undefined ? full : !Array.isArray(i.objectList))
        fail("is a ListRelationship without an objectList array");
      break;
  }
  // A member that belongs to another attribute type is a mistake the client wants to hear about.
  for (const [member, owner] of ownedMembers) {
    if (i[member] !== undefined && i.type && i.type !== owner)
      fail(`is a ${i.type} but has the ${member} member of a ${owner}`);
  }
  if (i.value !== undefined && i.type && i.type !== "Property" && i.type !== "GeoProperty")
    fail(`is a ${i.type} but has a value member`);
}

/** Attribute names with fixed meanings in the core context that must be GeoProperties (4.7). */
const geoNames = new Set(
  ["location", "observationSpace", "operationSpace"].map((n) => `https://uri.etsi.org/ngsi-ld/${n}`),
);

/** Entity members that are not attributes. */
const entityMembers = new Set([
  "id",
  "@id",
  "type",
  "@type",
  "@context",
  "createdAt",
  "modifiedAt",
  "deletedAt",
]);

export interface ParsedEntity {
  id?: string;
  types?: string[];
  attrs: Record<string, ParsedAttribute>;
}

/** Reads an entity or an entity fragment from a body, expanding names with ctx. */
export function parseEntity(
  body: unknown,
  ctx: CompiledContext,
  options: { mode: ParseMode; requireId: boolean; requireType: boolean },
): ParsedEntity {
  if (!isObject(body)) throw badRequest("the body must be a JSON object (an entity)");
  const parsed: ParsedEntity = { attrs: {} };
  const id = body.id ?? body["@id"];
  if (id !== undefined) {
    if (!isUri(id)) throw badRequest(`entity id ${JSON.stringify(id)} is not a URI`);
    parsed.id = id;
  } else if (options.requireId) throw badRequest("the entity has no id");
  const type = body.type ?? body["@type"];
  if (type !== undefined) parsed.types = parseTypes(type, ctx);
  else if (options.requireType) throw badRequest("the entity has no type");
  if ("scope" in body) throw badRequest("scope is not supported by this broker yet");
  for (const [name, raw] of Object.entries(body)) {
    if (entityMembers.has(name)) continue;
    checkName(name, "attribute");
    const iri = ctx.expand(name);
    if (iri in parsed.attrs)
      throw badRequest(`attribute ${name} is given twice (two terms expand to ${iri})`);
    const attr = parseAttribute(name, raw, ctx, options.mode);
    if (attr !== "delete" && geoNames.has(iri) && attr.some((i) => i.type && i.type !== "GeoProperty"))
      throw badRequest(`attribute ${name} must be a GeoProperty`);
    parsed.attrs[iri] = attr;
  }
  return parsed;
}

export function parseTypes(type: unknown, ctx: CompiledContext): string[] {
  const list = Array.isArray(type) ? type : [type];
  if (list.length === 0) throw badRequest("the entity type list is empty");
  const out: string[] = [];
  for (const t of list) {
    if (typeof t !== "string") throw badRequest(`entity type ${JSON.stringify(t)} is not a string`);
    checkName(t, "entity type");
    const iri = ctx.expand(t);
    if (!out.includes(iri)) out.push(iri);
  }
  return out;
}
