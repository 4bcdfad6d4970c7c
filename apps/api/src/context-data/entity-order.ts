import { createHash } from "node:crypto";
import { NgsiLdError, type Entity, type EntityQuery, type NgsiLdClient } from "@orrery/ngsi-ld";

/**
 * Above this many entities a list keeps the broker's order: NGSI-LD has no sorting, so a sorted
 * page reads the id and name of every entity of the query, which is cheap for thousands and not
 * for a hundred thousand.
 */
export const SORTED_UP_TO = 2_000;

/** One page of a list, and whether it is in name order or the broker's. */
export interface OrderedPage {
  entities: Entity[];
  count?: number;
  order: "name" | "broker";
}

/** The text of an entity's name: its first value (a LanguageProperty's first language), if any. */
export function nameText(entity: Entity): string | undefined {
  const first = [entity.name].flat()[0] as Record<string, unknown> | undefined;
  const value = first?.value ?? Object.values((first?.languageMap as object | undefined) ?? {})[0];
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
/** By what the list shows (the name, or the id without one), then by id. */
export const byNameThenId = (a: Entity, b: Entity) =>
  collator.compare(nameText(a) ?? a.id, nameText(b) ?? b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Only what a list shows of an entity: id, type and name. */
const listed = (e: Entity): Entity => ({ id: e.id, type: e.type, ...(e.name ? { name: e.name } : {}) });

/** What users asking for the same list at the same time share: its count, and its sorted entities if it is short enough. */
interface Sorted {
  count?: number;
  /** Undefined past `upTo` entities, or when the broker does not know `!name`. */
  entities?: Entity[];
}

/**
 * Sorted lists being read, by what decides their answer: users opening the same list at the same
 * time share one reading (50 at once on a list of 1,000 read it once, not 50 times). Only while it
 * is read: a request that starts later reads again, so a change made before it is always seen.
 */
const reading = new Map<string, Promise<Sorted>>();

/**
 * How many entities the query has and, up to `upTo`, all of them (id, type and name) in name
 * order. Those without a name are included (asking `attrs=name` would leave them out: NGSI-LD
 * answers only the entities that have a listed attribute): the named ones are read with only their
 * name and the others with `!name`; a broker that does not know `!name` leaves them unsorted.
 */
function sortedByName(client: NgsiLdClient, all: EntityQuery, upTo: number): Promise<Sorted> {
  const key = createHash("sha256")
    .update(JSON.stringify([client.answers, all, upTo]))
    .digest("base64url");
  const shared = reading.get(key);
  if (shared) return shared;
  const read = (async (): Promise<Sorted> => {
    const { count } = await client.queryEntities({ ...all, limit: 1, count: true });
    if (count === undefined || count > upTo) return { count };
    const named: EntityQuery = { ...all, attrs: ["name"] };
    const unnamed: EntityQuery = { ...all, q: all.q ? `(${all.q});!name` : "!name" };
    const every: Entity[] = [];
    try {
      for (const q of [named, unnamed])
        for await (const entities of client.entityPages(q, { max: upTo }))
          every.push(...entities.map(listed));
    } catch (err) {
      if (err instanceof NgsiLdError && err.status === 400) return { count };
      throw err;
    }
    // What each shows, read once (not at each of the n log n comparisons).
    const keyed = every.map((entity) => ({ entity, shown: nameText(entity) ?? entity.id }));
    keyed.sort(
      (a, b) =>
        collator.compare(a.shown, b.shown) ||
        (a.entity.id < b.entity.id ? -1 : a.entity.id > b.entity.id ? 1 : 0),
    );
    return { count: keyed.length, entities: keyed.map((k) => k.entity) };
  })().finally(() => reading.delete(key));
  reading.set(key, read);
  return read;
}

/**
 * A page of every entity of the query in name order, those without a name included (sortedByName).
 * Past `upTo` entities, or from a broker that does not know `!name` (it is not in every NGSI-LD
 * version), the broker's own page and order (one call, as for an unsorted list).
 */
export async function pageByName(
  client: NgsiLdClient,
  query: EntityQuery,
  page: { limit: number; offset: number },
  upTo = SORTED_UP_TO,
): Promise<OrderedPage> {
  const { limit: _limit, offset: _offset, attrs: _attrs, ...all } = query;
  const sorted = await sortedByName(client, all, upTo);
  if (!sorted.entities)
    return { ...(await client.queryEntities({ ...all, ...page, count: true })), order: "broker" };
  const { entities, count } = sorted;
  return { entities: entities.slice(page.offset, page.offset + page.limit), count, order: "name" };
}
