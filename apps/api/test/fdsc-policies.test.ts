import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { odrlOf, type PolicyDraft } from "@orrery/model/odrl";
import { startFakePap, type FakePap } from "../../../test/fakes/odrl-pap.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";
import { rawRequest } from "./support/raw-http.ts";

// ODRL policies of a workspace whose service is in FDSC mode, written to and read from a fake
// ODRL-PAP over HTTP as the real one answers (Rego as text, Location with the bare id, ...).

const ctx = useTestApp();
let pap: FakePap;
let silentPap: FakePap;
const ids: Record<string, string> = {};

async function ok(method: string, url: string, body?: unknown) {
  const res = await ctx.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const papRecord = (name: string, url: string, validation: boolean) =>
  ok("POST", "/api/policy-administration-points", {
    ...samplePayload("policy-administration-points", () => ""),
    name,
    host: "127.0.0.1",
    port: Number(new URL(url).port),
    validation,
  }).then((r) => r.id as string);

/** A workspace on a service in FDSC mode with this PAP (and PAP service). */
async function fdscWorkspace(name: string, papId: string, papServiceId?: string) {
  const service = await ok("POST", "/api/services", {
    name: `${name} service`,
    hasContextBroker: ids.broker,
    authorizationRequired: true,
    authorizationMode: "fdsc",
    hasPolicyAdministrationPoint: papId,
    hasCredentialsConfigService: ids.ccs,
    hasTrustedIssuersList: ids.til,
    clientId: "data-service",
    ...(papServiceId ? { papServiceId } : {}),
  });
  const workspace = await ok("POST", "/api/workspaces", {
    name,
    dataModelName: name.toLowerCase(),
    hasService: service.id,
  });
  return `/api/workspace/${workspace.id}/odrl-policies`;
}

const draft = (uid: string, actions = ["odrl:read"]): PolicyDraft => ({
  uid,
  assignee: { kind: "role", role: "OPERATOR", credentialType: "OperatorCredential" },
  actions,
  target: { kind: "entityType", entityType: "K8SCluster" },
  constraints: [],
});

beforeAll(async () => {
  [pap, silentPap] = await Promise.all([startFakePap({ validation: true }), startFakePap()]);
  ids.broker = (
    await ok(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    )
  ).id;
  ids.ccs = (
    await ok(
      "POST",
      "/api/credentials-config-services",
      samplePayload("credentials-config-services", () => ""),
    )
  ).id;
  ids.til = (
    await ok(
      "POST",
      "/api/trusted-issuers-lists",
      samplePayload("trusted-issuers-lists", () => ""),
    )
  ).id;
  ids.pap = await papRecord("Provider PAP", pap.url, true);
  ids.silentPap = await papRecord("PAP without OPA", silentPap.url, false);
});
afterAll(() => Promise.all([pap?.close(), silentPap?.close()]));

describe(`ODRL policies of a workspace (${driver})`, () => {
  it("are refused for a workspace whose service is not in FDSC mode", async () => {
    const service = await ok("POST", "/api/services", { name: "Open", hasContextBroker: ids.broker });
    const workspace = await ok("POST", "/api/workspaces", {
      name: "Open",
      dataModelName: "open",
      hasService: service.id,
    });
    const res = await ctx.api("GET", `/api/workspace/${workspace.id}/odrl-policies`, undefined, {
      "accept-language": "fr",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "fdsc.notFdsc" });
    expect(res.body.detail).toContain("n’est pas en mode FIWARE Data Space Connector");
  });

  it("are created, listed, shown with the Rego the PAP generated, edited and deleted in the PAP", async () => {
    const path = await fdscWorkspace("Operators", ids.pap);
    const made = await ctx.api("POST", path, { odrl: odrlOf(draft("urn:orrery:policy:operators-read")) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { id } = made.body;
    expect(id).toMatch(/^[a-z]{10}$/);
    expect(made.headers.location).toBe(`${path}/${id}`);
    expect(made.body.uid).toBe("urn:orrery:policy:operators-read");
    expect(made.body.rego).toMatch(new RegExp(`^package policy\\.${id}\\b`));
    expect(made.body.odrl["odrl:permission"]["odrl:action"]).toEqual({ "@id": "odrl:read" });
    // It is in the PAP, which is where OPA reads it from.
    expect(pap.policies.get(id)?.uid).toBe("urn:orrery:policy:operators-read");

    expect((await ok("GET", path)).map((p: { id: string }) => p.id)).toContain(id);
    expect(await ok("GET", `${path}/${id}`)).toMatchObject({ id, uid: "urn:orrery:policy:operators-read" });

    const edited = await ok("PUT", `${path}/${id}`, {
      odrl: odrlOf(draft("urn:orrery:policy:operators-read", ["odrl:read", "odrl:modify"])),
    });
    expect(edited.odrl["odrl:permission"].map((p: any) => p["odrl:action"]["@id"])).toEqual([
      "odrl:read",
      "odrl:modify",
    ]);
    expect(edited.rego).toContain("is_modify");

    expect((await ctx.api("DELETE", `${path}/${id}`)).status).toBe(204);
    const gone = await ctx.api("GET", `${path}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("pap.noPolicy");
  });

  it("answers the PAP's refusals as problems: its mapper's message for invalid ODRL, 409 for main", async () => {
    const path = await fdscWorkspace("Refusals", ids.pap);
    const invalid = await ctx.api("POST", path, { odrl: { ...odrlOf(draft("urn:x")), "@type": "odrl:Set" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: "pap.invalidPolicy" });
    expect(invalid.body.detail).toContain("The odrl does not contain valid policies.");
    const main = await ctx.api("PUT", `${path}/main`, { odrl: odrlOf(draft("urn:main")) });
    expect(main.status).toBe(409);
    expect(main.body.detail).toContain("Policy `main` cannot be manually modified.");
    // An id with the characters of a regular expression or a path goes as one encoded segment.
    const hostile = await ctx.api("GET", `${path}/${encodeURIComponent(".*+?(|\\/..")}`);
    expect(hostile.status).toBe(404);
    expect(await ctx.api("POST", path, { odrl: "not an object" }).then((r) => r.status)).toBe(400);
  });

  it("go to the service's own PAP service when it names one, made on the first write", async () => {
    const path = await fdscWorkspace("Scoped", ids.pap, "orrery-scoped");
    expect(await ok("GET", path)).toEqual([]);
    const made = await ok("POST", path, { odrl: odrlOf(draft("urn:orrery:policy:scoped")) });
    expect(pap.services.has("orrery-scoped")).toBe(true);
    expect(pap.policies.get(made.id)?.service).toBe("orrery-scoped");
    expect((await ok("GET", path)).map((p: { id: string }) => p.id)).toEqual([made.id]);
  });

  it("refuse the ids . and .. with a sentence, never sending /service/{id}/ to the PAP", async () => {
    const path = await fdscWorkspace("Dots", ids.pap, "orrery-dots");
    const kept = await ok("POST", path, { odrl: odrlOf(draft("urn:orrery:policy:dots")) });
    expect(pap.services.has("orrery-dots")).toBe(true);
    // Over a real connection: a client that does not normalise the path sends its dots as they are.
    await ctx.t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = ctx.t.app.server.address() as AddressInfo;
    const authorization = `Bearer ${await ctx.t.tokenFor("admin")}`;
    const odrl = JSON.stringify({ odrl: odrlOf(draft("urn:orrery:policy:dots")) });
    for (const segment of [".", "..", "%2E", "%2e%2E", encodeURIComponent("%2e%2e")]) {
      for (const method of ["DELETE", "GET", "PUT"]) {
        const res = await rawRequest(port, method, `${path}/${segment}`, {
          headers: { authorization, "accept-language": "fr" },
          ...(method === "PUT" ? { body: odrl } : {}),
        });
        expect(res.status, `${method} ${segment} ${res.body}`).toBe(400);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(res.json?.code).toBe("pap.dotId");
        expect(res.json?.detail).toContain("dans un chemin");
      }
    }
    // The PAP service and its policy are still there.
    expect(pap.services.has("orrery-dots")).toBe(true);
    expect(pap.policies.get(kept.id)?.service).toBe("orrery-dots");
  });

  it("are validated by the PAP's /validate, when it has one", async () => {
    const path = await fdscWorkspace("Validation", ids.pap);
    const odrl = odrlOf(draft("urn:orrery:policy:validate"));
    const request = {
      method: "GET",
      path: "/ngsi-ld/v1/entities?type=K8SCluster",
      credentialType: "OperatorCredential",
    };
    expect(
      await ok("POST", `${path}/validate`, { odrl, request: { ...request, roles: ["OPERATOR"] } }),
    ).toEqual({
      allow: true,
    });
    const denied = await ok("POST", `${path}/validate`, { odrl, request: { ...request, roles: ["READER"] } });
    expect(denied.allow).toBe(false);
    const write = await ok("POST", `${path}/validate`, {
      odrl,
      request: { ...request, method: "DELETE", roles: ["OPERATOR"] },
    });
    expect(write.allow).toBe(false);
    const silent = await fdscWorkspace("Silent", ids.silentPap);
    const refused = await ctx.api("POST", `${silent}/validate`, { odrl, request });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("pap.noValidation");
  });

  it("say which PAP could not be reached, as a 502", async () => {
    const gone = await startFakePap();
    const papId = await papRecord("Gone PAP", gone.url, false);
    await gone.close();
    const path = await fdscWorkspace("Unreachable", papId);
    const res = await ctx.api("GET", path);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "pap.unreachable" });
    expect(res.body.detail).toContain("Gone PAP");
  });
});
