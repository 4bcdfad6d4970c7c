import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NgsiLdClient } from "@orrery/ngsi-ld";
import { startFakeSmartDataModels } from "../../../test/fakes/smart-data-models.ts";
import { loadConfig } from "../src/config.ts";
import { ngsi } from "./broker/ngsi.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

// GET /metrics (issue 38): Prometheus' text format, read here as a scraper reads it.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of a text exposition (format 0.0.4), checked line by line: every line is a comment
 * (# HELP / # TYPE), blank, or `name{label="value",...} number`, label values escaped as the
 * format says (\\, \", \n). A line of any other shape fails the test.
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const name = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const comment = new RegExp(`^# (HELP|TYPE) (${name}) (.*)$`).exec(line);
    if (comment) {
      if (comment[1] === "TYPE") types.set(comment[2]!, comment[3]!);
      continue;
    }
    const sample = new RegExp(
      `^(${name})(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*",?)*)\\})? (\\S+)$`,
    ).exec(line);
    expect(sample, `not a line of the exposition format: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (sample![2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = raw!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    const value = Number(sample![3] === "+Inf" ? Infinity : sample![3] === "-Inf" ? -Infinity : sample![3]);
    // prom-client writes NaN as "Nan" (an event loop not sampled yet); Prometheus reads any case of it.
    expect(Number.isNaN(value) && !/^nan$/i.test(sample![3]!), line).toBe(false);
    samples.push({ name: sample![1]!, labels, value });
  }
  return { samples, types };
}

/** The value of the sample with this name and (at least) these labels; 0 when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

let t: TestApp;
let admin: string;
let api: ReturnType<typeof client>;

async function scrape(): Promise<{ text: string; samples: Sample[]; types: Map<string, string> }> {
  const res = await t.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { text: res.body, ...parseExposition(res.body) };
}

beforeAll(async () => {
  t = await startTestApp({ PROXY_ALLOW_PRIVATE_NETWORKS: "true" });
  admin = await t.tokenFor("admin");
  api = client(t, admin);
});
afterAll(() => t?.close());

describe(`GET /metrics (${driver})`, () => {
  it("answers an administrator in Prometheus' text format, every line of which parses", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const { samples, types } = parseExposition(res.body);
    // prom-client's process metrics, under their usual names, and ours.
    expect(types.get("process_cpu_user_seconds_total")).toBe("counter");
    expect(valueOf(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(types.get("orrery_http_request_duration_seconds")).toBe("histogram");
    expect(types.get("orrery_peer_call_duration_seconds")).toBe("histogram");
    expect(types.get("orrery_broker_call_duration_seconds")).toBe("histogram");
    expect(types.get("orrery_enforcement_decisions_total")).toBe("counter");
    expect(types.get("orrery_component_health")).toBe("gauge");
    expect(types.get("orrery_live_channels")).toBe("gauge");
    expect(types.get("orrery_live_streams_open")).toBe("gauge");
    expect(valueOf(samples, "orrery_storage_info", { driver })).toBe(1);
    expect(valueOf(samples, "orrery_database_queries_total", { driver })).toBeGreaterThan(0);
  });

  it("is in the OpenAPI document, as Prometheus text", async () => {
    const doc = await api("GET", "/api/docs/json");
    expect(doc.status).toBe(200);
    expect(doc.body.paths["/metrics"]?.get).toMatchObject({ tags: ["metrics"] });
    expect(JSON.stringify(doc.body.paths["/metrics"].get)).toContain("text/plain");
  });

  it("refuses anyone but an administrator with problem+json: 401 without or with an unknown token, 403 for the other roles", async () => {
    const without = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(without.statusCode).toBe(401);
    expect(without.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(without.body)).toMatchObject({ status: 401 });
    const unknown = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: "Bearer .*+?(|\\`" },
    });
    expect(unknown.statusCode).toBe(401);
    for (const role of ["viewer", "operator", "showroom"]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${await t.tokenFor(role)}`, "accept-language": "fr" },
      });
      expect(res.statusCode, role).toBe(403);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      const body = JSON.parse(res.body);
      expect(body.detail).toContain("administrateurs");
      expect(res.body).not.toContain("process_cpu");
    }
  });

  it("counts a request under its route's pattern, never its URL: no id, token or query string in a label", async () => {
    const hostile = "urn:ngsi-ld:ContextBroker:.*+?(|\\`secret-id";
    const route = { method: "GET", route: "/api/context-brokers/:id", status_class: "4xx" };
    const before = valueOf((await scrape()).samples, "orrery_http_request_duration_seconds_count", route);
    const res = await api(
      "GET",
      `/api/context-brokers/${encodeURIComponent(hostile)}?access_token=query-secret`,
    );
    expect(res.status).toBe(404);
    const brokerGet = await ngsi(t)(
      "GET",
      `/entities/${encodeURIComponent("urn:ngsi-ld:Thing:entity-secret")}`,
    );
    expect(brokerGet.status).toBe(404);
    const { text, samples } = await scrape();
    expect(valueOf(samples, "orrery_http_request_duration_seconds_count", route)).toBe(before + 1);
    // The embedded broker's routes are routes too.
    expect(
      valueOf(samples, "orrery_http_request_duration_seconds_count", {
        method: "GET",
        route: "/ngsi-ld/v1/entities/:entityId",
        status_class: "4xx",
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const secret of ["secret-id", "query-secret", "entity-secret", admin])
      expect(text).not.toContain(secret);
    // A target no route matches has one label for all.
    await t.app.inject({ method: "GET", url: "/nothing-here/unmatched-secret" });
    expect((await scrape()).text).not.toContain("unmatched-secret");
  });

  it("counts the enforcement decisions of the embedded broker by holder, decision and reason", async () => {
    const noToken = { holder: "anonymous", decision: "deny", reason: "noToken" };
    const asAdmin = { holder: "user", decision: "permit", reason: "admin" };
    const before = (await scrape()).samples;
    const refused = await t.app.inject({ method: "GET", url: "/ngsi-ld/v1/types" });
    expect(refused.statusCode).toBe(401);
    expect((await ngsi(t)("GET", "/types")).status).toBe(200);
    const after = (await scrape()).samples;
    expect(valueOf(after, "orrery_enforcement_decisions_total", noToken)).toBe(
      valueOf(before, "orrery_enforcement_decisions_total", noToken) + 1,
    );
    expect(valueOf(after, "orrery_enforcement_decisions_total", asAdmin)).toBe(
      valueOf(before, "orrery_enforcement_decisions_total", asAdmin) + 1,
    );
  });

  it("counts calls to peers by kind and outcome: answered, an error status, refused", async () => {
    const host = await startFakeSmartDataModels();
    const closed = await closedPort();
    const proxy = (url: string) =>
      api("GET", `/api/proxies/smart-data-models?url=${encodeURIComponent(url)}`);
    const peer = (outcome: string) => ({ peer: "smart-data-models", outcome });
    const name = "orrery_peer_call_duration_seconds_count";
    try {
      const before = (await scrape()).samples;
      expect((await proxy(`${host.url}/AirQualityObserved/model.yaml`)).status).toBe(200);
      expect((await proxy(`${host.url}/NoSuchModel/model.yaml`)).status).toBe(502);
      expect((await proxy(`http://127.0.0.1:${closed}/model.yaml`)).status).toBe(502);
      const after = (await scrape()).samples;
      for (const outcome of ["ok", "4xx", "refused"])
        expect(valueOf(after, name, peer(outcome)), outcome).toBe(valueOf(before, name, peer(outcome)) + 1);
    } finally {
      await host.close();
    }
  });

  it("counts calls of the NGSI-LD client to brokers by implementation and outcome", async () => {
    const closed = await closedPort();
    const refused = { implementation: "scorpio", outcome: "refused" };
    const name = "orrery_broker_call_duration_seconds_count";
    const before = valueOf((await scrape()).samples, name, refused);
    const broker = new NgsiLdClient({ baseUrl: `http://127.0.0.1:${closed}`, implementationName: "scorpio" });
    await expect(broker.types()).rejects.toThrow();
    expect(valueOf((await scrape()).samples, name, refused)).toBe(before + 1);
  });

  it("shows the registered components' health by kind and state, as the Status page does", async () => {
    const closed = await closedPort();
    const broker = (name: string) => ({
      name,
      scheme: "http",
      host: "127.0.0.1",
      port: closed,
      paginationMaxLimit: 100,
      implementationName: "orion-ld",
      implementationVersion: "1.10.0",
    });
    const down = await api("POST", "/api/context-brokers", broker("Closed for metrics"));
    expect(down.status).toBe(201);
    expect((await api("POST", "/api/context-brokers", broker("Never checked"))).status).toBe(201);
    const health = (state: string) => ({ kind: "context-brokers", state });
    const before = (await scrape()).samples;
    expect(valueOf(before, "orrery_component_health", health("down"))).toBe(0);
    const checked = await api("POST", `/api/health/context-brokers/${encodeURIComponent(down.body.id)}`);
    expect(checked.body.state).toBe("down");
    const after = (await scrape()).samples;
    expect(valueOf(after, "orrery_component_health", health("down"))).toBe(1);
    expect(valueOf(after, "orrery_component_health", health("unchecked"))).toBe(
      valueOf(before, "orrery_component_health", health("unchecked")) - 1,
    );
    // A kind with no component is there at 0, not missing.
    expect(after.some((s) => s.name === "orrery_component_health" && s.labels.kind === "vc-verifiers")).toBe(
      true,
    );
  });

  it("shows the database pool of PostgreSQL (connections by state), and PGlite as the storage", async () => {
    const { samples } = await scrape();
    if (driver === "postgresql") {
      expect(valueOf(samples, "orrery_database_connections", { driver, state: "total" })).toBeGreaterThan(0);
      expect(
        samples.some((s) => s.name === "orrery_database_connections" && s.labels.state === "waiting"),
      ).toBe(true);
    } else expect(samples.some((s) => s.name === "orrery_database_connections")).toBe(false);
  });
});

