import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

let t: TestApp;
let routes: TestApp["routes"];
beforeAll(async () => {
  t = await startTestApp();
  routes = t.routes;
});
afterAll(() => t.close());

const concrete = (url: string) =>
  url
    .replace(":workspaceId", "urn:ngsi-ld:Workspace:x")
    .replace(":id", "urn:ngsi-ld:Thing:00000000-0000-4000-8000-000000000000");

describe(`every /api route checks access on the server (${driver})`, () => {
  it("knows the route table", () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it("answers 401 problem+json without a token, and with an unknown token, on every protected route", async () => {
    for (const r of routes.filter((r) => r.access !== "public")) {
      for (const headers of [{}, { authorization: "Bearer not-a-session" }, { authorization: "Basic abc" }]) {
        const res = await t.app.inject({ method: r.method as "GET", url: concrete(r.url), headers });
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      }
    }
  });

  it("answers 403 to a signed-in user without the permission, on every permission-checked route", async () => {
    const token = await t.tokenWith([{ action: "GET", resource: "^/nothing$" }]);
    for (const r of routes.filter((r) => r.access === "permission")) {
      const res = await t.app.inject({
        method: r.method as "GET",
        url: concrete(r.url),
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ status: 403, title: "Forbidden" });
    }
  });

  it("lets a viewer read but not write, and an operator work in workspaces only", async () => {
    const viewer = client(t, await t.tokenFor("viewer"));
    expect((await viewer("GET", "/api/context-brokers")).status).toBe(200);
    expect((await viewer("POST", "/api/context-brokers", {})).status).toBe(403);
    const operator = client(t, await t.tokenFor("operator"));
    expect((await operator("GET", "/api/services")).status).toBe(200);
    expect((await operator("DELETE", "/api/services/urn:ngsi-ld:Service:1")).status).toBe(403);
  });

  it("gives the showroom user GET on the literal /showroom, the lists and no platform administration", async () => {
    const showroom = client(t, await t.tokenFor("showroom"));
    const permissions = (await showroom("GET", "/api/authorization/permissions")).body;
    expect(permissions).toContainEqual({ action: "GET", resource: "/showroom", exact: true });
    expect((await showroom("GET", "/api/context-brokers")).status).toBe(200);
    expect((await showroom("GET", "/api/context-brokers/urn:ngsi-ld:ContextBroker:1")).status).toBe(403);
    expect((await showroom("POST", "/api/context-brokers", {})).status).toBe(403);
  });
});
