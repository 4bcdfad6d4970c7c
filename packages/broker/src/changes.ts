import type { Instance, StoredEntity } from "./model.ts";
import type { BrokerDatabase } from "./storage.ts";

/**
 * What one write did to one entity, handed to the change listeners (notifications, temporal
 * history) inside the writing transaction: no `before` = created, no `after` = deleted.
 */
export interface Change {
  before?: StoredEntity;
  after?: StoredEntity;
  /**
   * The write took the entity for new, but another transaction created it meanwhile and the write
   * replaced it: what it was before is not known (type-counts.ts counts its types again).
   */
  unsure?: boolean;
}

export interface ChangeListener {
  /**
   * Runs inside the transaction of the change; a failure rolls the change back. What it returns
   * runs once the transaction has committed.
   */
  onChanges(tx: BrokerDatabase, tenant: string, changes: Change[], now: string): Promise<(() => void) | void>;
}

/** Attribute names (expanded) created, updated and deleted by a change. */
export interface AttributeEvents {
  created: string[];
  updated: string[];
  deleted: string[];
}

const keyOf = (i: Instance) => i.datasetId ?? "";

/**
 * Whether an instance was written by the change. Every operation stamps modifiedAt, so a
 * different modifiedAt means written; equal ones (two writes in one millisecond) are compared whole.
 */
export function instanceChanged(before: Instance | undefined, after: Instance): boolean {
  if (!before) return true;
  if (before.modifiedAt !== after.modifiedAt) return true;
  return JSON.stringify(before) !== JSON.stringify(after);
}

/** The instances a change wrote, per attribute (for the temporal history). */
export function writtenInstances(change: Change): Array<{ attribute: string; instance: Instance }> {
  const out: Array<{ attribute: string; instance: Instance }> = [];
  if (!change.after) return out;
  for (const [attribute, instances] of Object.entries(change.after.attrs)) {
    const previous = change.before?.attrs[attribute];
    for (const instance of instances) {
      const before = previous?.find((p) => keyOf(p) === keyOf(instance));
      if (instanceChanged(before, instance)) out.push({ attribute, instance });
    }
  }
  return out;
}

export function attributeEvents(change: Change): AttributeEvents {
  const events: AttributeEvents = { created: [], updated: [], deleted: [] };
  const before = change.before?.attrs ?? {};
  const after = change.after?.attrs ?? {};
  if (!change.after) return events;
  for (const [attribute, instances] of Object.entries(after)) {
    const previous = before[attribute];
    if (!previous) events.created.push(attribute);
    else if (
      instances.length !== previous.length ||
      instances.some((i) =>
        instanceChanged(
          previous.find((p) => keyOf(p) === keyOf(i)),
          i,
        ),
      )
    )
      events.updated.push(attribute);
  }
  for (const attribute of Object.keys(before)) if (!(attribute in after)) events.deleted.push(attribute);
  return events;
}
