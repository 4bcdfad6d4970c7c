import type { MessageCode } from "../messages/say.ts";

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
