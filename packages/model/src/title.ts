import type { KindDefinition } from "./kind.ts";

/**
 * What a record is called. A record with a name goes by it. A kind whose records have none says
 * what identifies them in `titledBy`: templates tried in order, the first whose fields are all set
 * wins; `{field}` is the field's value, a reference's by the referenced record's title ("{hasRole} →
 * {hasDataService}" for an access). Without either, a description (an offering) or the id.
 * The templates hold no words, so a title reads the same in English and French.
 */

const placeholder = /\{(\w+)\}/g;

/** The fields a kind's titles are made of. */
export function titleFields(kind: KindDefinition): string[] {
  return [...new Set((kind.titledBy ?? []).flatMap((t) => [...t.matchAll(placeholder)].map((m) => m[1]!)))];
}

/** The reference fields a kind's titles name, with the kind each refers to. */
export function titleReferences(kind: KindDefinition): Array<{ field: string; kind: string }> {
  return titleFields(kind).flatMap((name) => {
    const field = kind.fields.find((f) => f.name === name);
    return field?.input === "reference" ? [{ field: name, kind: field.kind }] : [];
  });
}

/** The one field a kind is titled by alone (a contract, by its stakeholder's name), if so. */
export function soleTitleField(kind: KindDefinition): string | undefined {
  const fields = titleFields(kind);
  return kind.titledBy?.length === 1 && kind.titledBy[0] === `{${fields[0]}}` ? fields[0] : undefined;
}

/**
 * A record's title; `referenced(kind, id)` names a referenced record (undefined while unknown:
 * its id stands in).
 */
export function recordTitle(
  kind: KindDefinition | undefined,
  item: Record<string, unknown>,
  referenced: (kind: string, id: string) => string | undefined = () => undefined,
): string {
  if (typeof item.name === "string" && item.name) return item.name;
  const references = kind ? titleReferences(kind) : [];
  for (const template of kind?.titledBy ?? []) {
    let complete = true;
    const title = template.replace(placeholder, (_, name: string) => {
      const value = item[name];
      if (value === undefined || value === null || value === "") complete = false;
      const target = references.find((r) => r.field === name);
      return target ? (referenced(target.kind, String(value)) ?? String(value)) : String(value);
    });
    if (complete) return title;
  }
  return (typeof item.description === "string" && item.description) || String(item.id ?? "");
}
