/**
 * The console's texts are one catalogue a language (en.json, fr.json: complete, which is what
 * translators edit and what the API's labels and the e2e specs read), cut when the console is built
 * (vite.config.ts, `textAreas`) into the base, which the first screen carries, and areas, each
 * loaded with the screens that use it: a screen's module imports `texts:<area>`, whose English
 * comes with the screen's code and another language's when that language is shown (index.ts). So
 * the first screen does not grow with every screen's texts (issue 26).
 *
 * An area is named after the folder of the screens that use it and holds key prefixes (the longest
 * matching prefix wins); every other key is in the base. A module may use the base's keys and
 * those of the areas that its screen imports (test/text-areas.test.ts checks both).
 */
export const languages = ["en", "fr"] as const;
export type Language = (typeof languages)[number];

export const textAreas: Record<string, readonly string[]> = {
  // The workspace view's chart and data model actions.
  workspaces: ["workspace", "dataModel"],
  // Entities, attributes, the temporal view, subscriptions, the map, imports and exports.
  "context-data": ["entities", "subscriptions", "map", "temporal", "importExport", "live"],
  // A context broker's registrations, on its show page.
  brokers: ["registrations"],
  // Synchronisations with the identity manager and authorization registries, a contract detail's
  // users, the authorization registry tool.
  trust: ["synchronization", "users", "tools.authorizationRegistries"],
  fdsc: ["fdsc"],
  audit: ["audit"],
  "data-access": ["dataAccess"],
  health: ["health"],
  // A broker client's key dialog, New key and Revoke.
  "broker-clients": ["brokerClients"],
};

/**
 * Keys under an area's prefix that the base keeps: the menu's entries, the show pages' links to
 * other screens, the words a show page passes to the synchronisation (fdsc/FdscLinks.tsx).
 */
const inBase = [
  "audit.title",
  "dataAccess.title",
  "health.title",
  "tools.authorizationRegistries.title",
  "fdsc.policies.title",
  "fdsc.credentials.title",
  "fdsc.issuers.title",
  "fdsc.roleSync",
  // How a list and a form write the default tenant among a broker client's tenants.
  "brokerClients.defaultTenant",
];

/** The area a key's texts are in, "base" for the first screen's: its longest prefix's. */
export function areaOf(key: string): string {
  let found = { area: "base", length: 0 };
  const prefixes = [...Object.entries(textAreas), ["base", inBase] as const];
  for (const [area, list] of prefixes) {
    for (const prefix of list) {
      const matches = key === prefix || key.startsWith(`${prefix}.`);
      if (matches && prefix.length > found.length) found = { area, length: prefix.length };
    }
  }
  return found.area;
}

export type Texts = { [key: string]: string | Texts };

/** The part of a catalogue that an area (or the base) holds, as nested as the catalogue. */
export function cut(catalogue: Texts, area: string, prefix = ""): Texts {
  const part: Texts = {};
  for (const [name, value] of Object.entries(catalogue)) {
    const key = `${prefix}${name}`;
    if (typeof value === "string") {
      if (areaOf(key) === area) part[name] = value;
    } else {
      const inside = cut(value, area, `${key}.`);
      if (Object.keys(inside).length > 0) part[name] = inside;
    }
  }
  return part;
}
