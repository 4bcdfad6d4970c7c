import {
  dataActions,
  dataServices,
  properties,
  routingOperationControls,
  routingOperations,
  routings,
  woTActionInputProperties,
  woTActions,
  woTEvents,
  woTProperties,
  woTThingDescriptions,
  type KindDefinition,
} from "@orrery/model";
import type { Broken, Change, DependentsCheck, InTransaction, Row } from "../resources/records.ts";
import { canMeet, capacityFits, capacityOf, controlFits, valueTypeOf, writtenBy } from "./capacity.ts";
import { NOTIFICATION } from "./rules.ts";

type Data = Record<string, unknown>;

/** The fields an update changes, among these. */
const changes = ({ before, after }: Change, ...fields: string[]) =>
  fields.filter((f) => JSON.stringify(before[f] ?? null) !== JSON.stringify(after[f] ?? null));

/** These rows, broken by the change of each of these fields. */
const brokenBy = (fields: string[], rows: Row[]): Broken[] => fields.map((field) => ({ field, rows }));

/** The rows a test finds broken, named under the changed field(s) that break them. */
async function brokenAmong(
  fields: string[],
  rows: Row[],
  isBroken: (row: Row) => boolean | Promise<boolean>,
): Promise<Broken[]> {
  const found: Row[] = [];
  for (const row of rows) if (await isBroken(row)) found.push(row);
  return brokenBy(fields, found);
}

/** The thing description a record belongs to (through its reference field), as the transaction has it. */
const tdOf = async (tx: InTransaction, kind: KindDefinition, id: unknown) =>
  (await tx.find(kind, id))?.data.hasWoTThingDescription;

/** The controls of an operation whose WoT property is not of this thing description. */
async function controlsOutside(tx: InTransaction, operationId: string, td: unknown) {
  const outside: Row[] = [];
  for (const control of await tx.referring(routingOperationControls, "hasRoutingOperation", operationId))
    if ((await tdOf(tx, woTProperties, control.data.hasWoTProperty)) !== td) outside.push(control);
  return outside;
}

/**
 * The inputs of a thing description's actions that no value can satisfy together with the
 * capacity of the WoT property they write (spec section 9: an invocation checks both), among those
 * that write the given WoT property.
 */
async function unmetInputs(
  tx: InTransaction,
  td: unknown,
  wotProperties: Array<Data & { id: string }>,
  id: string,
) {
  const inputs = await tx.referring(woTActionInputProperties, "hasWoTThingDescription", td);
  const names = new Map<unknown, unknown>();
  for (const w of wotProperties)
    if (!names.has(w.hasProperty))
      names.set(w.hasProperty, (await tx.find(properties, w.hasProperty))?.data.name);
  return inputs.filter((input) => {
    const written = writtenBy(input.data.name, td, wotProperties, (p) => names.get(p));
    const capacity = written?.id === id && capacityOf(written.capacityType, written.capacityValue);
    return !!capacity && !("refused" in capacity) && !canMeet(input.data, capacity);
  });
}

/** A WoT property as its thing description's records see it: its data and the JSON type of its attribute. */
interface Exposed {
  id: string;
  data: Data;
  type: string | undefined;
}

/** The JSON type of the attribute a WoT property reads, as the transaction has its property. */
const typeOf = async (tx: InTransaction, wotProperty: Data) =>
  valueTypeOf((await tx.find(properties, wotProperty.hasProperty))?.data);

/**
 * The inputs of a thing description's actions that write the WoT property `id` (by its property's
 * name, else its own), with the thing description's WoT properties as given.
 */
async function writersOf(
  tx: InTransaction,
  td: unknown,
  wotProperties: Array<Data & { id: string }>,
  id: string,
) {
  const names = new Map<unknown, unknown>();
  for (const w of wotProperties)
    if (!names.has(w.hasProperty))
      names.set(w.hasProperty, (await tx.find(properties, w.hasProperty))?.data.name);
  const inputs = await tx.referring(woTActionInputProperties, "hasWoTThingDescription", td);
  return inputs.filter(
    (input) => writtenBy(input.data.name, td, wotProperties, (p) => names.get(p))?.id === id,
  );
}

/** The thing description's WoT properties, this one as given. */
async function siblingsWith(tx: InTransaction, id: string, data: Data) {
  const own = await tx.referring(woTProperties, "hasWoTThingDescription", data.hasWoTThingDescription);
  return [...own.filter((w) => w.id !== id).map((w) => ({ id: w.id, ...w.data })), { id, ...data }];
}

/**
 * The records built on a WoT property that its attribute's type and its capacity do not carry (the
 * TD's schema would disagree with what they read or write): events whose capacity the type cannot
 * describe, routing controls whose value the attribute does not take within the capacity, and
 * inputs that write it with values of another type.
 */
