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

/**
 * A page of every entity of the query in name order, those without a name included (asking
 * `attrs=name` would leave them out: NGSI-LD answers only the entities that have a listed attribute).
 * The broker's own page comes first, with its count: past `upTo` entities it is the answer (one
 * call, as for an unsorted list). Otherwise the named ones are read with only their name and the
 * others with `!name`, and sorted; a broker that does not know `!name` (it is not in every NGSI-LD
 * version) keeps its own order.
 */
export async function pageByName(
  client: NgsiLdClient,
  query: EntityQuery,
  page: { limit: number; offset: number },
  upTo = SORTED_UP_TO,
): Promise<OrderedPage> {
  const { limit: _limit, offset: _offset, attrs: _attrs, ...all } = query;
  const own = await client.queryEntities({ ...all, ...page, count: true });
  const brokers: OrderedPage = { ...own, order: "broker" };
  if (own.count === undefined || own.count > upTo) return brokers;
  const named: EntityQuery = { ...all, attrs: ["name"] };
  const unnamed: EntityQuery = { ...all, q: all.q ? `(${all.q});!name` : "!name" };
  const every: Entity[] = [];
  try {
    for (const q of [named, unnamed])
      for await (const entities of client.entityPages(q, { max: upTo })) every.push(...entities.map(listed));
  } catch (err) {
    if (err instanceof NgsiLdError && err.status === 400) return brokers;
    throw err;
  }
  every.sort(byNameThenId);
  return { entities: every.slice(page.offset, page.offset + page.limit), count: every.length, order: "name" };
}
