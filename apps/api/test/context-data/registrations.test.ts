import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../../test/fakes/browser.ts";
import { client, driver, startTestApp, type TestApp } from "../support/harness.ts";

/**
 * The API's proxy of a context broker's registrations (/api/context-brokers/:id/registrations),
 * over real HTTP to the app's own embedded broker, as the console's broker page uses it.
 */
let t: TestApp;
let api: ReturnType<typeof client>;
let base: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: base });
  await t.app.listen({ port, host: "127.0.0.1" });
  api = client(t, await t.tokenFor("admin"));
});
afterAll(() => t?.close());

const brokerRecord = async (implementationName: string, extra: Record<string, unknown> = {}) =>
  (
    await api("POST", "/api/context-brokers", {
      name: `Embedded as ${implementationName} ${Math.random().toString(36).slice(2, 6)}`,
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(base).port),
      paginationMaxLimit: 100,
      implementationName,
      implementationVersion: "1",
      ...extra,
    })
  ).body as { id: string };

const newRegistration = {
  registrationName: "Depot vehicles",
  endpoint: "http://depot.example.org:1026",
  information: [{ entities: [{ type: "Vehicle" }], propertyNames: ["speed"], relationshipNames: [] }],
};

describe(`a broker's registrations through the API (${driver})`, () => {
  it("lists, creates and deletes registrations of the embedded broker", async () => {
    const broker = await brokerRecord("orrery", { multiTenancyEnabled: true });
    const tenant = `regs${Date.now().toString(36)}`;
    const list = () => api("GET", `/api/context-brokers/${broker.id}/registrations?tenant=${tenant}`);
    // A tenant nobody wrote to does not exist yet at the broker.
    const before = await list();
    expect(before.status).toBe(404);
    expect(before.headers["content-type"]).toMatch(/^application\/problem\+json/);

    const created = await api(
      "POST",
      `/api/context-brokers/${broker.id}/registrations?tenant=${tenant}`,
      newRegistration,
    );
    expect(created.status, created.raw).toBe(201);
    expect(created.body).toMatchObject({
      type: "ContextSourceRegistration",
      registrationName: "Depot vehicles",
      endpoint: "http://depot.example.org:1026",
      // The empty relationshipNames was dropped before it reached the broker.
      information: [{ entities: [{ type: "Vehicle" }], propertyNames: ["speed"] }],
      mode: "inclusive",
    });
    const id = created.body.id as string;
    expect(id).toMatch(/^urn:ngsi-ld:ContextSourceRegistration:/);
    expect((await list()).body.map((r: { id: string }) => r.id)).toEqual([id]);
    // The default tenant does not see it.
    const defaultTenant = await api("GET", `/api/context-brokers/${broker.id}/registrations`);
    expect(defaultTenant.body.map((r: { id: string }) => r.id)).not.toContain(id);

    const viewer = client(t, await t.tokenFor("viewer"));
    expect(
      (await viewer("GET", `/api/context-brokers/${broker.id}/registrations?tenant=${tenant}`)).status,
    ).toBe(200);
    expect(
      (await viewer("POST", `/api/context-brokers/${broker.id}/registrations`, newRegistration)).status,
    ).toBe(403);
    expect(
      (
        await viewer(
          "DELETE",
          `/api/context-brokers/${broker.id}/registrations/${encodeURIComponent(id)}?tenant=${tenant}`,
        )
      ).status,
    ).toBe(403);

    const removed = await api(
      "DELETE",
      `/api/context-brokers/${broker.id}/registrations/${encodeURIComponent(id)}?tenant=${tenant}`,
    );
    expect(removed.status).toBe(204);
    expect((await list()).body).toEqual([]);
    const again = await api(
      "DELETE",
      `/api/context-brokers/${broker.id}/registrations/${encodeURIComponent(id)}?tenant=${tenant}`,
    );
    expect(again.status).toBe(404);
    expect(again.body.detail).toContain("does not exist");
  });

  it("refuses bad input with problem+json, and passes the broker's own refusal on readably", async () => {
    const broker = await brokerRecord("orrery");
    const bad = await api("POST", `/api/context-brokers/${broker.id}/registrations`, {
      ...newRegistration,
      endpoint: "ftp://x.org",
      information: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const hostile = await api(
      "GET",
      `/api/context-brokers/${broker.id}/registrations?tenant=${encodeURIComponent(".*+?(|\\")}`,
    );
    expect(hostile.status).toBe(400);
    const exclusive = await api("POST", `/api/context-brokers/${broker.id}/registrations`, {
      ...newRegistration,
      mode: "exclusive",
    });
    expect(exclusive.status).toBe(422);
    expect(exclusive.body.detail).toMatch(/refused: .*mode exclusive is not supported/);
    expect(exclusive.body.brokerProblem.type).toBe(
      "https://uri.etsi.org/ngsi-ld/errors/OperationNotSupported",
    );
    // A Stellio profile lists without local=true: the embedded broker refuses that, and the API says why.
    const asStellio = await brokerRecord("stellio");
    const refused = await api("GET", `/api/context-brokers/${asStellio.id}/registrations`);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain("needs at least one of");
    expect(
      (await api("GET", "/api/context-brokers/urn:ngsi-ld:ContextBroker:none/registrations")).status,
    ).toBe(404);
  });

  it("an unreachable broker is 502 naming it", async () => {
    const broker = (
      await api("POST", "/api/context-brokers", {
        name: "Nowhere broker",
        scheme: "http",
        host: "127.0.0.1",
        port: 9,
        paginationMaxLimit: 100,
        implementationName: "scorpio",
        implementationVersion: "5",
      })
    ).body as { id: string };
    const r = await api("GET", `/api/context-brokers/${broker.id}/registrations`);
    expect(r.status).toBe(502);
    expect(r.body.detail).toContain("Nowhere broker");
  });

  it("explains a broker registered as https that speaks plain HTTP as its connection check does, in English and French", async () => {
    const port = Number(new URL(base).port);
    const broker = await brokerRecord("orion-ld", { scheme: "https", name: "Plain broker (.*+?|\\)" });
    const path = `/api/context-brokers/${broker.id}/registrations`;
    const en = await api("GET", path);
    expect(en.status).toBe(502);
    expect(en.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(en.body.detail).toBe(
      `The context broker Plain broker (.*+?|\\) could not be reached. It does not speak TLS at 127.0.0.1:${port}: is its scheme http rather than https?`,
    );
    expect(JSON.stringify(en.body)).not.toMatch(/SSL routines|wrong version number|ssl3_get_record/i);
    const fr = await api("GET", path, undefined, { "accept-language": "fr" });
    expect(fr.body.detail).toBe(
      `Le broker de contexte Plain broker (.*+?|\\) est injoignable. Il ne parle pas TLS à 127.0.0.1:${port}\u00a0: son schéma serait-il http plutôt que https\u00a0?`,
    );
  });
});
