/**
 * The policies a data-space consumer must hold for one NGSI-LD request, derived as FIWARE's
 * `ngsi-ishare-policies` derives them (notes/pep.md §1, step 3): one per target, with the entity
 * type, the entity ids (or `*`), the attributes read or written (or `*`), and one action: the HTTP
 * method for entity operations, `METHOD:Subscription` for subscriptions, `METHOD:Batch` for batch
 * operations, one policy per entity type of a batch.
 *
 * Where Orrery departs from the plugin, and why:
 * - the type of a stored entity (GET, PATCH, DELETE of `/entities/{id}`) is the stored one, not a
 *   segment of its URN: an id names no type in NGSI-LD;
 * - a batch query (`/entityOperations/query`) is a read, asked as `GET` (the plugin has no batch);
 * - a request whose entity type cannot be known (a query without `type`, reading or changing a
 *   subscription by id, the discovery and registration routes) is refused: an iSHARE registry
 *   (Keyrock's schema) takes no `*` type, and answering it would open every type of the tenant.
 */

/** One NGSI-LD request as the router served it (see consumers.ts). */
export interface ConsumerRequest {
  /** HTTP method (HEAD counts as GET). */
  method: string;
  /** Path under /ngsi-ld/v1 as served, e.g. "/entities/urn:ngsi-ld:Shelf:1/attrs/x". */
  path: string;
  /** The matched route pattern without the prefix, e.g. "/entities/:entityId/attrs/:attrId". */
  routePattern: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Parsed JSON body, or undefined. */
  body: unknown;
}

/** What a consumer needs for one target of a request. */
export interface RequiredPolicy {
  type: string;
  identifiers: string[];
  attributes: string[];
  /** `GET`, `PATCH`, `POST:Subscription`, `POST:Batch`, ... */
  action: string;
}

/** The required policies, or why none can be derived (an English sentence: the request is refused). */
export type Derivation = { policies: RequiredPolicy[] } | { refused: string };

/** The stored type(s) of an entity, undefined when the tenant has no such entity. */
export type EntityTypeOf = (id: string) => Promise<string | string[] | undefined>;

/** A required policy in one line, for the decision log: "GET Shelf [urn:…:1] [*]". */
export const describePolicy = (p: RequiredPolicy) =>
  `${p.action} ${p.type} [${p.identifiers.join(", ")}] [${p.attributes.join(", ")}]`;

const ANY = ["*"];
/** What the body of an entity names besides its attributes. */
const notAttributes = new Set(["id", "type", "@id", "@type", "@context"]);
/** A type an iSHARE registry can be asked about (Keyrock's schema: no whitespace, no `*`). */
const askable = (type: string) => /^[^\s*]+$/.test(type);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).filter(
    (s): s is string => typeof s === "string" && s.length > 0,
  );
const unique = (values: string[]) => [...new Set(values)];

/** A comma-separated query parameter (`attrs=a,b`, `id=x,y`), also when repeated. */
const listParam = (value: unknown): string[] =>
  unique(
    strings(value)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean),
  );

/** The type names of an NGSI-LD type expression (`A,B`, `(A;B)|C`): every type it may select. */
const typeNames = (value: unknown): string[] =>
  unique(
    strings(value)
      .flatMap((v) => v.split(/[,;|()]/))
      .map((v) => v.trim())
      .filter(Boolean),
  );

const attributesOf = (body: unknown): string[] => {
  const names = isObject(body) ? Object.keys(body).filter((k) => !notAttributes.has(k)) : [];
  return names.length ? names : ANY;
};

const orAny = (values: string[]) => (values.length ? values : ANY);

/** The types of a stored entity, or the refusal when it has none (absent or unknown). */
async function storedTypes(id: string, entityTypeOf: EntityTypeOf): Promise<string[] | string> {
  const types = strings(await entityTypeOf(id));
  return types.length
    ? types
    : `the entity ${id} is not known here, so its entity type cannot be asked about`;
}

/** One policy per type, each with the ids and attributes given. */
const perType = (types: string[], identifiers: string[], attributes: string[], action: string) =>
  types.map((type) => ({ type, identifiers, attributes, action }));

/** Policies of a batch: the entities grouped by type, their ids and (for updates) attributes merged. */
function grouped(
  entries: Array<{ types: string[]; id?: string; attributes: string[] }>,
  action: string,
): RequiredPolicy[] {
  const byType = new Map<string, { ids: Set<string>; attributes: Set<string> }>();
  for (const entry of entries)
    for (const type of entry.types) {
      const group = byType.get(type) ?? { ids: new Set(), attributes: new Set() };
      group.ids.add(entry.id ?? "*");
      for (const a of entry.attributes) group.attributes.add(a);
      byType.set(type, group);
    }
  return [...byType].map(([type, g]) => ({
    type,
    identifiers: g.ids.has("*") ? ANY : [...g.ids],
    attributes: g.attributes.has("*") ? ANY : [...g.attributes],
    action,
  }));
}

async function batch(operation: string, body: unknown, entityTypeOf: EntityTypeOf): Promise<Derivation> {
  if (!Array.isArray(body) || !body.length)
    return { refused: "a batch operation names its entities in an array" };
  const action = "POST:Batch";
  if (operation === "delete") {
    const entries = [];
    for (const id of body) {
      if (typeof id !== "string") return { refused: "a batch delete lists entity ids" };
      const types = await storedTypes(id, entityTypeOf);
      if (typeof types === "string") return { refused: types };
      entries.push({ types, id, attributes: ANY });
    }
    return { policies: grouped(entries, action) };
  }
  const entries = [];
  for (const entity of body) {
    if (!isObject(entity)) return { refused: "a batch operation lists entities" };
    const id = typeof entity.id === "string" ? entity.id : undefined;
    let types = strings(entity.type);
    if (!types.length && id) {
      const stored = await storedTypes(id, entityTypeOf);
      if (typeof stored === "string") return { refused: stored };
      types = stored;
    }
    if (!types.length) return { refused: "every entity of a batch names its type" };
    // Creating (or replacing, by upsert) a whole entity writes all of it, as the plugin's POST /entities.
    entries.push({ types, id, attributes: operation === "update" ? attributesOf(entity) : ANY });
  }
  return { policies: grouped(entries, action) };
}

