import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./en.json";

export const languages = ["en", "fr"] as const;
export type Language = (typeof languages)[number];
const KEY = "orrery.language";

function stored(): Language {
  try {
    const value = localStorage.getItem(KEY);
    return value === "fr" ? "fr" : "en";
  } catch {
    return "en";
  }
}

/**
 * Catalogues other than English (the fallback, bundled) load when their language is chosen: the
 * first screen carries one language, not every one (bench/console).
 */
const catalogues: BackendModule = {
  type: "backend",
  callbackApi: false,
  init: () => undefined,
  read: async (language) => (language === "fr" ? (await import("./fr.json")).default : en),
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
