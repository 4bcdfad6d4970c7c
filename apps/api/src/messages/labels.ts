// The console's catalogues are where fields and kinds get their labels: the API's sentences name
// them the same way, from the same files, rather than from a copy that would drift.
import en from "../../../console/src/i18n/en.json" with { type: "json" };
import fr from "../../../console/src/i18n/fr.json" with { type: "json" };
import type { Language } from "./say.ts";

const catalogues: Record<
  Language,
  { fields: Record<string, string>; kinds: Record<string, { one: string }> }
> = { en, fr };

/** Quotation marks of a language: “name” in English, « name » in French. */
export const quote = (language: Language, text: string) => (language === "fr" ? `« ${text} »` : `“${text}”`);

/** A field as a reader sees it: its label, quoted ("notBefore" reads “Not before”); an unknown name as it is. */
export function fieldLabel(language: Language, name: string): string {
  const label = catalogues[language].fields[name];
  return label ? quote(language, label) : name;
}

/** A kind as a reader sees it ("wot-thing-descriptions" reads "thing description"). */
export const kindLabel = (language: Language, kind: string) => catalogues[language].kinds[kind]?.one ?? kind;

/**
 * A field error's path as a reader sees it: the field's label, then what lies inside it
 * ("hasDataActions.0" reads “Data actions” 0).
 */
export function pathLabel(language: Language, path: string): string {
  const [field = "", ...inside] = path.split(".");
  return [fieldLabel(language, field), ...inside].join(" ");
}
