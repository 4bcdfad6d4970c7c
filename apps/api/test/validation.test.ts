import { beforeAll, describe, expect, it } from "vitest";
import { client, driver, useTestApp } from "./support/harness.ts";
import { samplePayload } from "../../../test/samples/platform.ts";

const ctx = useTestApp();
const api: ReturnType<typeof client> = (...args) => ctx.api(...args);

const none = () => "";
// The peers grants are made for.
const peers: Record<string, string> = {};
beforeAll(async () => {
  for (const kind of ["identity-managers", "authorization-registries"])
    peers[kind] = (await api("POST", `/api/${kind}`, samplePayload(kind, none))).body.id;
});
const post = (kind: string, patch: Record<string, unknown>) =>
  api("POST", `/api/${kind}`, { ...samplePayload(kind, (peer) => peers[peer] ?? ""), ...patch });

describe(`validation answers 400 problem+json naming every invalid field (${driver})`, () => {
  it.each([
    ["context-brokers", { port: 70_000 }, "port"],
    ["context-brokers", { port: "1026" }, "port"],
    ["context-brokers", { paginationMaxLimit: 0 }, "paginationMaxLimit"],
    ["context-brokers", { implementationName: "orion" }, "implementationName"],
    ["context-brokers", { customHeaders: { "bad header": "x" } }, "customHeaders.bad header"],
    ["identity-managers", { scheme: "ftp" }, "scheme"],
    ["identity-managers", { oauth2TokenPath: "token" }, "oauth2TokenPath"],
    ["identity-manager-grants", { grantType: "implicit" }, "grantType"],
    ["temporal-services", { port: -1 }, "port"],
    ["authorization-registry-grants", { privateKey: "line one\nline two" }, "privateKey"],
    ["authorization-registry-grants", { certificates: ["a", "b"] }, "certificates"],
    ["authorization-registries", { policyPath: "" }, "policyPath"],
    ["vc-verifiers", { did: "verifier" }, "did"],
    ["trusted-issuers-lists", { host: "http://til" }, "host"],
  ])("%s with %j is refused at %s", async (kind, patch, path) => {
    const res = await post(kind, patch);
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, title: "The submitted data is invalid" });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    // The sentence names the field as the form does, by its quoted label (its name may be a word of
    // what is expected: "a host name", "did:web:..."); `errors` keeps its name.
    expect(res.body.detail).toMatch(/^“[^”]+” /);
    // A pattern says what it expects, never the name of the check ("must be a valid regex").
    expect(res.body.detail).not.toContain("regex");
  });

  it("names every missing field at once", async () => {
    const res = await api("POST", "/api/context-brokers", {});
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      [
        "host",
        "implementationName",
        "implementationVersion",
        "name",
        "paginationMaxLimit",
        "port",
        "scheme",
      ].sort(),
    );
  });

  it("refuses unknown fields, a non-object body and malformed JSON", async () => {
    expect((await post("context-brokers", { colour: "red" })).body.errors[0].message).toContain("colour");
    expect((await api("POST", "/api/context-brokers", [1, 2])).status).toBe(400);
    const malformed = await ctx.t.app.inject({
      method: "POST",
      url: "/api/context-brokers",
      headers: {
        authorization: `Bearer ${await ctx.t.tokenFor("admin")}`,
        "content-type": "application/json",
      },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers["content-type"]).toMatch(/problem\+json/);
  });

  it("applies the clearing rules on the server", async () => {
    const broker = (
      await post("context-brokers", { disableCertificateVerification: true, customHeaders: {} })
    ).body;
    expect(broker).not.toHaveProperty("disableCertificateVerification");
    expect(broker).not.toHaveProperty("customHeaders");
    const https = (await post("context-brokers", { scheme: "https" })).body;
    expect(https.disableCertificateVerification).toBe(false);

    const grant = (await post("identity-manager-grants", { grantType: "client_credentials" })).body;
    expect(grant).not.toHaveProperty("username");
    expect(grant).not.toHaveProperty("password");

    const ngsi = (await post("temporal-services", { temporalServiceType: "ngsi-ld" })).body;
    expect(Object.keys(ngsi).sort()).toEqual(["id", "name", "temporalServiceType"]);
  });

  it("needs the authorization fields of the chosen service mode, and drops the others", async () => {
    const broker = (await post("context-brokers", {})).body.id;
    const res = await api("POST", "/api/services", {
      name: "S",
      hasContextBroker: broker,
      authorizationRequired: true,
      authorizationMode: "siop2",
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "hasVCVerifier",
      "hasTrustedIssuersList",
      "clientId",
    ]);
    const off = await api("POST", "/api/services", {
      name: "S",
      hasContextBroker: broker,
      authorizationRequired: false,
      authorizationMode: "siop2",
      clientId: "x",
    });
    expect(off.status).toBe(201);
    expect(Object.keys(off.body).sort()).toEqual(["authorizationRequired", "hasContextBroker", "id", "name"]);
  });

  it("refuses a reference to a record that does not exist or is of another kind", async () => {
    const idm = (await post("identity-managers", {})).body.id;
    const res = await api("POST", "/api/services", { name: "S", hasContextBroker: idm });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        path: "hasContextBroker",
        message: "refers to no existing context broker",
        code: "field.unknownReference",
        params: { kind: "context-brokers" },
      },
    ]);
  });
});
