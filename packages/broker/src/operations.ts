import type { ParsedAttribute, ParsedEntity } from "./attributes.ts";
import { NGSI_LD_NULL, instanceMembers, type Attributes, type Instance, type StoredEntity } from "./model.ts";
import { badRequest, notFound } from "./problems.ts";

/**
 * The entity operations of ETSI GS CIM 009 (5.6.x) as pure functions over the stored form, shared
 * by the single-entity routes and the batch operations. Each returns the changed entity and what
 * was (not) updated; writing it is storage.ts's job.
 */

export interface NotUpdated {
  attributeName: string;
  reason: string;
}

export interface Outcome {
  entity: StoredEntity;
  updated: string[];
  notUpdated: NotUpdated[];
}

const keyOf = (i: { datasetId?: string }) => i.datasetId ?? "";

/** Sets createdAt/modifiedAt on an instance and its sub-attributes, keeping createdAt of what it replaces. */
function stamp(incoming: Instance, previous: Instance | undefined, now: string): Instance {
  const out: Instance = { ...incoming, createdAt: previous?.createdAt ?? now, modifiedAt: now };
  for (const key of Object.keys(incoming)) {
    if (instanceMembers.has(key)) continue;
    out[key] = stamp(incoming[key] as Instance, previous?.[key] as Instance | undefined, now);
  }
  return out;
}

export function newEntity(parsed: ParsedEntity, now: string): StoredEntity {
  const attrs: Attributes = {};
  for (const [iri, attr] of Object.entries(parsed.attrs))
    attrs[iri] = (attr as Instance[]).map((i) => stamp(i, undefined, now));
  return { id: parsed.id!, types: parsed.types!, attrs, createdAt: now, modifiedAt: now };
}

function copy(entity: StoredEntity): StoredEntity {
  return { ...entity, types: [...entity.types], attrs: { ...entity.attrs } };
}

function fullInstances(attr: ParsedAttribute, iri: string): Instance[] {
  if (attr === "delete") throw badRequest(`attribute ${iri} cannot be null here`);
  return attr;
}

/** Append Entity Attributes (5.6.3) and batch update (5.6.9): add or, unless noOverwrite, replace. */
export function appendAttributes(
  entity: StoredEntity,
  parsed: ParsedEntity,
  now: string,
  noOverwrite: boolean,
): Outcome {
  const next = copy(entity);
  const updated: string[] = [];
  const notUpdated: NotUpdated[] = [];
  for (const [iri, attr] of Object.entries(parsed.attrs)) {
    const instances = [...(next.attrs[iri] ?? [])];
    let changed = false;
    for (const incoming of fullInstances(attr, iri)) {
      const at = instances.findIndex((i) => keyOf(i) === keyOf(incoming));
      if (at >= 0 && noOverwrite) {
        notUpdated.push({ attributeName: iri, reason: "the attribute exists and noOverwrite was requested" });
        continue;
      }
      const stamped = stamp(incoming, at >= 0 ? instances[at] : undefined, now);
      if (at >= 0) instances[at] = stamped;
      else instances.push(stamped);
      changed = true;
    }
    if (changed) {
      next.attrs[iri] = instances;
      updated.push(iri);
    }
  }
  if (parsed.types) next.types = union(next.types, parsed.types);
  if (updated.length || parsed.types) next.modifiedAt = now;
  return { entity: next, updated, notUpdated };
}

/** Update Entity Attributes (5.6.2): only instances that exist (same datasetId) are replaced. */
export function updateAttributes(entity: StoredEntity, parsed: ParsedEntity, now: string): Outcome {
  const next = copy(entity);
  const updated: string[] = [];
  const notUpdated: NotUpdated[] = [];
  for (const [iri, attr] of Object.entries(parsed.attrs)) {
    const instances = [...(next.attrs[iri] ?? [])];
    let changed = false;
    for (const incoming of fullInstances(attr, iri)) {
      const at = instances.findIndex((i) => keyOf(i) === keyOf(incoming));
      if (at < 0) {
        notUpdated.push({
          attributeName: iri,
          reason: incoming.datasetId
            ? `no instance with datasetId ${incoming.datasetId}`
            : "the attribute does not exist",
        });
        continue;
      }
      instances[at] = stamp(incoming, instances[at], now);
      changed = true;
    }
    if (changed) {
      next.attrs[iri] = instances;
      updated.push(iri);
    }
  }
  if (updated.length) next.modifiedAt = now;
  return { entity: next, updated, notUpdated };
}

