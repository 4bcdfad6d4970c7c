import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { en } from "../src/messages/en.ts";
import { fr } from "../src/messages/fr.ts";
import { languageOf, say } from "../src/messages/say.ts";
import { client, driver, useTestApp } from "./support/harness.ts";

describe("the API's messages", () => {
  it("are all in French, translated rather than copied", () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    const copied = Object.entries(en).filter(
      ([code, text]) => text.length > 12 && fr[code as keyof typeof en] === text,
    );
    expect(copied).toEqual([]);
  });

  it("keep the same parameters in both languages", () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [code, text] of Object.entries(en))
      expect(params(fr[code as keyof typeof en]), code).toEqual(params(text));
  });

  it("follow French typography: a no-break space before a colon", () => {
    const plainSpaceOrNone = (text: string) =>
      /[ \w]:(\s|$)/.test(text.replace(/Authorization: Bearer|https?:/g, ""));
    expect(Object.values(fr).filter(plainSpaceOrNone)).toEqual([]);
  });

  it("are the only sentences the API writes: no problem or field error is built from a bare string", () => {
    const src = join(import.meta.dirname, "../src");
    const files = (readdirSync(src, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && !f.startsWith("messages") && f !== "problems.ts")
      .map((f) => [f, readFileSync(join(src, f), "utf8")] as const);
    const bare = files.flatMap(([file, text]) =>
      [
        ...text.matchAll(/new Problem\(/g),
        // A field error written as { path, message: "..." } instead of fieldError(path, code).
        ...text.matchAll(/\bmessage: ["'`][A-Za-z]/g),
        // Import reasons written as text instead of a code (a code is one word: a decision's reason).
        ...text.matchAll(/\breason: ["'`][A-Za-z][^"'`\n]* /g),
      ].map((m) => `${file}: ${text.slice(m.index, m.index + 60).split("\n")[0]}`),
    );
    expect(bare).toEqual([]);
  });

  it("pick the language from Accept-Language", () => {
    expect(languageOf("fr-FR,fr;q=0.9,en;q=0.8")).toBe("fr");
    expect(languageOf("de-DE,fr;q=0.5,en;q=0.7")).toBe("en");
    expect(languageOf("de, fr;q=0.3")).toBe("fr");
    expect(languageOf("fr;q=0")).toBe("en");
    expect(languageOf(undefined)).toBe("en");
    expect(say("fr", "auth.forbidden", { method: "PUT", path: "/api/x" })).toBe(
      "Vous n’êtes pas autorisé à faire PUT /api/x.",
    );
  });
});

describe(`problems in the reader's language (${driver})`, () => {
  const ctx = useTestApp("viewer");
  const french = { "accept-language": "fr-FR,fr;q=0.9" };

  it("answers 401, 403 and 404 in French with a stable code", async () => {
    const anonymous = client(ctx.t);
    const unauthenticated = await anonymous("GET", "/api/context-brokers", undefined, french);
    expect(unauthenticated.body).toMatchObject({
      status: 401,
      title: "Non authentifié",
      code: "auth.unauthenticated",
      detail: "Vous devez être authentifié : envoyez Authorization: Bearer <jeton>.",
    });
    const forbidden = await ctx.api("POST", "/api/context-brokers", {}, french);
    expect(forbidden.body).toMatchObject({
      title: "Interdit",
      code: "auth.forbidden",
      params: { method: "POST", path: "/api/context-brokers" },
      detail: "Vous n’êtes pas autorisé à faire POST /api/context-brokers.",
    });
    const english = await ctx.api("POST", "/api/context-brokers", {});
    expect(english.body.detail).toBe("You are not allowed to POST /api/context-brokers.");
    const noRoute = await ctx.api("GET", "/api/nothing-here", undefined, french);
    expect(noRoute.body).toMatchObject({
      title: "Introuvable",
      detail: "Aucune route GET /api/nothing-here",
    });
  });

  it("says that a record does not exist, or is stale, in French", async () => {
    const admin = client(ctx.t, await ctx.t.tokenFor("admin"));
    const missing = await admin("GET", "/api/workspace/urn:ngsi-ld:Workspace:gone/types", undefined, french);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: "notFound.workspace",
      detail: "L’espace de travail urn:ngsi-ld:Workspace:gone n’existe pas.",
    });
    const broker = await admin("POST", "/api/context-brokers", {
      name: "Stale",
      scheme: "http",
      host: "stale.example.org",
      port: 1026,
      paginationMaxLimit: 100,
      implementationName: "orion-ld",
      implementationVersion: "1.6",
    });
    expect(broker.status, JSON.stringify(broker.body)).toBe(201);
    const stale = await admin(
      "PUT",
      `/api/context-brokers/${broker.body.id}`,
      { ...broker.body, name: "Later" },
      { ...french, "if-match": '"0"' },
    );
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe("record.stale");
    expect(stale.body.detail).toMatch(/^L’enregistrement a été modifié/);
  });

  it("writes field errors and hostile-input refusals in French", async () => {
    const admin = client(ctx.t, await ctx.t.tokenFor("admin"));
    const invalid = await admin("POST", "/api/context-brokers", { name: "b", port: "x", extra: 1 }, french);
    expect(invalid.status).toBe(400);
    expect(invalid.body.title).toBe("Les données envoyées ne sont pas valides");
    expect(invalid.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: "",
          code: "field.unknownFields",
          message: "contient des champs inconnus : extra",
        }),
      ]),
    );
    const hostile = await admin("POST", "/api/data-actions", { name: "a\u0000" }, french);
    expect(hostile.body.detail).toBe(
      "La requête ne peut pas être acceptée : le corps.name contient un caractère NUL (\\u0000).",
    );
  });

  it("shows the development login page in the console's language, or else the browser's", async () => {
    const page = (url: string, headers: Record<string, string> = {}) =>
      ctx.t.app.inject({ method: "GET", url, headers }).then((r) => r.body);
    const fromConsole = await page("/idm/authorize?state=s&ui_locales=fr");
    expect(fromConsole).toContain('<html lang="fr">');
    expect(fromConsole).toContain("Se connecter");
    expect(fromConsole).toContain('name="ui_locales" value="fr"');
    expect(await page("/idm/authorize?state=s", french)).toContain("Mot de passe");
    expect(await page("/idm/authorize?state=s")).toContain("Password");
    const wrong = await ctx.t.app.inject({
      method: "POST",
      url: "/idm/authorize",
      payload: {
        state: "s",
        code_challenge: "c",
        redirect_uri: `${ctx.t.config.publicUrl}/api/auth/callback`,
        ui_locales: "fr",
        username: "admin",
        password: "x",
      },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain("Nom d’utilisateur ou mot de passe incorrect.");
  });
});
