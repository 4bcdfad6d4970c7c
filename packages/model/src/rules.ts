import { whenHolds, type Field, type KindDefinition } from "./kind.ts";

export type Record_ = Record<string, unknown>;

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value as object).length === 0;
}

/** A secret as it is read (`{ "set": true }`): sent back unchanged, it means "keep the stored one". */
const isSecretAsRead = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as { set?: unknown }).set === "boolean";

/**
 * Applies the spec's clearing rules (section 4) as the definition states them: a field whose `when`
 * no longer holds is removed, an applicable field that is absent takes its default, and empty values
 * (description, path, an emptied header map) are dropped. A secret sent back as it was read, or as
 * null, is dropped too, so that an update keeps the stored one. The form and the API both call this.
 */
export function normalize(kind: KindDefinition, input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const out: Record_ = { ...(input as Record_) };
  delete out.id;
  // A record's name is its title, compared without case and surrounding spaces where it must be
  // unique (apps/api/src/storage/migrations.ts, 0025): kept without those spaces.
  if (typeof out.name === "string" && kind.fields.some((f) => f.name === "name" && f.input === "text"))
    out.name = out.name.trim();
  for (const field of kind.fields) {
    if (field.readOnly || isEmpty(out[field.name]) || (field.secret && isSecretAsRead(out[field.name])))
      delete out[field.name];
    if (!whenHolds(field.when, out)) delete out[field.name];
    else if (out[field.name] === undefined && field.default !== undefined) out[field.name] = field.default;
  }
  return out;
}

export type Mode = "create" | "update";

/** The fields that apply to this payload and are required but missing (`linked` ones in the console's form). */
export function missingRequired(
  kind: KindDefinition,
  data: Record_,
  mode: Mode,
  audience: "api" | "form" = "api",
): Field[] {
  return kind.fields.filter(
    (f) =>
      (f.required || (f.linked && audience === "form")) &&
      whenHolds(f.when, data) &&
      data[f.name] === undefined &&
      !(f.secret && mode === "update"), // an update that omits a secret keeps the stored one
  );
}

export function secretFields(kind: KindDefinition): Field[] {
  return kind.fields.filter((f) => f.secret);
}

export function referenceFields(kind: KindDefinition): Array<Field & { input: "reference" | "references" }> {
  return kind.fields.filter(
    (f): f is Field & { input: "reference" | "references" } =>
      f.input === "reference" || f.input === "references",
  );
}
