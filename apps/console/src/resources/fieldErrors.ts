import { maxLengthOf, type Field } from "@orrery/model";
import type { TFunction } from "../i18n/index.ts";

/** Translates a validation issue (zod's code, or a server message) into the user's language. */
export function fieldErrorText(
  field: Field,
  error: { type?: string; message?: string } | undefined,
  t: TFunction,
): string | undefined {
  if (!error) return undefined;
  const numeric = field.input === "integer" || field.input === "number";
  // A bounded whole number says its bounds whatever was wrong with it: "a whole number from 0 to 65535".
  if (
    numeric &&
    field.min !== undefined &&
    field.max !== undefined &&
    ["invalid_type", "too_big", "too_small"].includes(error.type ?? "")
  )
    return t("validation.integerBetween", { minimum: field.min, maximum: field.max });
  switch (error.type) {
    case "server":
      return error.message;
    case "custom": {
      if (error.message === "is required") return t("validation.required");
      const reserved = /^"(.+)" is reserved by NGSI-LD/.exec(error.message ?? "")?.[1];
      if (reserved) return t("validation.reserved", { name: reserved });
      return error.message === "is given twice" ? t("validation.givenTwice") : error.message;
    }
    case "invalid_format":
      return "format" in field && field.format ? t(`formats.${field.format}`) : t("validation.invalid");
    case "too_big":
      if (field.input === "lines") return t("validation.count", { count: field.count });
      if (field.input === "strings" && error.message?.includes("items"))
        return t("validation.maxItems", { maximum: field.maxItems ?? 100 });
      return numeric
        ? t("validation.tooBig", { maximum: field.max })
        : t("validation.tooLong", { maximum: maxLengthOf(field) });
    case "too_small":
      if (field.input === "lines") return t("validation.count", { count: field.count });
      return numeric ? t("validation.tooSmall", { minimum: field.min }) : t("validation.required");
    case "invalid_type":
      if (numeric) return error.message?.includes("int") ? t("validation.integer") : t("validation.number");
      return t("validation.required");
    default:
      return t("validation.invalid");
  }
}

/**
 * A field error from the server, in the console's words where its code names records or fields
 * (the server's own sentence uses the API's names); the server's localized sentence otherwise.
 */
export function serverFieldText(
  error: { message: string; code?: string; params?: Record<string, unknown> },
  t: TFunction,
): string {
  const p = error.params ?? {};
  const kind = () => t(`kinds.${String(p.kind)}.one`);
  const field = () => t(`fields.${String(p.field)}`);
  switch (error.code) {
    case "field.afterField":
      return t("validation.afterField", { field: field() });
    case "field.unknownReference":
    case "field.unknownReferenceHere":
      return t("validation.unknownReference", { kind: kind() });
    case "field.notOfWorkspace":
      return t("validation.notOfWorkspace", { kind: t(`kinds.${String(p.kind)}.many`) });
    case "field.outsideOf":
      return t("validation.outsideOf", { kind: kind(), field: field() });
    case "field.ofAnother":
      return t("validation.ofAnother", { name: String(p.name), owner: String(p.owner), field: field() });
    case "field.ofNone":
      return t("validation.ofNone", { name: String(p.name), field: field() });
    default:
      return error.message;
  }
}
