import { z } from "zod";
import { formatMessages, maxLengthOf, type Field, type KindDefinition } from "./kind.ts";
import { missingRequired, normalize, type Mode } from "./rules.ts";

const urn = z
  .string()
  .regex(/^urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:\S+$/, "must be a URN (urn:ngsi-ld:Type:id)");
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function valueSchema(field: Field): z.ZodType {
  switch (field.input) {
    case "text": {
      let s = z
        .string()
        .min(field.minLength ?? 1)
        .max(maxLengthOf(field)!);
      if (field.pattern)
        s = s.regex(field.pattern, field.format ? formatMessages[field.format] : "has an invalid format");
      const reserved = field.reserved;
      if (!reserved) return s;
      return s.superRefine((value, ctx) => {
        if (Object.hasOwn(reserved, value))
          ctx.addIssue({
            code: "custom",
            message: `"${value}" is reserved by NGSI-LD`,
            params: { reserved: value, because: reserved[value] },
          });
      });
    }
    case "textarea":
      return z.string().max(maxLengthOf(field)!);
    case "integer":
      return z
        .number()
        .int()
        .min(field.min ?? Number.MIN_SAFE_INTEGER)
        .max(field.max ?? Number.MAX_SAFE_INTEGER);
    case "number":
      return z
        .number()
        .finite()
        .min(field.min ?? -Number.MAX_VALUE)
        .max(field.max ?? Number.MAX_VALUE);
    case "boolean":
      return z.boolean();
    case "enum":
      return z.enum(field.options as [string, ...string[]]);
    case "reference":
      return urn;
    case "references":
      return z.array(urn).max(1_000);
    case "url":
      return z
        .url({ protocol: /^https?$/, error: "must be an absolute http or https URL" })
        .max(maxLengthOf(field)!);
    case "markup":
      return z.string().max(maxLengthOf(field)!);
    case "point":
      return z.tuple([z.number(), z.number()]);
    case "instant":
      return z.number().int().min(0).max(253_402_300_799); // up to 9999-12-31T23:59:59Z
    case "json":
      return z.unknown();
    case "headers": {
      const value = z
        .string()
        .max(4_000)
        .regex(/^[^\r\n]*$/, "header values are one line");
      return z.record(
        z.string().regex(headerName, "header names are letters, digits and -"),
        // A value as it was read (`{ set: true }`): keep the stored one.
        field.secretValues ? z.union([value, z.object({ set: z.literal(true) }).strict()]) : value,
      );
    }
    case "lines": {
      let line = z.string().min(1);
      if (field.pattern)
        line = line.regex(
          field.pattern,
          field.format ? formatMessages[field.format] : "has an invalid format",
        );
      return z.array(line).length(field.count);
    }
    case "strings": {
      // With `blank`, the empty string is a value of its own (the default tenant); others match the pattern.
      const blank = field.blank !== undefined;
      let item = z
        .string()
        .min(blank ? 0 : 1)
        .max(maxLengthOf(field)!);
      if (field.pattern)
        item = item.regex(
          blank ? new RegExp(`^$|(?:${field.pattern.source})`, field.pattern.flags) : field.pattern,
          field.format ? formatMessages[field.format] : "has an invalid format",
        );
      return z
        .array(item)
        .max(field.maxItems ?? 100)
        .superRefine((list, ctx) => {
          list.forEach((value, i) => {
            if (list.indexOf(value) !== i)
              ctx.addIssue({
                code: "custom",
                path: [i],
                message: "is given twice",
                params: { twice: value },
              });
          });
        });
    }
  }
}

/**
 * Write shape of a kind: what POST and PUT accept, after normalisation. The console's form (`form`)
 * also requires the `linked` fields, which the API lets older clients write through their own routes.
 */
export function writeSchema(kind: KindDefinition, mode: Mode, audience: "api" | "form" = "api") {
  const shape: Record<string, z.ZodType> = {};
  for (const field of kind.fields) if (!field.readOnly) shape[field.name] = valueSchema(field).optional();
  // The workspace a record belongs to is its path's; a client may send it back as it read it.
  if (kind.scope === "workspace") shape.hasWorkspace = urn.optional();
  const object = z.strictObject(shape).superRefine((data, ctx) => {
    for (const field of missingRequired(kind, data, mode, audience)) {
      ctx.addIssue({ code: "custom", path: [field.name], message: "is required" });
    }
  });
  return z.preprocess((input) => normalize(kind, input), object);
}

/** Read shape: the stored item with its id, and `{ set }` in place of each secret. */
export function readSchema(kind: KindDefinition) {
  const shape: Record<string, z.ZodType> = { id: z.string() };
  for (const field of kind.fields) {
    shape[field.name] = (
      field.secret
        ? z.object({ set: z.boolean() })
        : field.secretValues
          ? z.record(z.string(), z.object({ set: z.boolean() }))
          : valueSchema(field)
    ).optional();
  }
  if (kind.scope === "workspace") shape.hasWorkspace = z.string().optional();
  return z.object(shape);
}
