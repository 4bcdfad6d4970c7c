import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { rawRequest, type RawAnswer } from "./support/raw-http.ts";

// The permission check must be decided on the path the router serves. These are spellings of the
// same route that a check on the raw request target would not recognise as /api (or as the route).

// A built console, so that the console's catch-all route is there as in production.
const consoleDir = mkdtempSync(join(tmpdir(), "orrery-console-"));
writeFileSync(join(consoleDir, "index.html"), "<!doctype html><title>Orrery</title>");

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp({ CONSOLE_DIR: consoleDir });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

const concrete = (url: string) =>
  url
    .replace(":workspaceId", "urn:ngsi-ld:Workspace:x")
    .replace(/:\w+/g, "urn:ngsi-ld:Thing:00000000-0000-4000-8000-000000000000");

const encodeChar = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

/** Other spellings of an /api path: encoded, doubled, dotted, absolute-form, mixed case. */
function spellings(path: string): string[] {
  const rest = path.slice("/api".length);
  const [, second = "", ...tail] = rest.split("/");
  const after = tail.length ? `/${tail.join("/")}` : "";
  return [
    `/%61pi${rest}`,
    `/ap%69${rest}`,
    `/${[..."api"].map(encodeChar).join("")}${rest}`,
    `/api/${encodeChar(second[0] ?? "x")}${second.slice(1)}${after}`,
    `/%2561pi${rest}`,
    `/api%2F${second}${after}`,
    `//api${rest}`,
    `/api/${second}/${after}`,
    `/api/.${rest}`,
    `/./api${rest}`,
    `/x/../api${rest}`,
    `/api/${second}/../${second}${after}`,
    `/API${rest}`,
    `/Api${rest}`,
    path.toUpperCase(),
    `${path}/`,
    `http://127.0.0.1:${port}${path}`,
    `HTTP://127.0.0.1:${port}${path}`,
    `http://attacker.example/%61pi${rest}`,
    `hTTp://127.0.0.1${path.replace("/api", "/ap%69")}`,
  ];
}

/** What may answer a spelling of a route the user may not use: never the route's own handler. */
function refusedBeforeTheHandler(answer: RawAnswer): boolean {
  if (answer.status === 401 || answer.status === 403) return true;
  // A path that is not the route's (`//api/...`) may be a console page: index.html, no data.
  if (answer.status === 200 && answer.body === "<!doctype html><title>Orrery</title>") return true;
  const detail = String(answer.json?.detail ?? "");
  if (answer.status === 404) return detail.startsWith("No route");
  if (answer.status === 400) return /request target|url/i.test(detail);
  return false;
}

describe(`permissions are decided on the path the router serves (${driver})`, () => {
  const users = ["anonymous", "viewer", "showroom"] as const;

  it("refuses every spelling of every protected route that the user may not use, as raw requests", async () => {
    const tokens = {
      anonymous: undefined,
      viewer: await t.tokenFor("viewer"),
      showroom: await t.tokenFor("showroom"),
    };
    const failures: string[] = [];
    let tried = 0;
    for (const route of t.routes.filter((r) => r.access !== "public")) {
      const path = concrete(route.url);
      const body = ["POST", "PUT", "PATCH"].includes(route.method) ? "{}" : undefined;
      for (const user of users) {
        // Signing out would end the user's session for the rest of the walk.
        if (route.url === "/api/auth/logout" && user !== "anonymous") continue;
        const token = tokens[user];
        const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        const normal = await rawRequest(port, route.method, path, { headers, ...(body ? { body } : {}) });
        // Only what the user is refused in normal form must stay refused in every other form.
        if (normal.status !== 401 && normal.status !== 403) continue;
        for (const target of spellings(path)) {
          tried++;
          const answer = await rawRequest(port, route.method, target, { headers, ...(body ? { body } : {}) });
          if (!refusedBeforeTheHandler(answer))
            failures.push(
              `${user} ${route.method} ${target} -> ${answer.status} ${answer.body.slice(0, 120)}`,
            );
          else if (
            answer.status >= 400 &&
            !answer.headers["content-type"]?.startsWith("application/problem+json")
          )
            failures.push(`${user} ${route.method} ${target} -> ${answer.status} not problem+json`);
        }
      }
    }
    expect(tried).toBeGreaterThan(3000);
    expect(failures).toEqual([]);
  });

  it("stored nothing through those requests", async () => {
    const admin = client(t, await t.tokenFor("admin"));
    for (const kind of [
      "context-brokers",
      "identity-managers",
      "identity-manager-grants",
      "workspaces",
      "services",
    ]) {
      expect((await admin("GET", `/api/${kind}`)).body, kind).toEqual([]);
    }
  });

  it("still serves the normal form, and a permission regex sees the decoded, routed path", async () => {
    const viewer = await t.tokenFor("viewer");
    const headers = { authorization: `Bearer ${viewer}` };
    expect((await rawRequest(port, "GET", "/api/context-brokers", { headers })).status).toBe(200);
    // Encoded but routed: the router serves the list, so the viewer's GET ^/api/.* decides.
    expect((await rawRequest(port, "GET", "/%61pi/context-brokers", { headers })).status).toBe(200);
    const exact = await t.tokenWith([{ action: "GET", resource: "^/api/context-brokers$" }]);
    const only = { authorization: `Bearer ${exact}` };
    expect((await rawRequest(port, "GET", "/api/context-br%6Fkers", { headers: only })).status).toBe(200);
    expect((await rawRequest(port, "GET", "/api/services", { headers: only })).status).toBe(403);
    // A parameter cannot add path segments: an encoded slash stays inside its segment.
    const one = await t.tokenWith([{ action: "GET", resource: "^/api/workspace/a/types$" }]);
    const answer = await rawRequest(port, "GET", "/api/workspace/b%2F..%2Fa/types", {
      headers: { authorization: `Bearer ${one}` },
    });
    expect(answer.status).toBe(403);
    expect(answer.json?.detail).toBe("You are not allowed to GET /api/workspace/b%2F..%2Fa/types.");
  });

  it("answers a malformed percent-encoding with a 400 problem", async () => {
    for (const target of ["/api/context-brokers/%E0%A4%A", "/api/context-brokers/%ED%A0%80", "/%zzpi/x"]) {
      const answer = await rawRequest(port, "GET", target);
      expect(answer.status, target).toBe(400);
      expect(answer.headers["content-type"], target).toMatch(/^application\/problem\+json/);
      expect(answer.json).toMatchObject({ status: 400, title: "Bad request" });
    }
  });
});
