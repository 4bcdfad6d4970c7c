import rosetta from "rosetta";
import { useSyncExternalStore } from "react";
import en from "texts:en/base";
import type { Language, Texts } from "./areas.ts";
import { LANGUAGE_KEY, storedLanguage } from "./storedLanguage.ts";

export { languages, type Language } from "./areas.ts";

/**
 * The console's texts: the catalogues' parts (areas.ts) in a language table each, looked up and
 * filled in (`{{name}}`) by rosetta, a few hundred bytes where i18next and react-i18next were 18 kB
 * of the first screen's gzipped JavaScript (issue 38). What the console asks of them is here: a
 * counted key's plural forms (`key_one`, `key_other`, as i18next writes them, by Intl.PluralRules),
 * English as the fallback, a default value, a missing key shown as itself.
 */
export interface TOptions {
  count?: number;
  defaultValue?: string;
  [name: string]: unknown;
}
export type TFunction = (key: string, options?: TOptions) => string;

const tables = rosetta<Texts>();
/** Deep: an area and the base share some prefixes (rosetta's own `set` merges one level). */
function merge(into: Texts, part: Texts): Texts {
  for (const [name, value] of Object.entries(part)) {
    const there = into[name];
    into[name] = typeof value === "object" && typeof there === "object" ? merge(there, value) : value;
  }
  return into;
}
const add = (language: Language, part: Texts) =>
  tables.set(language, merge(tables.table(language) || {}, part));

const plurals = new Map<string, Intl.PluralRules>();
function pluralForm(language: Language, count: number): string {
  if (!plurals.has(language)) plurals.set(language, new Intl.PluralRules(language));
  return plurals.get(language)!.select(count);
}

/** A key's text in a language, or undefined: with a count, its plural form first. */
function textIn(language: Language, key: string, options: TOptions | undefined): string | undefined {
  const keys =
    typeof options?.count === "number" ? [`${key}_${pluralForm(language, options.count)}`, key] : [key];
  for (const candidate of keys) {
    // rosetta answers "" for a key it lacks (and the object under a prefix): neither is a text.
    const text = tables.t(candidate, options, language) as unknown;
    if (typeof text === "string" && text !== "") return text;
  }
  return undefined;
}

function fixedT(language: Language): TFunction {
  return (key, options) =>
    textIn(language, key, options) ??
    textIn("en", key, options) ??
    (options?.defaultValue === undefined ? key : options.defaultValue);
}

type Others = Partial<Record<Language, () => Promise<{ default: Texts }>>>;

/**
 * The parts of the catalogues registered so far, with how to load each in a language other than
 * English: the base, which the first screen carries, then every area whose screen's code has run.
 * English, the fallback, is always there.
 */
const parts = new Map<string, Others>([["base", { fr: () => import("texts:fr/base") }]]);
/** The languages whose tables hold every registered part. */
const loaded = new Set<Language>(["en"]);

async function partIn(language: Language, part: string): Promise<Texts> {
  const load = parts.get(part)?.[language];
  return load ? (await load()).default : {};
}

/**
 * A language other than English loads when it is chosen, with every part registered so far (and any
 * registered while it loads): the first screen carries one language, and a screen shown before the
 * switch is all in the new language after it.
 */
async function load(language: Language): Promise<void> {
  if (loaded.has(language)) return;
  const done = new Set<string>();
  while (done.size < parts.size) {
    const todo = [...parts.keys()].filter((part) => !done.has(part));
    const texts = await Promise.all(todo.map((part) => partIn(language, part)));
    todo.forEach((part) => done.add(part));
    texts.forEach((part) => add(language, part));
  }
  loaded.add(language);
}

let language: Language = "en";
let t = fixedT(language);
const listeners = new Set<() => void>();

/** The console's one translator: the language shown, switched with every screen re-rendered. */
const i18n = {
  get language(): Language {
    return language;
  },
  t: (key: string, options?: TOptions) => t(key, options),
  getFixedT: (other: Language): TFunction => fixedT(other),
  /** A key's text in a language as loaded, unfilled and without fallback (undefined if it has none). */
  getResource: (other: Language, key: string): string | Texts | undefined =>
    key
      .split(".")
      .reduce<string | Texts | undefined>(
        (texts, name) => (typeof texts === "object" ? texts[name] : undefined),
        tables.table(other) || undefined,
      ),
  async changeLanguage(next: Language): Promise<void> {
    await load(next);
    if (next === language) return;
    language = next;
    t = fixedT(next);
    listeners.forEach((listener) => listener());
  },
};

/** A component's translator, re-rendering it when the language changes (as react-i18next's did). */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => t,
  );
  return { t: current, i18n };
}

/**
 * English is the default and the fallback; the choice is remembered across reloads. Importers wait
 * for the chosen language's catalogue (top-level await), so nothing renders before it is there.
 */
add("en", en);
await i18n.changeLanguage(storedLanguage());
document.documentElement.lang = i18n.language;

/**
 * Registers an area's texts (`texts:<area>`, vite.config.ts, runs this before the screen's module
 * that imports it): in English and in every other language loaded so far (the one shown, one shown
 * before), so that neither the screen nor a switch back shows a key. A language chosen later gets
 * it with the rest (`load`).
 */
export async function addArea(area: string, english: Texts, others: Others): Promise<void> {
  if (parts.has(area)) return;
  parts.set(area, others);
  add("en", english);
  const other = [...loaded].filter((language) => language !== "en");
  await Promise.all(other.map(async (language) => add(language, await partIn(language, area))));
}

export function setLanguage(next: Language): void {
  void i18n.changeLanguage(next);
  document.documentElement.lang = next;
  try {
    localStorage.setItem(LANGUAGE_KEY, next);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export default i18n;
