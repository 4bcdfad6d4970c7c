import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import en from "../src/i18n/en.json";
import fr from "../src/i18n/fr.json";
import { areaOf, cut, textAreas, type Texts } from "../src/i18n/areas.ts";
import i18n, { addArea } from "../src/i18n/index.ts";
import { routePaths } from "../src/routes.ts";

const src = resolve(import.meta.dirname, "../src");

function keys(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v && typeof v === "object" ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
const enKeys = new Set(keys(en));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** A source module as the test reads it: what it imports, loads later, registers and says. */
interface Module {
  imports: string[];
  loads: string[];
  areas: string[];
  keys: string[];
}

/**
 * The keys a module uses, as far as its text shows them: t("…") and any other literal naming a
 * key (a table of keys passed to t later), the registry tool's tt("…") and tb("…") under their
 * prefixes, a counted key by its plural forms. Not seen: keys built at run time (`kinds.${kind}`,
 * `options.${field}.${value}`, a problem's code), which are the model's and in the base, and keys
 * that another module's t gets from this one's computed strings. A literal naming a route
 * ("entities.create") is a route; a property name is not a text either.
 */
function keysOf(code: string): string[] {
  // An object's property name is not a text ("dataModel.generate": the audit action so named).
  const values = code.replace(/((?:^|[{,])\s*)"[\w.-]+"(\s*:)/gm, "$1_$2");
  const literals = [...values.matchAll(/"([a-zA-Z0-9_.-]+)"/g)].map((m) => m[1]!);
  const prefixed = [
    ...[...code.matchAll(/\btt\(\s*"([a-zA-Z0-9_.-]+)"/g)].map(
      (m) => `tools.authorizationRegistries.${m[1]}`,
    ),
    ...[...code.matchAll(/\btb\(\s*"([a-zA-Z0-9_.-]+)"/g)].map(
      (m) => `tools.authorizationRegistries.builder.${m[1]}`,
    ),
  ];
  return [...literals.filter((k) => !(k in routePaths)), ...prefixed].flatMap((k) =>
    enKeys.has(k) ? [k] : enKeys.has(`${k}_other`) ? [`${k}_other`] : [],
  );
}

const modules = new Map<string, Module>();
for (const file of files(src)) {
  const code = readFileSync(file, "utf8");
  const relative = (spec: string) => resolve(dirname(file), spec);
  modules.set(file, {
    // Type-only imports load nothing.
    imports: [
      ...code.matchAll(/^(?:import|export)(?! type)[^;]*?from\s+"(\.[^"]+)"|^import\s+"(\.[^"]+)"/gm),
    ].map((m) => relative((m[1] ?? m[2])!)),
    loads: [...code.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g)].map((m) => relative(m[1]!)),
    areas: [...code.matchAll(/^import\s+"texts:([\w-]+)"/gm)].map((m) => m[1]!),
    keys: keysOf(code),
  });
}

/** A module and what it imports, at any depth: the code that has run when it runs. */
function closure(file: string, into = new Set<string>()): Set<string> {
  if (into.has(file) || !modules.has(file)) return into;
  into.add(file);
  modules.get(file)!.imports.forEach((f) => closure(f, into));
  return into;
}
const entry = join(src, "main.tsx");
/** The entry and each module loaded later (a route's screen, a lazy dialog). */
const roots = [entry, ...new Set([...modules.values()].flatMap((m) => m.loads))];
const rootsOf = (file: string) => roots.filter((root) => closure(root).has(file));

/**
 * The areas registered when a root's code has run: those its own modules import, and those that
 * every code able to load it has registered (a lazy dialog's screen's).
 */
const available = new Map<string, Set<string>>();
function areasAt(root: string, visiting = new Set<string>()): Set<string> {
  if (available.has(root)) return available.get(root)!;
  if (visiting.has(root)) return new Set();
  visiting.add(root);
  const own = [...closure(root)].flatMap((f) => modules.get(f)!.areas);
  const loaders = [...modules].filter(([, m]) => m.loads.includes(root)).map(([f]) => f);
  const inherited = loaders
    .flatMap(rootsOf)
    .map((r) => areasAt(r, visiting))
    .reduce<Set<string> | undefined>(
      (all, areas) => (all ? new Set([...all].filter((a) => areas.has(a))) : areas),
      undefined,
    );
  const areas = new Set([...own, ...(root === entry ? [] : (inherited ?? []))]);
  available.set(root, areas);
  return areas;
}

const name = (file: string) => file.slice(src.length + 1);

describe("text areas", () => {
  it("cut each catalogue into parts that hold every key once, the same in both languages", () => {
    const parts = ["base", ...Object.keys(textAreas)];
    for (const catalogue of [en, fr] as Texts[]) {
      const cutKeys = parts.flatMap((part) => keys(cut(catalogue, part)));
      expect(cutKeys.sort()).toEqual(keys(catalogue).sort());
    }
    for (const part of parts) expect(keys(cut(fr, part)).sort()).toEqual(keys(cut(en, part)).sort());
    // No area without texts (a prefix that names nothing).
    for (const [area, prefixes] of Object.entries(textAreas)) {
      for (const prefix of prefixes) {
        expect(
          [...enKeys].filter((k) => k.startsWith(`${prefix}.`)),
          `${area}: ${prefix}`,
        ).not.toEqual([]);
      }
    }
  });

  it("are each loaded by some screen, and the first screen loads none", () => {
    // Imported by a module that a screen loads (a route's screen, or what it loads later).
    const imported = new Set(roots.flatMap((root) => [...areasAt(root)]));
    expect(Object.keys(textAreas).filter((area) => !imported.has(area))).toEqual([]);
    expect([...imported].filter((area) => !(area in textAreas))).toEqual([]);
    expect([...areasAt(entry)]).toEqual([]);
  });

  it("hold every key a screen's modules use, in the base or an area the screen loads", () => {
    const missing = roots.flatMap((root) => {
      const areas = areasAt(root);
      return [...closure(root)].flatMap((file) =>
        modules
          .get(file)!
          .keys.map((key) => ({ key, area: areaOf(key) }))
          .filter(({ area }) => area !== "base" && !areas.has(area))
          .map(({ key, area }) => `${name(root)} → ${name(file)}: ${key} (texts:${area})`),
      );
    });
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe("switching language", () => {
  afterAll(() => i18n.changeLanguage("en"));
  const leaf = (tree: Texts, key: string) => key.split(".").reduce<any>((o, p) => o?.[p], tree);

  it("shows every registered area in the new language, and an area registered later too", async () => {
    // test/setup.ts registered every area, in English.
    await i18n.changeLanguage("fr");
    const wrong = [...enKeys].filter((key) => i18n.getResource("fr", key) !== leaf(fr, key));
    expect(wrong).toEqual([]);

    await addArea(
      "later",
      { later: { title: "Later" } },
      {
        fr: async () => ({ default: { later: { title: "Plus tard" } } }),
      },
    );
    expect(i18n.t("later.title")).toBe("Plus tard");
    await i18n.changeLanguage("en");
    expect(i18n.t("later.title")).toBe("Later");
    await i18n.changeLanguage("fr");
    expect(i18n.t("later.title")).toBe("Plus tard");
  });
});