async function unfitUnder(tx: InTransaction, w: Exposed, writers: Row[]): Promise<Row[]> {
  const capacity = capacityOf(w.data.capacityType, w.data.capacityValue);
  const events = (await tx.referring(woTEvents, "hasWoTProperty", w.id)).filter((e) => {
    const own = capacityOf(e.data.capacityType, e.data.capacityValue);
    return !("refused" in own) && !capacityFits(own, w.type);
  });
  const controls = (await tx.referring(routingOperationControls, "hasWoTProperty", w.id)).filter(
    (c) => !controlFits(c.data.woTPropertyValue, w.type, capacity),
  );
  const inputs = writers.filter((i) => w.type !== undefined && i.data.propertyType !== w.type);
  return [...events, ...controls, ...inputs];
}

/** Rows of `after` not in `before`. */
const added = (before: Row[], after: Row[]) => {
  const known = new Set(before.map((r) => r.id));
  return after.filter((r) => !known.has(r.id));
};

/**
 * What the WoT records rely on in the records they refer to, checked when those change (spec
 * sections 5 and 9): a thing description's WoT properties are properties of its type; the inputs
 * of an action and the operations of a routing stay in the thing description of their action and
 * routing, as do an operation's controls; an input can meet the capacity of the WoT property it
 * writes; an event's data service notifies and exposes its WoT property's property, and the event
 * copies that WoT property's capacity type (carried along when its capacity value fits the new one).
 */
export const wotDependents: Record<string, DependentsCheck> = {
  "wot-thing-descriptions": async (change, tx) => {
    const fields = changes(change, "hasType");
    if (!fields.length) return [];
    const own = await tx.referring(woTProperties, "hasWoTThingDescription", change.id);
    return brokenAmong(
      fields,
      own,
      async (w) => (await tx.find(properties, w.data.hasProperty))?.data.hasType !== change.after.hasType,
    );
  },

  "wot-actions": async (change, tx) => {
    const fields = changes(change, "hasWoTThingDescription");
    if (!fields.length) return [];
    const td = change.after.hasWoTThingDescription;
    return [
      ...(await brokenAmong(
        fields,
        await tx.referring(woTActionInputProperties, "hasWoTAction", change.id),
        (input) => input.data.hasWoTThingDescription !== td,
      )),
      ...(await brokenAmong(
        fields,
        await tx.referring(routingOperations, "hasWoTAction", change.id),
        async (operation) => (await tdOf(tx, routings, operation.data.hasRouting)) !== td,
      )),
    ];
  },

  routings: async (change, tx) => {
    const fields = changes(change, "hasWoTThingDescription");
    if (!fields.length) return [];
    const td = change.after.hasWoTThingDescription;
    const operations = await tx.referring(routingOperations, "hasRouting", change.id);
    const broken = await brokenAmong(
      fields,
      operations,
      async (operation) => (await tdOf(tx, woTActions, operation.data.hasWoTAction)) !== td,
    );
    for (const operation of operations)
      broken.push(...brokenBy(fields, await controlsOutside(tx, operation.id, td)));
    return broken;
  },

  "routing-operations": async (change, tx) => {
    const fields = changes(change, "hasRouting");
    if (!fields.length) return [];
    const td = await tdOf(tx, routings, change.after.hasRouting);
    return brokenBy(fields, await controlsOutside(tx, change.id, td));
  },

  "wot-properties": async (change, tx) => {
    const { id, before, after } = change;
    const broken: Broken[] = [];
    const events = await tx.referring(woTEvents, "hasWoTProperty", id);
    const moved = changes(change, "hasWoTThingDescription");
    if (moved.length) {
      const td = after.hasWoTThingDescription;
      broken.push(...(await brokenAmong(moved, events, (e) => e.data.hasWoTThingDescription !== td)));
      for (const control of await tx.referring(routingOperationControls, "hasWoTProperty", id)) {
        const operation = await tx.find(routingOperations, control.data.hasRoutingOperation);
        if ((await tdOf(tx, routings, operation?.data.hasRouting)) !== td)
          broken.push(...brokenBy(moved, [control]));
      }
    }
    const exposed = changes(change, "hasProperty");
    if (exposed.length)
      broken.push(
        ...(await brokenAmong(exposed, events, async (e) => {
          const service = await tx.find(dataServices, e.data.hasDataService);
          return !((service?.data.hasProperties as unknown[] | undefined) ?? []).includes(after.hasProperty);
        })),
      );
    const retyped = changes(change, "capacityType");
    if (retyped.length) {
      const unfit = events.filter((e) => "refused" in capacityOf(after.capacityType, e.data.capacityValue));
      broken.push(...brokenBy(retyped, unfit));
      for (const e of events)
        if (!unfit.includes(e)) await tx.carry(woTEvents, e.id, { capacityType: after.capacityType });
    }
    // What the TD promises of the attribute: its type and capacity, and the inputs that write it.
    const promised = changes(change, "name", "hasProperty", "capacityType", "capacityValue");
    if (promised.length) {
      const writersBefore = await writersOf(
        tx,
        before.hasWoTThingDescription,
        await siblingsWith(tx, id, before),
        id,
      );
      const writersAfter = await writersOf(
        tx,
        after.hasWoTThingDescription,
        await siblingsWith(tx, id, after),
        id,
      );
      // An input that wrote this WoT property would write another attribute, unchecked by its capacity.
      if (before.hasWoTThingDescription === after.hasWoTThingDescription)
        broken.push(
          ...brokenBy(
            promised,
            writersBefore.filter((i) => !writersAfter.some((a) => a.id === i.id)),
          ),
        );
      const unfitBefore = await unfitUnder(
        tx,
        { id, data: before, type: await typeOf(tx, before) },
        writersBefore,
      );
      const unfitAfter = await unfitUnder(
        tx,
        { id, data: after, type: await typeOf(tx, after) },
        writersAfter,
      );
      broken.push(...brokenBy(promised, added(unfitBefore, unfitAfter)));
    }
    const capacity = changes(
      change,
      "name",
      "hasProperty",
      "capacityType",
      "capacityValue",
      "hasWoTThingDescription",
    );
    if (capacity.length) {
      for (const td of new Set([before.hasWoTThingDescription, after.hasWoTThingDescription])) {
        const siblings = (await tx.referring(woTProperties, "hasWoTThingDescription", td))
          .filter((w) => w.id !== id)
          .map((w) => ({ id: w.id, ...w.data }));
        const unmetBefore = new Set(
          (await unmetInputs(tx, td, [...siblings, { id, ...before }], id)).map((i) => i.id),
        );
        const unmet = await unmetInputs(tx, td, [...siblings, { id, ...after }], id);
        broken.push(
          ...brokenBy(
            capacity,
            unmet.filter((i) => !unmetBefore.has(i.id)),
          ),
        );
      }
    }
    return broken;
  },

  "data-services": async (change, tx) => {
    const events = await tx.referring(woTEvents, "hasDataService", change.id);
    if (!events.length) return [];
    const broken: Broken[] = [];
    const actions = changes(change, "hasDataActions");
    if (actions.length) {
      let notifies = false;
      for (const a of (change.after.hasDataActions as unknown[] | undefined) ?? [])
        notifies ||= String((await tx.find(dataActions, a))?.data.name ?? "").includes(NOTIFICATION);
      if (!notifies) broken.push(...brokenBy(actions, events));
    }
    const exposed = changes(change, "hasProperties");
    if (exposed.length) {
      const offered = (change.after.hasProperties as unknown[] | undefined) ?? [];
      broken.push(
        ...(await brokenAmong(
          exposed,
          events,
          async (e) =>
            !offered.includes((await tx.find(woTProperties, e.data.hasWoTProperty))?.data.hasProperty),
        )),
      );
    }
    return broken;
  },
};

