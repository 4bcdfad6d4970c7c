import type { Geometry } from "geojson";
import { attributeEvents, type Change } from "./changes.ts";
import { geoMatches, parseGeoQuery, type GeoQuery } from "./geo.ts";
import type { StoredEntity } from "./model.ts";
import { compilePattern } from "./patterns.ts";
import { evaluate, parseQuery, pathsOf, type QueryNode, type Resolved } from "./query-language.ts";
import {
  defaultTriggers,
  type NotificationTrigger,
  type StoredEntitySelector,
  type StoredSubscription,
} from "./subscription-model.ts";

/**
 * Whether an entity change concerns a subscription (ETSI GS CIM 009 v1.8, 5.8.6 / 4.9): the
 * entity selectors, notificationTrigger restricted to watchedAttributes, then q and geoQ on the
 * entity as it is after the change (before it, for a deletion). The parsed forms of q, geoQ and
 * idPattern are cached by their text (idPattern in patterns.ts).
 */
const queries = new Map<string, { node: QueryNode; resolved: Resolved }>();
const geoQueries = new Map<string, GeoQuery>();

function cached<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size > 1000) map.clear();
    v = make();
    map.set(key, v);
  }
  return v;
}

export function selectorMatches(s: StoredEntitySelector, entity: StoredEntity): boolean {
  if (!entity.types.includes(s.type)) return false;
  if (s.id !== undefined) return entity.id === s.id;
  if (s.idPattern !== undefined) return compilePattern(s.idPattern, "idPattern").test(entity.id);
  return true;
}

/** q and geoQ of a subscription on an entity state. */
export function filterMatches(sub: StoredSubscription, entity: StoredEntity): boolean {
  if (sub.q !== undefined && sub.qPaths) {
    const { node, resolved } = cached(queries, `${sub.q}\n${JSON.stringify(sub.qPaths)}`, () => {
      const node = parseQuery(sub.q!);
      const paths = pathsOf(node);
      return { node, resolved: new Map(paths.map((p, i) => [p, sub.qPaths![i]!])) };
    });
    if (!evaluate(node, entity.attrs, resolved)) return false;
  }
  if (sub.geoQ) {
    const g = sub.geoQ;
    const query = cached(geoQueries, JSON.stringify(g), () => parseGeoQuery(g)!);
    const instances = entity.attrs[g.geoproperty] ?? [];
    if (!instances.some((i) => i.type === "GeoProperty" && geoMatches(i.value as Geometry, query)))
      return false;
  }
  return true;
}

/** The trigger reason a change notifies the subscription with, or undefined when it does not. */
export function matchChange(sub: StoredSubscription, change: Change): NotificationTrigger | undefined {
  const entity = change.after ?? change.before;
  if (!entity) return undefined;
  if (sub.entities && !sub.entities.some((s) => selectorMatches(s, entity))) return undefined;
  const triggers = sub.notificationTrigger ?? defaultTriggers;
  const watched = sub.watchedAttributes;
  const relevant = (attrs: string[]) => (watched ? attrs.filter((a) => watched.includes(a)) : attrs);
  const events = attributeEvents(change);
  let reason: NotificationTrigger | undefined;
  if (!change.before) {
    if (triggers.includes("entityCreated") && (!watched || relevant(Object.keys(entity.attrs)).length))
      reason = "entityCreated";
    else if (triggers.includes("attributeCreated") && relevant(events.created).length)
      reason = "attributeCreated";
  } else if (!change.after) {
    if (triggers.includes("entityDeleted")) reason = "entityDeleted";
  } else {
    const changed = [...events.created, ...events.updated, ...events.deleted];
    if (triggers.includes("attributeCreated") && relevant(events.created).length) reason = "attributeCreated";
    else if (triggers.includes("attributeUpdated") && relevant(events.updated).length)
      reason = "attributeUpdated";
    else if (triggers.includes("attributeDeleted") && relevant(events.deleted).length)
      reason = "attributeDeleted";
    else if (triggers.includes("entityUpdated") && relevant(changed).length) reason = "entityUpdated";
  }
  if (!reason) return undefined;
  return filterMatches(sub, entity) ? reason : undefined;
}
