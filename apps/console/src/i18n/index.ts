import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./en.json";
import fr from "./fr.json";

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

/** English is the default and the fallback; the choice is remembered across reloads. */
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, fr: { translation: fr } },
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

export { en, fr };
export default i18n;
