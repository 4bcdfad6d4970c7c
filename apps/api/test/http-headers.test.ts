import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { driver, startTestApp, type TestApp } from "./support/harness.ts";

// A built console of our own, so that the test does not depend on a build having run first.
const startUp = "window.__early={};";
const consoleDir = mkdtempSync(join(tmpdir(), "orrery-console-"));
mkdirSync(join(consoleDir, "assets"));
writeFileSync(
  join(consoleDir, "index.html"),
  `<!doctype html><html><head><meta charset="utf-8"><script>${startUp}</script>` +
    `<script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>`,
);
writeFileSync(join(consoleDir, "assets", "app.js"), "console.log(1)");
// The build's compressed copies (apps/console/precompress.ts), told apart from the original here.
writeFileSync(join(consoleDir, "assets", "app.js.br"), "brotli bytes");
writeFileSync(join(consoleDir, "index.html.gz"), "gzip bytes");
afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

const appOrigin = "https://app.example.org";
let t: TestApp;
let cross: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CONSOLE_DIR: consoleDir });
  cross = await startTestApp({
    CONSOLE_DIR: consoleDir,
    CORS_ORIGINS: `${appOrigin}, https://other.example`,
  });
});
afterAll(async () => {
  await t?.close();
  await cross?.close();
});

const get = (app: TestApp, url: string, headers: Record<string, string> = {}) =>
  app.app.inject({ method: "GET", url, headers });

describe(`security headers (${driver})`, () => {
  it("sends nosniff and no referrer on every kind of answer", async () => {
    for (const url of [
      "/",
      "/workspaces/x",
      "/assets/app.js",
      "/api/health",
      "/api/context-brokers",
      "/api/nothing",
      "/ngsi-ld/v1/types",
      "/idm/authorize?client_id=x",
    ]) {
      const res = await get(t, url);
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
      expect(res.headers["referrer-policy"], url).toBe("no-referrer");
      expect(res.headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
    }
  });

  it("allows only the console's own scripts and its hashed inline start-up script, and forbids framing", async () => {
    const res = await get(t, "/");
    const csp = String(res.headers["content-security-policy"]);
    const hash = createHash("sha256").update(startUp).digest("base64");
    expect(csp).toMatch(new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, "\\$&")}'(;|$)`));
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    // The development identity manager's password form cannot be framed either.
    const login = await get(t, "/idm/authorize?client_id=x");
    expect(login.headers["x-frame-options"]).toBe("DENY");
  });

  it("lets the map load tiles from the configured tile server only", async () => {
    const csp = String((await get(t, "/")).headers["content-security-policy"]);
    expect(csp).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org");
  });

  it("makes index.html revalidate on / and on deep links, and keeps hashed assets immutable", async () => {
    for (const url of ["/", "/index.html", "/workspaces", "/context-brokers/urn:x/edit"]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
    expect((await get(t, "/assets/app.js")).headers["cache-control"]).toBe(
      "public, max-age=31536000, immutable",
    );
  });

  it("sends the build's compressed copies to browsers that accept them, with the same cache headers", async () => {
    const asset = (encoding: string) =>
      t.app.inject({ method: "GET", url: "/assets/app.js", headers: { "accept-encoding": encoding } });
    const br = await asset("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body).toBe("brotli bytes");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const plain = await asset("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe("console.log(1)");
    for (const url of ["/", "/workspaces"]) {
      const page = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
      expect(page.headers["content-encoding"], url).toBe("gzip");
      expect(page.headers["cache-control"], url).toBe("no-cache");
    }
  });
});

describe(`clients on another origin (${driver})`, () => {
  const preflight = (app: TestApp, origin: string) =>
    app.app.inject({
      method: "OPTIONS",
      url: "/api/context-brokers",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });

  it("allows no other origin by default", async () => {
    const res = await preflight(t, appOrigin);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    expect(
      (await get(t, "/api/health", { origin: appOrigin })).headers["access-control-allow-origin"],
    ).toBeUndefined();
  });

  it("answers the preflight of an allowed origin without a login", async () => {
    const res = await preflight(cross, appOrigin);
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe(appOrigin);
    expect(String(res.headers["access-control-allow-headers"]).toLowerCase()).toContain("authorization");
    expect(String(res.headers["access-control-allow-methods"])).toContain("POST");
    const refused = await preflight(cross, "https://evil.example");
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("lets an allowed origin read answers, a 401 included, and the ETag", async () => {
    const anonymous = await get(cross, "/api/context-brokers", { origin: appOrigin });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers["access-control-allow-origin"]).toBe(appOrigin);
    const token = await cross.tokenFor("admin");
    const created = await cross.app.inject({
      method: "POST",
      url: "/api/data-actions",
      headers: { origin: appOrigin, authorization: `Bearer ${token}` },
      payload: { name: "read" },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers["access-control-allow-origin"]).toBe(appOrigin);
    expect(String(created.headers["access-control-expose-headers"]).toLowerCase()).toContain("etag");
  });

  it("refuses a CORS_ORIGINS entry that is not an origin, and allows CONSOLE_URL's origin", () => {
    for (const bad of ["*", "https://app.example.org/console", "app.example.org", "https://*.example.org"]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
    expect(loadConfig({ CONSOLE_URL: "https://app.example.org/console/" }).corsOrigins).toEqual([appOrigin]);
  });
});
