import { en, type MessageCode } from "./en.ts";
import { fr } from "./fr.ts";
import { fieldLabel, kindLabel, quote } from "./labels.ts";

export type { MessageCode };
export type Language = "en" | "fr";
/** Parameters of a message: values, lists (joined with commas), or other messages (written in the same language). */
export type Params = { [name: string]: string | number | boolean | readonly (string | number)[] | Message };

/** A message to be written in the reader's language: its stable code and parameters. */
export interface Message {
  code: MessageCode;
  params?: Params;
}

const catalogues: Record<Language, Record<MessageCode, string>> = { en, fr };

/**
 * The message in a language, its `{name}` parameters filled in (lists joined with commas). Three
 * parameters are written as a reader sees them, while the problem's `params` keep them as they are:
 * `field` and `fields` are field names, written as their quoted labels; `kind` a kind, written as
 * its label; `names` the titles of records, each quoted in the language's marks.
 */
export function say(language: Language, code: MessageCode, params: Params = {}): string {
  return catalogues[language][code].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    const list = [value].flat() as Array<string | number>;
    if (name === "field" || name === "fields")
      return list.map((f) => fieldLabel(language, String(f))).join(", ");
    if (name === "kind" && typeof value === "string") return kindLabel(language, value);
    if (name === "names") return list.map((n) => quote(language, String(n))).join(", ");
    if (Array.isArray(value)) return value.join(", ");
    if (typeof value === "object") return say(language, (value as Message).code, (value as Message).params);
    return String(value);
  });
}

/** The language an Accept-Language header prefers among ours (English when it names none of them). */
export function languageOf(acceptLanguage: string | undefined): Language {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...options] = part.trim().toLowerCase().split(";");
      const q = Number(
        options
          .find((o) => o.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { primary: tag.split("-")[0], q: Number.isNaN(q) ? 0 : q, index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.find((r) => r.primary === "fr" || r.primary === "en")?.primary === "fr" ? "fr" : "en";
}
