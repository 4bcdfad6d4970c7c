import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { platformKinds, workspaceKinds } from "@orrery/model";
import en from "../src/i18n/en.json";
import fr from "../src/i18n/fr.json";

function keys(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v && typeof v === "object" ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function sources(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) =>
      statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(path) ? readFileSync(path, "utf8") : "",
    )
    .join("\n");
}

/** Words that French spells the same way. */
const sameInBothLanguages = [
  "app.administration",
  "options.dataModelGroup.infrastructure",
  "options.standardDataModelType.smart-data-models", // a proper name
];
const enKeys = keys(en).sort();
const frKeys = keys(fr).sort();

/** Keys built at run time from the model: kinds.<kind>.*, fields.<field or its label>, options.<field>.<value>, formats.<format>, a list's blank entry. */
function modelKeys(): string[] {
  return [...platformKinds, ...workspaceKinds].flatMap((kind) => [
    ...["one", "many", "of", "this", "none"].map((k) => `kinds.${kind.kind}.${k}`),
    ...kind.fields.map((f) => `fields.${f.label ?? f.name}`),
    ...kind.columns.map((c) => `fields.${c}`),
    ...kind.fields.flatMap((f) => (f.input === "enum" ? f.options.map((o) => `options.${f.name}.${o}`) : [])),
    ...kind.fields.flatMap((f) => ("format" in f && f.format ? [`formats.${f.format}`] : [])),
    ...kind.fields.flatMap((f) => (f.input === "strings" && f.blank ? [f.blank] : [])),
  ]);
}

describe("translation catalogues", () => {
  it("have the same keys in English and French", () => {
    expect(frKeys).toEqual(enKeys);
  });

  it("translate into French rather than copy the English", () => {
    const same = enKeys.filter((k) => {
      const e = k.split(".").reduce<any>((o, p) => o[p], en);
      const f = k.split(".").reduce<any>((o, p) => o[p], fr);
      return e === f && e.length > 12 && !sameInBothLanguages.includes(k);
    });
    expect(same).toEqual([]);
  });

  it("hold every key the model needs", () => {
    const missing = [...new Set(modelKeys())].filter((k) => !enKeys.includes(k));
    expect(missing).toEqual([]);
  });

  it("hold every key the source uses, and no key that nothing uses", () => {
    const code = sources(join(import.meta.dirname, "../src"));
    const literal = [...code.matchAll(/\bt\(\s*"([a-zA-Z0-9_.-]+)"/g)].map((m) => m[1]!);
    const prefixed = [
      ...[...code.matchAll(/\btt\(\s*"([a-zA-Z0-9_.-]+)"/g)].map(
        (m) => `tools.authorizationRegistries.${m[1]}`,
      ),
      ...[...code.matchAll(/\btb\(\s*"([a-zA-Z0-9_.-]+)"/g)].map(
        (m) => `tools.authorizationRegistries.builder.${m[1]}`,
      ),
    ];
    const used = new Set([...literal, ...prefixed, ...modelKeys()]);
    // A key with a count is written in its plural forms (key_one, key_other).
    const plural = (k: string) => ["one", "other"].map((form) => `${k}_${form}`);
    for (const k of [...used]) if (!enKeys.includes(k)) plural(k).forEach((p) => used.add(p));
    expect(
      [...used].filter((k) => !enKeys.includes(k) && !plural(k).every((p) => enKeys.includes(p))),
    ).toEqual([]);
    const dynamic = [
      /^app\.languages\./,
      /^toggles\./,
      /^kinds\./,
      /^operations\./,
      /^validation\./,
      /^formats\./,
      /^dataServices\.direction\./,
      /\.deleteLocked$/,
      /^synchronization\.(roles|contracts|contractDetails)\./,
      /^registrations\.modes\./,
    ];
    const unused = enKeys.filter(
      (k) => !used.has(k) && !dynamic.some((re) => re.test(k)) && !code.includes(`"${k}"`),
    );
    expect(unused).toEqual([]);
  });
});