/** Merges a fragment into an instance: members replace, sub-attributes merge, NGSI-LD null deletes. */
function mergeInstance(current: Instance, fragment: Instance, now: string): Instance {
  const out: Instance = { ...current, modifiedAt: now };
  for (const [key, v] of Object.entries(fragment)) {
    if (key === "createdAt" || key === "modifiedAt") continue;
    if (instanceMembers.has(key)) {
      if (key === "type" && v !== current.type)
        throw badRequest(`cannot change the type of an attribute from ${current.type} to ${String(v)}`);
      out[key] = v;
    } else if (v === NGSI_LD_NULL) delete out[key];
    else {
      const previous = current[key] as Instance | undefined;
      out[key] = previous
        ? mergeInstance(previous, v as Instance, now)
        : stamp(v as Instance, undefined, now);
    }
  }
  return out;
}

/** Merge Entity (5.6.17): attributes merge, new ones are added, NGSI-LD null deletes. */
export function mergeEntity(entity: StoredEntity, parsed: ParsedEntity, now: string): Outcome {
  const next = copy(entity);
  const updated: string[] = [];
  for (const [iri, attr] of Object.entries(parsed.attrs)) {
    updated.push(iri);
    if (attr === "delete") {
      delete next.attrs[iri];
      continue;
    }
    const instances = [...(next.attrs[iri] ?? [])];
    for (const incoming of attr) {
      const at = instances.findIndex((i) => keyOf(i) === keyOf(incoming));
      if (at >= 0) instances[at] = mergeInstance(instances[at]!, incoming, now);
      else {
        requireComplete(incoming, iri);
        instances.push(stamp(incoming, undefined, now));
      }
    }
    next.attrs[iri] = instances;
  }
  if (parsed.types) next.types = union(next.types, parsed.types);
  next.modifiedAt = now;
  return { entity: next, updated, notUpdated: [] };
}

/** A new attribute from a fragment must still be whole: a type and its value member. */
function requireComplete(i: Instance, iri: string): void {
  if (
    !i.type ||
    (i.value === undefined &&
      i.object === undefined &&
      i.languageMap === undefined &&
      i.vocab === undefined &&
      i.json === undefined &&
      i.valueList === undefined &&
      i.objectList === undefined)
  )
    throw badRequest(`attribute ${iri} does not exist and the fragment does not give its value`);
}

/** Partial Attribute Update (5.6.4): merges a fragment into one existing instance. */
export function partialUpdate(entity: StoredEntity, iri: string, fragment: Instance, now: string): Outcome {
  const instances = entity.attrs[iri];
  const at = instances?.findIndex((i) => keyOf(i) === keyOf(fragment)) ?? -1;
  if (!instances || at < 0)
    throw notFound(
      `entity ${entity.id} has no attribute ${iri}${fragment.datasetId ? ` with datasetId ${fragment.datasetId}` : ""}`,
    );
  const next = copy(entity);
  const list = [...instances];
  list[at] = mergeInstance(list[at]!, fragment, now);
  next.attrs[iri] = list;
  next.modifiedAt = now;
  return { entity: next, updated: [iri], notUpdated: [] };
}

/** Replace Entity (5.6.18): all attributes are replaced; the entity keeps its id and createdAt. */
export function replaceEntity(entity: StoredEntity, parsed: ParsedEntity, now: string): StoredEntity {
  const fresh = newEntity({ id: entity.id, types: parsed.types ?? entity.types, attrs: parsed.attrs }, now);
  return { ...fresh, createdAt: entity.createdAt };
}

/** Delete Entity Attribute (5.6.5): the default instance, one datasetId, or all instances. */
export function deleteAttribute(
  entity: StoredEntity,
  iri: string,
  options: { datasetId?: string; deleteAll: boolean },
  now: string,
): StoredEntity {
  const instances = entity.attrs[iri];
  if (!instances) throw notFound(`entity ${entity.id} has no attribute ${iri}`);
  const keep = options.deleteAll ? [] : instances.filter((i) => keyOf(i) !== (options.datasetId ?? ""));
  if (keep.length === instances.length)
    throw notFound(
      `attribute ${iri} of ${entity.id} has no ${options.datasetId ? `instance with datasetId ${options.datasetId}` : "default instance"}`,
    );
  const next = copy(entity);
  if (keep.length) next.attrs[iri] = keep;
  else delete next.attrs[iri];
  next.modifiedAt = now;
  return next;
}

function union(a: string[], b: string[]): string[] {
  return [...a, ...b.filter((t) => !a.includes(t))];
}
