import {
  dataActions,
  dataServices,
  properties,
  routingOperations,
  routings,
  woTActions,
  woTProperties,
  woTThingDescriptions,
  type KindDefinition,
} from "@orrery/model";
import { fieldError, invalid, type FieldError } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Records } from "../resources/records.ts";
import {
  canMeet,
  capacityFits,
  capacityOf,
  capacityText,
  controlValue,
  valueTypeOf,
  withinCapacity,
  writtenBy,
} from "./capacity.ts";
import { wotDependents } from "./dependents.ts";

type Data = Record<string, unknown>;

/** The data action that makes a data service a notifier (spec section 9). */
export const NOTIFICATION = ":Notification";

/**
 * The rules of the Web of Things records (spec section 5), enforced here as the forms do: a WoT
 * property's property is one of the thing description's type and its capacity value fits its type;
 * an event's data service notifies and exposes the event's WoT property, whose capacity type it
 * copies; input properties have bounds and an enum of their type; an operation's action and a
 * control's WoT property belong to the routing's thing description. Within a thing description,
 * properties, actions, events and routings have names of their own (they key its affordances), as
 * do the inputs of an action: the database holds them unique (migration 0012), and a clash is a 409
 * that names it, also between simultaneous creations.
 */
export function wotHooks(records: Records): Record<string, KindHooks> {
  const refuse = (errors: Array<FieldError | undefined>) => {
    const found = errors.filter((e): e is FieldError => !!e);
    if (found.length) throw invalid(found);
  };
  const find = (kind: KindDefinition, id: unknown, workspaceId?: string) =>
    typeof id === "string" ? records.find(kind, id, workspaceId) : Promise.resolve(undefined);

  /** The capacity value fits the capacity type. */
  const capacityError = (field: string, type: unknown, value: unknown) => {
    const capacity = capacityOf(type, value);
    return "refused" in capacity ? fieldError(field, capacity.refused) : undefined;
  };

  /** A record's thing description must be the given one. */
  const sameThing = (field: string, kind: string, record: { data: Data } | undefined, td: unknown) =>
    record && td !== undefined && record.data.hasWoTThingDescription !== td
      ? fieldError(field, "field.outsideOf", { kind, field: "hasWoTThingDescription" })
      : undefined;

  /**
   * An input must let some value meet the capacity of the WoT property it writes (a string input
   * for a Range would fail every invocation): refused on the type, else on the enum or bounds.
   */
  async function capacityRefusal(input: Data, workspaceId: string) {
    const [wotProps, props] = await Promise.all([
      records.list(woTProperties, workspaceId),
      records.list(properties, workspaceId),
    ]);
    const nameOf = (id: unknown) => props.find((p) => p.id === id)?.name;
    const written = writtenBy(input.name, input.hasWoTThingDescription, wotProps, nameOf);
    if (!written) return undefined;
    // The input writes the attribute of its WoT property: a value of the attribute's type.
    const attribute = props.find((p) => p.id === written.hasProperty);
    const valueType = valueTypeOf(attribute);
    const wrongType =
      valueType && input.propertyType !== valueType
        ? fieldError("propertyType", "wot.inputOfType", { valueType, attribute: String(attribute!.name) })
        : undefined;
    const capacity = capacityOf(written.capacityType, written.capacityValue);
    if ("refused" in capacity || canMeet(input, capacity)) return wrongType;
    const typeAlone = canMeet({ name: input.name, propertyType: input.propertyType }, capacity);
    const field = !typeAlone ? "propertyType" : Array.isArray(input.enum) ? "enum" : "minimum";
    return fieldError(field, "wot.inputOutsideCapacity", {
      name: String(written.name),
      capacity: capacityText(capacity),
      type: capacity.type,
    });
  }

  const hooks: Record<string, KindHooks> = {
    "wot-properties": {
      async prepare(input, { workspaceId }) {
        const td = await find(woTThingDescriptions, input.hasWoTThingDescription, workspaceId);
        const property = await find(properties, input.hasProperty, workspaceId);
        refuse([
          td && property && (property.data.hasType !== td.data.hasType || property.data.hasProperty)
            ? fieldError("hasProperty", "wot.propertyOfType")
            : undefined,
          capacityError("capacityValue", input.capacityType, input.capacityValue),
        ]);
        // The TD describes the attribute's values with the capacity: a range needs numbers.
        const capacity = capacityOf(input.capacityType, input.capacityValue);
        const valueType = valueTypeOf(property?.data);
        if (property && !("refused" in capacity) && !capacityFits(capacity, valueType))
          refuse([
            fieldError("hasProperty", "wot.capacityOfProperty", {
              capacity: capacityText(capacity),
              type: capacity.type,
              name: String(property.data.name),
              valueType: valueType ?? String(property.data.ngsiLdType),
            }),
          ]);
        return input;
      },
    },
    "wot-action-input-properties": {
      async prepare(input, { workspaceId }) {
        const action = await find(woTActions, input.hasWoTAction, workspaceId);
        const numeric = input.propertyType === "number";
        const { minimum, maximum } = input as { minimum?: number; maximum?: number };
        const list = input.enum;
        const type = numeric ? "number" : "string";
        const enumError =
          list === undefined || list === null
            ? undefined
            : !Array.isArray(list) || !list.length || list.some((v) => typeof v !== type)
              ? fieldError("enum", numeric ? "wot.enumNumbers" : "wot.enumStrings")
              : numeric && list.some((v) => (minimum ?? -Infinity) > v || (maximum ?? Infinity) < v)
                ? fieldError("enum", "wot.enumOutside")
                : undefined;
        if (list === null) delete input.enum;
        refuse([
          sameThing("hasWoTAction", "wot-actions", action, input.hasWoTThingDescription),
          minimum !== undefined && maximum !== undefined && minimum > maximum
            ? fieldError("maximum", "field.min", { minimum })
            : undefined,
          enumError,
        ]);
        refuse([await capacityRefusal(input, workspaceId!)]);
        return input;
      },
    },
    "wot-events": {
      async prepare(input, { workspaceId }) {
        const service = await find(dataServices, input.hasDataService, workspaceId);
        const wotProperty = await find(woTProperties, input.hasWoTProperty, workspaceId);
        const actions = await records.list(dataActions);
        const notifies = ((service?.data.hasDataActions as string[] | undefined) ?? []).some((a) =>
          String(actions.find((d) => d.id === a)?.name ?? "").includes(NOTIFICATION),
        );
        const exposed = ((service?.data.hasProperties as string[] | undefined) ?? []).includes(
          String(wotProperty?.data.hasProperty),
        );
        if (wotProperty) input.capacityType = wotProperty.data.capacityType;
        refuse([
          service && !notifies ? fieldError("hasDataService", "wot.notNotifying") : undefined,
          sameThing("hasWoTProperty", "wot-properties", wotProperty, input.hasWoTThingDescription) ??
            (service && wotProperty && !exposed
              ? fieldError("hasWoTProperty", "wot.notInService")
              : undefined),
          wotProperty ? capacityError("capacityValue", input.capacityType, input.capacityValue) : undefined,
        ]);
        return input;
      },
    },
    "routing-operations": {
      async prepare(input, { workspaceId }) {
        const routing = await find(routings, input.hasRouting, workspaceId);
        const action = await find(woTActions, input.hasWoTAction, workspaceId);
        refuse([sameThing("hasWoTAction", "wot-actions", action, routing?.data.hasWoTThingDescription)]);
        return input;
      },
    },
    "routing-operation-controls": {
      async prepare(input, { workspaceId }) {
        const operation = await find(routingOperations, input.hasRoutingOperation, workspaceId);
        const routing = await find(routings, operation?.data.hasRouting, workspaceId);
        const wotProperty = await find(woTProperties, input.hasWoTProperty, workspaceId);
        refuse([
          sameThing("hasWoTProperty", "wot-properties", wotProperty, routing?.data.hasWoTThingDescription),
        ]);
        // The value a control sets is one the WoT property's attribute takes, within its capacity.
        if (wotProperty) {
          const property = await find(properties, wotProperty.data.hasProperty, workspaceId);
          const valueType = valueTypeOf(property?.data);
          const value = controlValue(input.woTPropertyValue, valueType);
          const capacity = capacityOf(wotProperty.data.capacityType, wotProperty.data.capacityValue);
          const name = String(wotProperty.data.name);
          refuse([
            !valueType
              ? undefined
              : value === undefined
                ? fieldError("woTPropertyValue", "wot.controlType", { valueType, name })
                : !("refused" in capacity) && !withinCapacity(capacity, value)
                  ? fieldError("woTPropertyValue", "wot.outsideCapacity", {
                      capacity: capacityText(capacity),
                      type: capacity.type,
                    })
                  : undefined,
          ]);
        }
        return input;
      },
    },
  };
  // What WoT records rely on in the records they refer to, checked when those change.
  for (const [kind, dependents] of Object.entries(wotDependents))
    hooks[kind] = { ...hooks[kind], dependents };
  return hooks;
}
