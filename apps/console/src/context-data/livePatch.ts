import { hashKey, type QueryClient } from "@tanstack/react-query";
import type { Entity } from "./entityModel.ts";
import { entityKeys, type EntityPage } from "./entityQueries.ts";

/**
 * A change the API's live stream tells of: the entity as the broker notified it, whole and
 * normalized (the stream's subscription names no attributes), or its deletion (`deletedAt`).
 */
export type ChangedEntity = Entity & { deletedAt?: string };

/** The stream's data, when it is an entity (anything else is only a reason to read again). */
export function changedEntity(data: unknown): ChangedEntity | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const entity = data as Record<string, unknown>;
  return typeof entity.id === "string" &&
    entity.id &&
    (typeof entity.type === "string" || Array.isArray(entity.type))
    ? (entity as ChangedEntity)
    : undefined;
}

/**
 * The parameters of a list whose rows are all it depends on for an entity already in it: with
 * none other (a `q`, a geo-query, an id pattern), a change can take the entity out of the list.
 */
const settledBy = new Set(["typeId", "limit", "offset", "order", "count", "search", "attrs"]);

/**
 * The attributes a list query shows of an entity, as the API answers it (entities-routes.ts):
 * only the name in name order (entity-order.ts) unless searching, else those asked (`attrs`);
 * undefined: every attribute.
 */
function shownBy(query: Record<string, string>): string[] | undefined {
  if (query.order) return query.search ? undefined : ["name"];
  return query.attrs ? query.attrs.split(",").filter(Boolean) : undefined;
}

/** An entity's row in a list of this query. */
function rowOf(query: Record<string, string>, changed: ChangedEntity): Entity {
  const { deletedAt: _deletedAt, ...entity } = changed;
  const shown = shownBy(query);
  if (!shown) return entity;
  const row: Entity = { id: entity.id, type: entity.type };
  for (const name of shown) if (entity[name] !== undefined) row[name] = entity[name];
  return row;
}

const same = (a: unknown, b: unknown) => hashKey([a]) === hashKey([b]);

const isPage = (data: unknown): data is EntityPage =>
  typeof data === "object" && data !== null && Array.isArray((data as EntityPage).entities);

/**
 * Draws a change at once in the workspace's cached lists and entity (issue 38: another client's
 * write on screen in under 100 ms, where reading the list again took a round trip to the broker):
 * the entity's row in each list takes what the list shows of it, a deleted entity leaves the lists,
 * the cached entity becomes the notified one. Where it stands in the list, a new entity, and the
 * counts are the next read's.
 *
 * Returns the queries this change leaves exactly as they were (the entity is in the list, shown as
 * it is already, and nothing else in the list depends on it): they need no read for it.
 */
export function patchCachedEntities(
  client: QueryClient,
  workspaceId: string,
  changed: ChangedEntity,
): Set<string> {
  const untouched = new Set<string>();
  const lists = client.getQueryCache().findAll({ queryKey: [...entityKeys.all(workspaceId), "list"] });
  for (const query of lists) {
    const data = query.state.data;
    if (!isPage(data)) continue;
    const at = data.entities.findIndex((e) => e.id === changed.id);
    if (at < 0) continue;
    const params = (query.queryKey[4] ?? {}) as Record<string, string>;
    if (changed.deletedAt) {
      client.setQueryData(query.queryKey, {
        ...data,
        entities: data.entities.filter((e) => e.id !== changed.id),
        ...(data.total !== undefined ? { total: Math.max(0, data.total - 1) } : {}),
      });
      continue;
    }
    const row = rowOf(params, changed);
    if (same(row, data.entities[at])) {
      if (Object.keys(params).every((name) => settledBy.has(name))) untouched.add(query.queryHash);
      continue;
    }
    client.setQueryData(query.queryKey, {
      ...data,
      entities: data.entities.map((e, i) => (i === at ? row : e)),
    });
  }
  const item = client
    .getQueryCache()
    .find({ queryKey: entityKeys.item(workspaceId, changed.id), exact: true });
  if (item?.state.data !== undefined && !changed.deletedAt) {
    const { deletedAt: _deletedAt, ...entity } = changed;
    if (same(entity, item.state.data)) untouched.add(item.queryHash);
    else client.setQueryData(item.queryKey, entity);
  }
  return untouched;
}