/**
 * A property of the data model must stay a top-level property of the type of the WoT properties'
 * thing descriptions, keep its name (the attribute they read, that the entities carry) and values
 * their capacities, controls, events and inputs can still describe (a Range on a text: refused).
 */
export const propertyDependents: DependentsCheck = async (change, tx) => {
  const { before, after } = change;
  const wotProperties = await tx.referring(woTProperties, "hasProperty", change.id);
  if (!wotProperties.length) return [];
  const broken: Broken[] = [];
  const moved = changes(change, "hasType", "hasProperty");
  if (moved.length)
    broken.push(
      ...(await brokenAmong(
        moved,
        wotProperties,
        async (w) =>
          !!after.hasProperty ||
          (await tx.find(woTThingDescriptions, w.data.hasWoTThingDescription))?.data.hasType !==
            after.hasType,
      )),
    );
  broken.push(...brokenBy(changes(change, "name"), wotProperties));
  const retyped = changes(change, "ngsiLdType", "propertyNgsiLdValueType");
  if (retyped.length) {
    const [typeBefore, typeAfter] = [valueTypeOf(before), valueTypeOf(after)];
    for (const w of wotProperties) {
      const capacity = capacityOf(w.data.capacityType, w.data.capacityValue);
      if (
        !("refused" in capacity) &&
        capacityFits(capacity, typeBefore) &&
        !capacityFits(capacity, typeAfter)
      )
        broken.push(...brokenBy(retyped, [w]));
      const writers = await writersOf(
        tx,
        w.data.hasWoTThingDescription,
        await siblingsWith(tx, w.id, w.data),
        w.id,
      );
      const unfitBefore = await unfitUnder(tx, { id: w.id, data: w.data, type: typeBefore }, writers);
      const unfitAfter = await unfitUnder(tx, { id: w.id, data: w.data, type: typeAfter }, writers);
      broken.push(...brokenBy(retyped, added(unfitBefore, unfitAfter)));
    }
  }
  return broken;
};