/** The entity types a subscription watches (its `entities`), with the notified attributes. */
function subscription(body: unknown, action: string): Derivation {
  const entities = isObject(body) && Array.isArray(body.entities) ? body.entities : [];
  const types = unique(entities.flatMap((e) => (isObject(e) ? typeNames(e.type) : [])));
  if (!types.length)
    return { refused: "a consumer's subscription names the entity types it watches (entities[].type)" };
  const id = isObject(body) && typeof body.id === "string" ? body.id : "*";
  const notification = isObject(body) && isObject(body.notification) ? body.notification : {};
  return { policies: perType(types, [id], orAny(strings(notification.attributes)), action) };
}

async function derive(request: ConsumerRequest, entityTypeOf: EntityTypeOf): Promise<Derivation> {
  const method = request.method.toUpperCase() === "HEAD" ? "GET" : request.method.toUpperCase();
  const { params, query, body } = request;
  const route = request.routePattern.replace(/^\/temporal(?=\/entities)/, "");
  const entity = async (attributes: string[]): Promise<Derivation> => {
    const id = params.entityId ?? "";
    const types = await storedTypes(id, entityTypeOf);
    if (typeof types === "string") return { refused: types };
    return { policies: perType(types, [id], attributes, method) };
  };

  switch (`${method} ${route}`) {
    case "GET /entities": {
      const ids = listParam(query.id);
      const attributes = orAny(listParam(query.attrs ?? query.pick));
      const types = typeNames(query.type);
      if (types.length)
        return { policies: perType(types, orAny(query.idPattern ? [] : ids), attributes, method) };
      if (!ids.length) return { refused: "a consumer's query names its entity types (type=…)" };
      const entries = [];
      for (const id of ids) {
        const stored = await storedTypes(id, entityTypeOf);
        if (typeof stored === "string") return { refused: stored };
        entries.push({ types: stored, id, attributes });
      }
      return { policies: grouped(entries, method) };
    }
    case "POST /entities": {
      const types = isObject(body) ? strings(body.type) : [];
      if (!types.length) return { refused: "a new entity names its type" };
      const id = isObject(body) && typeof body.id === "string" ? body.id : "*";
      return { policies: perType(types, [id], ANY, method) };
    }
    case "GET /entities/:entityId":
      return entity(orAny(listParam(query.attrs ?? query.pick)));
    case "PUT /entities/:entityId":
    case "DELETE /entities/:entityId":
      return entity(ANY);
    case "PATCH /entities/:entityId":
    case "POST /entities/:entityId/attrs":
    case "PATCH /entities/:entityId/attrs":
      return entity(attributesOf(body));
    case "PATCH /entities/:entityId/attrs/:attrId":
    case "PUT /entities/:entityId/attrs/:attrId":
    case "DELETE /entities/:entityId/attrs/:attrId":
    case "PATCH /entities/:entityId/attrs/:attrId/:instanceId":
    case "DELETE /entities/:entityId/attrs/:attrId/:instanceId":
      return entity([params.attrId ?? "*"]);
    case "POST /entityOperations/create":
    case "POST /entityOperations/upsert":
    case "POST /entityOperations/update":
    case "POST /entityOperations/delete":
      return batch(route.split("/")[2]!, body, entityTypeOf);
    case "POST /entityOperations/query": {
      const entities = isObject(body) && Array.isArray(body.entities) ? body.entities : [];
      const types = unique(entities.flatMap((e) => (isObject(e) ? typeNames(e.type) : [])));
      if (!types.length) return { refused: "a consumer's query names its entity types (entities[].type)" };
      const ids = unique(entities.flatMap((e) => (isObject(e) ? strings(e.id) : [])));
      const attributes = orAny(isObject(body) ? strings(body.attrs) : []);
      // One entity selector without an id selects every entity of its type.
      const anyId = entities.some((e) => isObject(e) && typeof e.id !== "string");
      return { policies: perType(types, anyId ? ANY : orAny(ids), attributes, "GET") };
    }
    case "POST /subscriptions":
      return subscription(body, "POST:Subscription");
    case "GET /types/:type":
      return { policies: perType([params.type ?? ""], ANY, ANY, method) };
    default:
      return {
        refused: `${method} ${request.routePattern} is not open to data-space consumers: only entity, batch and subscription-creation requests name the entity types a policy covers`,
      };
  }
}

/**
 * The required policies of a request. `entityTypeOf` gives a stored entity's type (asked only for
 * requests that name an entity by id and no type).
 */
export async function requiredPolicies(
  request: ConsumerRequest,
  entityTypeOf: EntityTypeOf,
): Promise<Derivation> {
  const derived = await derive(request, entityTypeOf);
  if ("refused" in derived) return derived;
  const unaskable = derived.policies.find((p) => !askable(p.type));
  if (unaskable)
    return { refused: `the entity type ${JSON.stringify(unaskable.type)} cannot be asked about` };
  const badId = derived.policies
    .flatMap((p) => [...p.identifiers, ...p.attributes])
    .find((v) => /\s/.test(v));
  if (badId !== undefined) return { refused: `${JSON.stringify(badId)} is not an NGSI-LD name` };
  return derived;
}
