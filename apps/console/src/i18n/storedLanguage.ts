import type { Language } from "./areas.ts";

/** Where the console keeps the language the user chose (the start-up script reads it too). */
export const LANGUAGE_KEY = "orrery.language";

/** The language the user chose last, English when none (or no storage). */
export function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === "fr" ? "fr" : "en";
  } catch {
    return "en";
  }
}