describe(`METRICS_PORT (${driver})`, () => {
  it("serves GET /metrics without credentials on a port of its own, on 127.0.0.1, and nothing else", async () => {
    const other = await startTestApp({ METRICS_PORT: "0" });
    try {
      const address = other.metrics.address();
      expect(address?.address).toBe("127.0.0.1");
      const base = `http://127.0.0.1:${address!.port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(valueOf(parseExposition(await res.text()).samples, "orrery_storage_info", { driver })).toBe(1);
      const elsewhere = await fetch(`${base}/api/context-brokers`);
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.headers.get("content-type")).toBe("application/problem+json");
      // The main port still asks for an administrator.
      expect((await other.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(401);
    } finally {
      await other.close();
    }
    // Without METRICS_PORT there is none.
    expect(t.metrics.address()).toBeUndefined();
  });

  it("stops the start on a METRICS_PORT that is not a port, or is the API's own", () => {
    expect(() => loadConfig({ METRICS_PORT: "9x" })).toThrow(/METRICS_PORT must be a port number/);
    expect(() => loadConfig({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ PORT: "3000", METRICS_PORT: "3000" })).toThrow(/must differ from PORT/);
    expect(loadConfig({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({
      port: 9464,
      host: "0.0.0.0",
    });
  });
});

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
