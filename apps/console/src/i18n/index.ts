import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import en from "texts:en/base";
import type { Language, Texts } from "./areas.ts";

export { languages, type Language } from "./areas.ts";
const KEY = "orrery.language";

function stored(): Language {
  try {
    const value = localStorage.getItem(KEY);
    return value === "fr" ? "fr" : "en";
  } catch {
    return "en";
  }
}

type Others = Partial<Record<Language, () => Promise<{ default: Texts }>>>;

/**
 * The parts of the catalogues (areas.ts) registered so far, with how to load each in a language
 * other than English: the base, which the first screen carries, then every area whose screen's
 * code has run. English, the fallback, is always there.
 */
const parts = new Map<string, Others>([["base", { fr: () => import("texts:fr/base") }]]);

async function partIn(language: Language, part: string): Promise<Texts> {
  const load = parts.get(part)?.[language];
  return load ? (await load()).default : {};
}

/** Merges a part into what a language has so far (an area and the base share some prefixes). */
function merge(into: Texts, part: Texts): Texts {
  for (const [name, value] of Object.entries(part)) {
    const there = into[name];
    into[name] = typeof value === "object" && typeof there === "object" ? merge(there, value) : value;
  }
  return into;
}

/**
 * A language other than English loads when it is chosen, with every part registered so far (and any
 * registered while it loads): the first screen carries one language, and a screen shown before the
 * switch is all in the new language after it.
 */
const catalogues: BackendModule = {
  type: "backend",
  callbackApi: false,
  init: () => undefined,
  read: async (language) => {
    const texts: Texts = {};
    const done = new Set<string>();
    while (done.size < parts.size) {
      const todo = [...parts.keys()].filter((part) => !done.has(part));
      const loaded = await Promise.all(todo.map((part) => partIn(language as Language, part)));
      todo.forEach((part) => done.add(part));
      loaded.forEach((part) => merge(texts, part));
    }
    return texts;
  },
};

/**
 * English is the default and the fallback; the choice is remembered across reloads. Importers wait
 * for the chosen language's catalogue (top-level await), so nothing renders before it is there.
 */
await i18n
  .use(catalogues)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    lng: stored(),
    fallbackLng: "en",
    interpolation: { escapeValue: false },
    returnNull: false,
  });
document.documentElement.lang = i18n.language;

/**
 * Registers an area's texts (`texts:<area>`, vite.config.ts, runs this before the screen's module
 * that imports it): in English and in every other language loaded so far (the one shown, one shown
 * before), so that neither the screen nor a switch back shows a key. A language chosen later gets
 * it with the rest (`catalogues`).
 */
export async function addArea(area: string, english: Texts, others: Others): Promise<void> {
  if (parts.has(area)) return;
  parts.set(area, others);
  i18n.addResourceBundle("en", "translation", english, true, true);
  const loaded = Object.keys(i18n.store.data).filter((language) => language !== "en") as Language[];
  await Promise.all(
    loaded.map(async (language) =>
      i18n.addResourceBundle(language, "translation", await partIn(language, area), true, true),
    ),
  );
}

export function setLanguage(language: Language): void {
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
  try {
    localStorage.setItem(KEY, language);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export default i18n;
