import { defineKind, type Field } from "../kind.ts";
import { description, name, reference } from "../fields.ts";

/**
 * Web of Things (spec sections 2 and 3): a thing description for a type of the workspace, with
 * its properties (each an attribute of the type, within a capacity), actions (whose input
 * properties write those attributes), events (notifications of a data service), and routings of
 * timed operations, each an action with controls on properties.
 */

/** How a WoT property's value is bounded: one value, a list, a [min, max] range, or anything. */
export const capacityTypes = ["FixedValue", "ListOfValues", "Range", "FreeText"] as const;

const capacityValue: Field = {
  name: "capacityValue",
  input: "text",
  required: true,
  maxLength: 2_000,
  pattern: /^[^\r\n]*$/,
  format: "singleLine",
};
const ofThingDescription = reference("hasWoTThingDescription", "wot-thing-descriptions", { required: true });
const whole = (fieldName: string): Field => ({ name: fieldName, input: "integer", required: true, min: 0 });

export const woTThingDescriptions = defineKind({
  kind: "wot-thing-descriptions",
  urnType: "WoTThingDescription",
  routeName: "woTThingDescriptions",
  scope: "workspace",
  listedWhole: true,
  columns: ["hasType"],
  fields: [
    name,
    description,
    reference("hasType", "types", { required: true }),
    // A spec field (a list, empty) that the original console sends back: accepted and dropped, as a type's.
    { name: "positionInChart", input: "point", readOnly: true },
  ],
});

export const woTProperties = defineKind({
  kind: "wot-properties",
  urnType: "WoTProperty",
  routeName: "woTProperties",
  scope: "workspace",
  listedWhole: true,
  columns: ["hasProperty", "capacityType", "capacityValue"],
  fields: [
    name,
    description,
    reference("hasProperty", "properties", { required: true, label: "linkedProperty" }),
    { name: "capacityType", input: "enum", options: capacityTypes, required: true },
    capacityValue,
    ofThingDescription,
  ],
});

export const woTActions = defineKind({
  kind: "wot-actions",
  urnType: "WoTAction",
  routeName: "woTActions",
  scope: "workspace",
  listedWhole: true,
  columns: ["description"],
  fields: [name, description, ofThingDescription],
});

const numeric = { propertyType: "number" } as const;

export const woTActionInputProperties = defineKind({
  kind: "wot-action-input-properties",
  urnType: "WoTActionInputProperty",
  routeName: "woTActionInputProperties",
  scope: "workspace",
  listedWhole: true,
  columns: ["propertyType", "required"],
  fields: [
    name,
    description,
    { name: "propertyType", input: "enum", options: ["number", "string", "boolean"], required: true },
    { name: "minimum", input: "number", when: numeric },
    { name: "maximum", input: "number", when: numeric },
    { name: "enum", input: "json", when: { propertyType: ["number", "string"] } },
    { name: "required", input: "boolean", default: false },
    reference("hasWoTAction", "wot-actions", { required: true }),
    ofThingDescription,
  ],
});

export const woTEvents = defineKind({
  kind: "wot-events",
  urnType: "WoTEvent",
  routeName: "woTEvents",
  scope: "workspace",
  listedWhole: true,
  columns: ["hasDataService", "capacityValue"],
  fields: [
    name,
    description,
    reference("hasDataService", "data-services", { required: true }),
    reference("hasWoTProperty", "wot-properties", { required: true }),
    // Copied from the WoT property by the server.
    { name: "capacityType", input: "enum", options: capacityTypes, readOnly: true },
    capacityValue,
    ofThingDescription,
  ],
});

export const routings = defineKind({
  kind: "routings",
  urnType: "Routing",
  routeName: "routings",
  scope: "workspace",
  listedWhole: true,
  columns: ["description"],
  fields: [name, description, ofThingDescription],
});

export const routingOperations = defineKind({
  kind: "routing-operations",
  urnType: "RoutingOperation",
  routeName: "routingOperations",
  scope: "workspace",
  listedWhole: true,
  titledBy: ["{sequenceNumber}. {hasWoTAction}"],
  orderedBy: "sequenceNumber",
  columns: ["sequenceNumber", "hasWoTAction", "timerBefore", "timerAfter"],
  fields: [
    whole("sequenceNumber"),
    whole("timerBefore"),
    whole("timerAfter"),
    reference("hasWoTAction", "wot-actions", { required: true }),
    reference("hasRouting", "routings", { required: true }),
  ],
});

export const routingOperationControls = defineKind({
  kind: "routing-operation-controls",
  urnType: "RoutingOperationControl",
  routeName: "routingOperationControls",
  scope: "workspace",
  listedWhole: true,
  titledBy: ["{hasWoTProperty} = {woTPropertyValue}"],
  columns: ["id", "hasWoTProperty", "woTPropertyValue"],
  fields: [
    reference("hasWoTProperty", "wot-properties", { required: true }),
    { ...capacityValue, name: "woTPropertyValue" },
    reference("hasRoutingOperation", "routing-operations", { required: true }),
  ],
});
