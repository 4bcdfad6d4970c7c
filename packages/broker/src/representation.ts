import type { CompiledContext } from "./contexts.ts";
import { instanceMembers, valueMemberOf, type Instance, type StoredEntity } from "./model.ts";
import { badRequest } from "./problems.ts";

/**
 * Rendering stored entities in the representations of ETSI GS CIM 009 v1.8 (4.5): normalized,
 * concise and simplified (keyValues), with or without system attributes, names compacted with
 * the request's @context.
 */
export type Format = "normalized" | "concise" | "simplified";

export interface RenderOptions {
  format: Format;
  sysAttrs: boolean;
  /** Expanded names of the attributes to show; undefined shows all. */
  attrs?: Set<string>;
}

/** Reads `options` (keyValues, concise, sysAttrs, normalized) and `format` query parameters. */
export function renderOptions(options: unknown, format: unknown, attrs?: Set<string>): RenderOptions {
  const list = typeof options === "string" && options !== "" ? options.split(",") : [];
  let chosen: Format = "normalized";
  let sysAttrs = false;
  for (const o of list) {
    if (o === "keyValues" || o === "simplified") chosen = "simplified";
    else if (o === "concise") chosen = "concise";
    else if (o === "normalized") chosen = "normalized";
    else if (o === "sysAttrs") sysAttrs = true;
    else if (o === "noOverwrite" || o === "replace" || o === "update")
      continue; // belong to other operations
    else throw badRequest(`unknown option ${o}`);
  }
  if (list.includes("keyValues") && list.includes("concise"))
    throw badRequest("options keyValues and concise exclude each other");
  if (format !== undefined) {
    if (format === "keyValues" || format === "simplified") chosen = "simplified";
    else if (format === "concise" || format === "normalized") chosen = format;
    else throw badRequest(`unknown format ${String(format)}`);
  }
  return { format: chosen, sysAttrs, attrs };
}

export function renderEntity(
  entity: StoredEntity,
  ctx: CompiledContext,
  options: RenderOptions,
): Record<string, unknown> {
  const types = entity.types.map((t) => ctx.compact(t));
  const out: Record<string, unknown> = { id: entity.id, type: types.length === 1 ? types[0] : types };
  for (const [iri, instances] of Object.entries(entity.attrs)) {
    if (options.attrs && !options.attrs.has(iri)) continue;
    const rendered = instances.map((i) => renderInstance(i, ctx, options));
    out[ctx.compact(iri)] = rendered.length === 1 ? rendered[0] : rendered;
  }
  if (options.sysAttrs && options.format !== "simplified") {
    out.createdAt = entity.createdAt;
    out.modifiedAt = entity.modifiedAt;
  }
  return out;
}

export function renderInstance(instance: Instance, ctx: CompiledContext, options: RenderOptions): unknown {
  const member = valueMemberOf[instance.type];
  const raw = instance[member];
  const value =
    member === "vocab"
      ? compactVocab(raw as string | string[], ctx)
      : instance.type === "Property"
        ? compactSingleton(raw)
        : raw;
  if (options.format === "simplified") return value;
  const out: Record<string, unknown> = {};
  if (options.format === "normalized") out.type = instance.type;
  out[member] = value;
  let extra = false;
  for (const [key, v] of Object.entries(instance)) {
    if (key === "type" || key === member) continue;
    if (instanceMembers.has(key)) {
      if (key === "createdAt" || key === "modifiedAt") {
        if (!options.sysAttrs) continue;
      } else extra = true;
      out[key] = v;
    } else {
      extra = true;
      out[ctx.compact(key)] = renderInstance(v as Instance, ctx, options);
    }
  }
  // Concise: a Property or GeoProperty with nothing but its value is the bare value (4.5.3).
  if (options.format === "concise" && !extra && !options.sysAttrs) {
    if (instance.type === "GeoProperty") return value;
    if (instance.type === "Property" && !conciseAmbiguous(value)) return value;
  }
  return out;
}

/**
 * A Property's value is a JSON-LD set: compaction gives a set of one element as the element
 * itself, as Orion-LD answers. Not an array inside an array, which would be read back as another value.
 */
function compactSingleton(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 && !Array.isArray(value[0]) ? value[0] : value;
}

/** A bare object value would be read back as another attribute type or a GeoJSON geometry. */
function conciseAmbiguous(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some((v) => typeof v === "object" && v !== null);
  return [
    "type",
    "value",
    "object",
    "languageMap",
    "vocab",
    "json",
    "valueList",
    "objectList",
    "datasetId",
  ].some((k) => k in value);
}

function compactVocab(vocab: string | string[], ctx: CompiledContext): string | string[] {
  return Array.isArray(vocab) ? vocab.map((v) => ctx.compact(v)) : ctx.compact(vocab);
}
