import { formatMessages, type Format } from "@orrery/model";
import type { FieldError } from "../problems.ts";
import { say, type MessageCode, type Params } from "./say.ts";

const typeCodes: Record<string, MessageCode> = {
  string: "field.type.string",
  number: "field.type.number",
  int: "field.type.int",
  boolean: "field.type.boolean",
  array: "field.type.array",
  object: "field.type.object",
};

/** The catalogued message of a zod issue (code and its parameters, as zod reports them). */
function codeOf(
  code: string,
  issue: Record<string, unknown>,
): { code: MessageCode; params?: Params } | undefined {
  const { origin, minimum, maximum, expected, values, keys, format } = issue;
  switch (code) {
    case "invalid_type":
      return typeCodes[String(expected)] ? { code: typeCodes[String(expected)]! } : undefined;
    case "too_small":
      if (origin === "string")
        return Number(minimum) <= 1
          ? { code: "field.notEmpty" }
          : { code: "field.tooShort", params: { minimum: Number(minimum) } };
      if (origin === "array" || origin === "set")
        return { code: "field.minItems", params: { minimum: Number(minimum) } };
      return { code: "field.min", params: { minimum: Number(minimum) } };
    case "too_big":
      if (origin === "string") return { code: "field.tooLong", params: { maximum: Number(maximum) } };
      if (origin === "array" || origin === "set")
        return { code: "field.maxItems", params: { maximum: Number(maximum) } };
      return { code: "field.max", params: { maximum: Number(maximum) } };
    case "invalid_value":
      return Array.isArray(values)
        ? { code: "field.oneOf", params: { values: values.map(String) } }
        : undefined;
    case "unrecognized_keys":
      return Array.isArray(keys)
        ? { code: "field.unknownFields", params: { keys: keys.map(String) } }
        : undefined;
    case "invalid_format":
      return { code: "field.format", params: { format: String(format) } };
    case "custom":
      return reservedName(issue.params) ?? givenTwice(issue.params) ?? yearZero(issue.params);
    default:
      return undefined;
  }
}

/** A name NGSI-LD keeps for itself (the model's custom issue says which and why). */
function reservedName(params: unknown): { code: MessageCode; params: Params } | undefined {
  const { reserved, because } = (params ?? {}) as { reserved?: unknown; because?: unknown };
  if (typeof reserved !== "string" || typeof because !== "string") return undefined;
  return {
    code: "field.reserved",
    params: { value: reserved, because: { code: `reserved.${because}` as MessageCode } },
  };
}

/** An entry of a list given twice (a broker client's tenants). */
function givenTwice(params: unknown): { code: MessageCode; params: Params } | undefined {
  const { twice } = (params ?? {}) as { twice?: unknown };
  return typeof twice === "string" ? { code: "field.givenTwice", params: { value: twice } } : undefined;
}

/**
 * A pattern's failure says what is expected: the field's named format (the model gives its English
 * words as the issue's message), else that the value has not the expected form. Zod's own words
 * name the check ("must be a valid regex"), which tells a user nothing.
 */
function patternOf(message: string | undefined): { code: MessageCode; params?: Params } | undefined {
  const format = (Object.keys(formatMessages) as Format[]).find((name) => formatMessages[name] === message);
  if (format) return { code: `format.${format}` };
  // A route's own words for its pattern ("must be a URI") are kept; zod's default is not.
  return message && !message.startsWith("Invalid") ? undefined : { code: "format.other" };
}

/** A date of year 0000, which the database's calendar lacks (see log-page.ts). */
function yearZero(params: unknown): { code: MessageCode } | undefined {
  return (params as { yearZero?: unknown } | undefined)?.yearZero ? { code: "field.yearZero" } : undefined;
}

/** A field error's message, code and parameters for a zod issue; a custom issue keeps its own words. */
export function fieldMessageOfIssue(
  code: string,
  issue: Record<string, unknown>,
  message: string | undefined,
): Omit<FieldError, "path"> {
  const known =
    code === "custom" && message === "is required"
      ? { code: "field.required" as const }
      : code === "invalid_format" && issue.format === "regex" && issue.pattern !== undefined
        ? patternOf(message)
        : codeOf(code, issue);
  return known
    ? {
        message: say("en", known.code, known.params),
        code: known.code,
        ...(known.params ? { params: known.params } : {}),
      }
    : { message: message ?? say("en", "field.invalid") };
}
