import type { MessageCode } from "../messages/say.ts";
import { fieldError, type FieldError } from "../problems.ts";

/** A WoT property's capacity, read from its type and text (spec section 9). */
export type Capacity =
  | { type: "FixedValue"; value: string }
  | { type: "ListOfValues"; values: Array<string | number | boolean> }
  | { type: "Range"; minimum: number; maximum: number }
  | { type: "FreeText" };

const scalar = (v: unknown): v is string | number | boolean =>
  typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean";

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The capacity a capacity type and value make, or the message saying why the value does not fit
 * the type: a list is a JSON array of values, a range a JSON [minimum, maximum] with minimum <= maximum.
 */
export function capacityOf(type: unknown, value: unknown): Capacity | { refused: MessageCode } {
  const text = String(value ?? "");
  switch (type) {
    case "FixedValue":
      return { type, value: text };
    case "ListOfValues": {
      const values = json(text);
      return Array.isArray(values) && values.length > 0 && values.every(scalar)
        ? { type, values }
        : { refused: "wot.capacity.list" };
    }
    case "Range": {
      const range = json(text);
      return Array.isArray(range) &&
        range.length === 2 &&
        range.every((n) => typeof n === "number" && Number.isFinite(n)) &&
        range[0] <= range[1]
        ? { type, minimum: range[0], maximum: range[1] }
        : { refused: "wot.capacity.range" };
    }
    default:
      return { type: "FreeText" };
  }
}

/** Whether a value is within a capacity (a fixed value compares as text, as the original did). */
export function withinCapacity(capacity: Capacity, value: unknown): boolean {
  switch (capacity.type) {
    case "FixedValue":
      return scalar(value) && String(value) === capacity.value;
    case "ListOfValues":
      return capacity.values.some((v) => v === value);
    case "Range":
      return typeof value === "number" && value >= capacity.minimum && value <= capacity.maximum;
    case "FreeText":
      return true;
  }
}

/** A capacity as the refusal of a value names it: the fixed value, the list, or [minimum, maximum]. */
export const capacityText = (capacity: Capacity) =>
  capacity.type === "FixedValue"
    ? JSON.stringify(capacity.value)
    : capacity.type === "ListOfValues"
      ? JSON.stringify(capacity.values)
      : capacity.type === "Range"
        ? `[${capacity.minimum}, ${capacity.maximum}]`
        : "";

type Data = Record<string, unknown>;

/** Why a value does not fit an input property (type, bounds, enum), or nothing. */
export function inputError(input: Data, value: unknown): FieldError | undefined {
  const name = String(input.name);
  const type = String(input.propertyType);
  if (typeof value !== type || (type === "number" && !Number.isFinite(value)))
    return fieldError(name, `field.type.${type as "number" | "string" | "boolean"}`);
  if (typeof input.minimum === "number" && (value as number) < input.minimum)
    return fieldError(name, "field.min", { minimum: input.minimum });
  if (typeof input.maximum === "number" && (value as number) > input.maximum)
    return fieldError(name, "field.max", { maximum: input.maximum });
  if (Array.isArray(input.enum) && !input.enum.includes(value))
    return fieldError(name, "field.oneOf", { values: input.enum.map((v) => JSON.stringify(v)).join(", ") });
  return undefined;
}

/**
 * The WoT property of a thing description that an action's input writes: the one whose property
 * has the input's name, else the one of the input's name.
 */
export function writtenBy<W extends Data & { id: string }>(
  inputName: unknown,
  td: unknown,
  wotProperties: readonly W[],
  propertyName: (propertyId: unknown) => unknown,
): W | undefined {
  const own = wotProperties.filter((w) => w.hasWoTThingDescription === td);
  return own.find((w) => propertyName(w.hasProperty) === inputName) ?? own.find((w) => w.name === inputName);
}

/**
 * Whether some value fits both an input property and the capacity of the WoT property it writes:
 * when none does (a string input for a Range), every invocation of the action fails.
 */
export function canMeet(input: Data, capacity: Capacity): boolean {
  const lowest = typeof input.minimum === "number" ? input.minimum : undefined;
  const candidates: unknown[] = Array.isArray(input.enum)
    ? input.enum
    : capacity.type === "ListOfValues"
      ? capacity.values
      : capacity.type === "FixedValue"
        ? [capacity.value, Number(capacity.value), capacity.value === "true"]
        : capacity.type === "Range"
          ? [Math.max(capacity.minimum, lowest ?? capacity.minimum)]
          : [lowest ?? (typeof input.maximum === "number" ? input.maximum : 0), "", true];
  return candidates.some((v) => !inputError(input, v) && withinCapacity(capacity, v));
}

/** The JSON type a consumer reads of an attribute of the data model (a relationship's object is an IRI). */
export function valueTypeOf(property: Data | undefined): string | undefined {
  if (!property) return undefined;
  if (property.ngsiLdType === "Relationship") return "string";
  if (property.ngsiLdType === "GeoProperty") return "object";
  const types: Record<string, string> = {
    String: "string",
    Number: "number",
    Boolean: "boolean",
    Object: "object",
    Array: "array",
  };
  return types[String(property.propertyNgsiLdValueType)];
}

/**
 * Whether a capacity can describe values of an attribute of this JSON type (the TD's schema puts
 * them together): a range needs numbers, a list values of the type, a fixed value one the type can
 * read; free text fits everything.
 */
export function capacityFits(capacity: Capacity, type: string | undefined): boolean {
  switch (capacity.type) {
    case "FreeText":
      return true;
    case "Range":
      return type === "number";
    case "ListOfValues":
      return capacity.values.every((v) => typeof v === type);
    case "FixedValue":
      return controlValue(capacity.value, type) !== undefined;
  }
}

/** A value written as text (a routing control's, a fixed value) as the attribute of this type holds it, if it can. */
export function controlValue(text: unknown, type: string | undefined): unknown {
  const raw = String(text ?? "");
  if (type === "string") return raw;
  if (type === "number") {
    const n = raw.trim() === "" ? NaN : Number(raw);
    return Number.isFinite(n) ? n : undefined;
  }
  if (type === "boolean") return raw === "true" ? true : raw === "false" ? false : undefined;
  if (type === "object" || type === "array") {
    const value = json(raw);
    const isArray = Array.isArray(value);
    return value !== null && typeof value === "object" && isArray === (type === "array") ? value : undefined;
  }
  return undefined;
}

/** Whether a control's value (text) is one the WoT property's attribute takes, within its capacity. */
export function controlFits(
  text: unknown,
  type: string | undefined,
  capacity: Capacity | { refused: MessageCode },
) {
  const value = controlValue(text, type);
  return value !== undefined && ("refused" in capacity || withinCapacity(capacity, value));
}
