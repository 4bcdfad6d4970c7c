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
 * With the broker's `writes` (the embedded broker's count of committed entity writes of the
 * tenant), a request joins only a reading made at the same count.
 */
const reading = new Map<string, Promise<Sorted>>();

/**
 * Sorted lists read from a broker whose data has a known version (the embedded broker: its
 * tenant's `writes`), kept while that version stays the same: 50 users on the entities page each
 * waited for a new reading of the 1,000 names (bench/load.ts, p95 183 ms) when nothing had changed.
 * Dropped after a minute in any case (a process that died between its commit and its count).
 */
const kept = new Map<string, { writes: string; sorted: Sorted; until: number }>();
const KEPT_MAX = 50;
const KEPT_MS = 60_000;

/**
 * How far a broker's data has changed: a value that changes with every committed write of what a
 * query reads (undefined: not known, nothing is kept).
 */
export type BrokerWrites = () => Promise<string | undefined>;

/**
 * How many entities the query has and, up to `upTo`, all of them (id, type and name) in name
 * order. Those without a name are included (asking `attrs=name` would leave them out: NGSI-LD
 * answers only the entities that have a listed attribute): the named ones are read with only their
 * name and the others with `!name`; a broker that does not know `!name` leaves them unsorted.
 */
async function sortedByName(
  client: NgsiLdClient,
  all: EntityQuery,
  upTo: number,
  writesNow?: BrokerWrites,
): Promise<Sorted> {
  const query = createHash("sha256")
    .update(JSON.stringify([client.answers, all, upTo]))
    .digest("base64url");
  // Read before the list: a list read after holds every write counted (see ListCache).
  const writes = await writesNow?.();
  const known = writes === undefined ? undefined : kept.get(query);
  if (known && known.writes === writes && known.until > Date.now()) return known.sorted;
  const key = writes === undefined ? query : `${query}@${writes}`;
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
  })()
    .then((sorted) => {
      if (writes !== undefined) {
        kept.delete(query);
        if (kept.size >= KEPT_MAX) kept.delete(kept.keys().next().value!);
        kept.set(query, { writes, sorted, until: Date.now() + KEPT_MS });
      }
      return sorted;
    })
    .finally(() => reading.delete(key));
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
  writes?: BrokerWrites,
): Promise<OrderedPage> {
  const { limit: _limit, offset: _offset, attrs: _attrs, ...all } = query;
  const sorted = await sortedByName(client, all, upTo, writes);
  if (!sorted.entities)
    return { ...(await client.queryEntities({ ...all, ...page, count: true })), order: "broker" };
  const { entities, count } = sorted;
  return { entities: entities.slice(page.offset, page.offset + page.limit), count, order: "name" };
}
