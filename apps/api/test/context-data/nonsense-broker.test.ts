import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, readBody, type Listening } from "../../../../test/fakes/http.ts";
import { driver } from "../support/harness.ts";
import { useEmbeddedWorkspace } from "../support/embedded-workspace.ts";

// A broker behind a gateway that misbehaves: 200 with an empty body, with `null`, with an HTML page
// or with JSON of the wrong shape. Whatever the API cannot use is a 502 naming the broker, never a
// 500 nor a "success" that carries the page.

const ctx = useEmbeddedWorkspace();

type Nonsense = { status: number; body: string; type: string };
const html: Nonsense = { status: 200, body: "<!DOCTYPE html><title>Login</title>", type: "text/html" };
const empty: Nonsense = { status: 200, body: "", type: "application/json" };
const nullBody: Nonsense = { status: 200, body: "null", type: "application/json" };
const wrongShape: Nonsense = { status: 200, body: '{"hello":"world"}', type: "application/json" };

/** Forwards to the embedded broker, except the requests `answer` picks, which get nonsense. */
let answer: (method: string, path: string) => Nonsense | undefined = () => undefined;
let gateway: Listening;

beforeAll(async () => {
  gateway = await listen(async (req, res, url) => {
    const nonsense = answer(req.method!, url.pathname);
    if (nonsense) {
      res.writeHead(nonsense.status, { "content-type": nonsense.type });
      res.end(nonsense.body);
      return;
    }
    const body = await readBody(req);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k)),
    ) as Record<string, string>;
    // A gateway in front of the embedded broker holds a credential of its own (an administrator's).
    headers.authorization = `Bearer ${await ctx.t.tokenFor("admin")}`;
    const upstream = await fetch(`${ctx.base}${req.url}`, {
      method: req.method,
      headers,
      ...(body ? { body } : {}),
    });
    res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  const brokers = (await ctx.api("GET", "/api/context-brokers")).body as Array<{ id: string; name: string }>;
  const embedded = brokers.find((b) => b.name === "Embedded")!;
  const moved = await ctx.api("PUT", `/api/context-brokers/${embedded.id}`, {
    ...(await ctx.api("GET", `/api/context-brokers/${embedded.id}`)).body,
    port: Number(new URL(gateway.url).port),
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
});
afterAll(() => gateway?.close());

const id = "urn:ngsi-ld:Building:gateway";
const entityPath = () => `${ctx.path}/entities/${encodeURIComponent(id)}`;

describe(`a broker that answers nonsense (${driver})`, () => {
  it("creates an entity through the gateway when it behaves", async () => {
    answer = () => undefined;
    const created = await ctx.api("POST", `${ctx.path}/entities`, {
      id,
      type: "Building",
      floors: { type: "Property", value: 3 },
      temperature: { type: "Property", value: 10, observedAt: new Date().toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  for (const [what, nonsense] of [
    ["an HTML page", html],
    ["an empty body", empty],
    ["null", nullBody],
    ["JSON of another shape", wrongShape],
  ] as const) {
    it(`reading an entity answered with ${what} is a 502 naming the broker`, async () => {
      answer = (method, path) =>
        method === "GET" && path.startsWith("/ngsi-ld/v1/entities/") ? nonsense : undefined;
      const res = await ctx.api("GET", entityPath());
      expect(res.status).toBe(502);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        code: "broker.unusable",
        params: { broker: "Embedded", answered: 200 },
      });
      expect(res.body.detail).toMatch(
        /^The context broker Embedded answered 200 with .* where an entity was due\.$/,
      );
      expect(JSON.stringify(res.body)).not.toContain('"id":"urn:ngsi-ld:Building:gateway"');
    });

    it(`updating an attribute whose entity is answered with ${what} is a 502, and nothing is written`, async () => {
      answer = (method, path) =>
        method === "GET" && path.startsWith("/ngsi-ld/v1/entities/") ? nonsense : undefined;
      const res = await ctx.api("PUT", `${entityPath()}/attrs/floors`, { type: "Property", value: 99 });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe("broker.unusable");
      answer = () => undefined;
      expect((await ctx.api("GET", entityPath())).body.floors.value).toBe(3);
    });

    it(`a temporal history answered with ${what} is a 502`, async () => {
      answer = (method, path) => (path.startsWith("/ngsi-ld/v1/temporal/") ? nonsense : undefined);
      const res = await ctx.api(
        "GET",
        `${ctx.path}/temporal-entities/${encodeURIComponent(id)}/properties/${ctx.properties["Building.temperature"]}/temporal-services/${ctx.temporalServiceId}`,
      );
      expect(res.status).toBe(502);
      expect(res.body.code).toBe("broker.unusable");
    });

    it(`a list of entities answered with ${what} is a 502, not an empty list`, async () => {
      answer = (method, path) => (method === "GET" && path === "/ngsi-ld/v1/entities" ? nonsense : undefined);
      const res = await ctx.api("GET", `${ctx.path}/entities?typeId=${ctx.types.Building}`);
      expect(res.status).toBe(502);
      expect(res.body.code).toBe("broker.unusable");
    });
  }

  it("an import whose batch is answered with an HTML page reports the failure, not 'created: 1'", async () => {
    answer = (method, path) => (path.startsWith("/ngsi-ld/v1/entityOperations/") ? html : undefined);
    const csv = "id,type,name\r\nurn:ngsi-ld:Building:imported,Building,Imported\r\n";
    const res = await ctx.api("POST", `${ctx.path}/entities/import?typeId=${ctx.types.Building}`, csv, {
      "content-type": "text/csv",
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      code: "broker.unusable",
      params: { expected: { code: "broker.expected.ids" } },
    });
    // The same through the progress stream: its last line is the error, in the reader's language.
    const streamed = await ctx.api("POST", `${ctx.path}/entities/import?typeId=${ctx.types.Building}`, csv, {
      "content-type": "text/csv",
      accept: "application/x-ndjson",
      "accept-language": "fr",
    });
    const last = JSON.parse(String(streamed.raw).trim().split("\n").pop()!);
    expect(last.error).toMatchObject({ status: 502, code: "broker.unusable" });
    expect(last.error.detail, last.error.detail).toMatch(
      /^Le broker de contexte Embedded a répondu 200 avec un corps qui n’est pas du JSON/,
    );
  });

  it("says it in French, and names a gateway's error page without pasting it as the title", async () => {
    answer = (method, path) =>
      path.startsWith("/ngsi-ld/v1/entities/")
        ? { status: 503, body: "<html><body>Service Unavailable</body></html>", type: "text/html" }
        : undefined;
    const res = await ctx.api("GET", entityPath(), undefined, { "accept-language": "fr" });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "broker.failed", title: "Passerelle incorrecte" });
    expect(res.body.detail).toMatch(
      /^Le broker de contexte Embedded a échoué\u00a0: 503 Service Unavailable/,
    );
  });
});
