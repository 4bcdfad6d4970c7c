import { describe, expect, it } from "vitest";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// Bytes no storage keeps and nesting that overflows whatever recurses over it: each is a 400
// problem before any handler runs, on every route, and nothing is stored.

const ctx = useEmbeddedWorkspace();

const concrete = (url: string, value: string) =>
  url.replace(":workspaceId", encodeURIComponent(ctx.workspace.id)).replace(/:\w+/g, value);

const nul = '{"name":"a\\u0000b","description":"x"}';
const lone = '{"name":"a\\ud800b","description":"x"}';
const deep = `{"name":"deep","value":${"[".repeat(5000)}${"]".repeat(5000)}}`;

async function expectRefused(
  method: string,
  url: string,
  payload: string | undefined,
  what: RegExp,
  status = 400,
) {
  const res = await ctx.t.app.inject({
    method: method as "POST",
    url,
    headers: {
      authorization: `Bearer ${await ctx.t.tokenFor("admin")}`,
      ...(payload ? { "content-type": "application/json" } : {}),
    },
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  expect(res.headers["content-type"], `${method} ${url}`).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(res.body).detail, `${method} ${url}`).toMatch(what);
}

describe(`hostile input on the API (${driver})`, () => {
  const writes = () =>
    ctx.t.routes.filter((r) => ["POST", "PUT", "PATCH"].includes(r.method) && r.access === "permission");

  it("refuses a NUL byte, a lone surrogate and 5,000-deep nesting in the body of every write route", async () => {
    expect(writes().length).toBeGreaterThan(30);
    for (const route of writes()) {
      const url = concrete(route.url, "urn:ngsi-ld:Thing:1");
      await expectRefused(route.method, url, nul, /NUL/);
      await expectRefused(route.method, url, lone, /surrogate/);
      await expectRefused(route.method, url, deep, /nested deeper than 100 levels/);
    }
  });

  it("answers 404 for an id no storage can keep, on every route taking one, and refuses them in query values", async () => {
    // Outside /api: the public thing descriptions, the data models' contexts, the development
    // identity manager (Keyrock's management API).
    const outside = [
      "GET /wot-thing-descriptions/:id",
      "GET /data-models/:name/:version/context.jsonld",
      "GET /data-models/:name/:version/:typeName/context.jsonld",
      "GET /idm/v1/applications/:app/roles",
      "POST /idm/v1/applications/:app/roles",
      "GET /idm/v1/applications/:app/users/:user/roles",
      "DELETE /idm/v1/applications/:app/permissions/:permission",
    ].map((r) => ({ method: r.split(" ")[0]!, url: r.split(" ")[1]! }));
    const routes = [...ctx.t.routes.filter((r) => /:\w+/.test(r.url)), ...outside];
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      const url = route.url.replace(/:\w+/g, "urn:x%00y");
      await expectRefused(route.method, url, undefined, /Nothing can exist at this path.*NUL/, 404);
    }
    // And a body no storage can keep, outside /api too.
    await expectRefused(
      "POST",
      "/idm/v1/applications/app/roles",
      '{"role":{"name":"a\\u0000"}}',
      /body.*NUL/,
    );
    const entities = `/api/workspace/${encodeURIComponent(ctx.workspace.id)}/entities?type=Building`;
    await expectRefused(
      "GET",
      `${entities}&q=${encodeURIComponent('name=="a\u0000"')}`,
      undefined,
      /query.*NUL/,
    );
    await expectRefused(
      "GET",
      `/api/workspace/${encodeURIComponent("urn:x\u0000")}/types`,
      undefined,
      /parameter workspaceId contains a NUL/,
      404,
    );
  });

  it("stored nothing", async () => {
    const admin = ctx.api;
    for (const kind of ["context-brokers", "identity-managers", "data-actions", "services"]) {
      const names = ((await admin("GET", `/api/${kind}`)).body as Array<{ name: string }>).map((r) => r.name);
      expect(
        names.filter((n) => !n.startsWith("Embedded")),
        kind,
      ).toEqual([]);
    }
    const workspaces = (await admin("GET", "/api/workspaces")).body as unknown[];
    expect(workspaces).toHaveLength(1);
    const entities = await admin("GET", `${ctx.path}/entities?type=Building`);
    expect(entities.body).toEqual([]);
  });

  it("keeps accepting well-formed text: emoji (surrogate pairs) and other scripts", async () => {
    const res = await ctx.api("POST", "/api/data-actions", { name: "Lire 📖 данные 読む" });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Lire 📖 данные 読む");
  });
});
