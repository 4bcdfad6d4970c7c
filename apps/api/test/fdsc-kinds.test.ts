import { describe, expect, it } from "vitest";
import { samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

// The FIWARE Data Space Connector's components as platform records, and a service in FDSC mode.

const ctx = useTestApp();

async function ok(method: string, url: string, body?: unknown) {
  const res = await ctx.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe(`FDSC components and mode (${driver})`, () => {
  it("registers a policy administration point and a credentials configuration service with implementation and version", async () => {
    const pap = await ok("POST", "/api/policy-administration-points", {
      ...samplePayload("policy-administration-points", () => ""),
      validation: true,
    });
    expect(pap).toMatchObject({
      implementationName: "odrl-pap",
      implementationVersion: "1.4.3",
      validation: true,
    });
    const wrong = await ctx.api("POST", "/api/credentials-config-services", {
      ...samplePayload("credentials-config-services", () => ""),
      implementationName: "keyrock",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ path: "implementationName" })]);
    for (const implementationName of ["fiware-credentials-config-service", "fiware-vc-verifier"]) {
      const ccs = await ok("POST", "/api/credentials-config-services", {
        ...samplePayload("credentials-config-services", () => ""),
        name: `CCS ${implementationName}`,
        implementationName,
      });
      expect(ccs.implementationName).toBe(implementationName);
    }
    const list = await ok("GET", "/api/policy-administration-points");
    expect(list.map((p: { name: string }) => p.name)).toContain("PAP 1");
  });

  it("lets a service choose the FDSC mode with the references it needs, and drops them in another mode", async () => {
    const broker = await ok(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    const pap = await ok("POST", "/api/policy-administration-points", {
      ...samplePayload("policy-administration-points", () => ""),
      name: "PAP for mode",
    });
    const ccs = await ok("POST", "/api/credentials-config-services", {
      ...samplePayload("credentials-config-services", () => ""),
      name: "CCS for mode",
    });
    const til = await ok(
      "POST",
      "/api/trusted-issuers-lists",
      samplePayload("trusted-issuers-lists", () => ""),
    );
    const base = { name: "FDSC service", hasContextBroker: broker.id, authorizationRequired: true };
    const missing = await ctx.api("POST", "/api/services", { ...base, authorizationMode: "fdsc" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "clientId",
      "hasCredentialsConfigService",
      "hasPolicyAdministrationPoint",
      "hasTrustedIssuersList",
    ]);
    const fdsc = {
      ...base,
      authorizationMode: "fdsc",
      hasPolicyAdministrationPoint: pap.id,
      hasCredentialsConfigService: ccs.id,
      hasTrustedIssuersList: til.id,
      clientId: "data-service",
      papServiceId: "orrery",
    };
    const made = await ok("POST", "/api/services", fdsc);
    expect(made).toMatchObject({
      authorizationMode: "fdsc",
      papServiceId: "orrery",
      clientId: "data-service",
    });
    // A PAP that a service uses cannot go.
    expect((await ctx.api("DELETE", `/api/policy-administration-points/${pap.id}`)).status).toBe(409);
    const { id: _id, ...fields } = made;
    const oauth = await ctx.api("PUT", `/api/services/${made.id}`, {
      ...fields,
      authorizationMode: "oauth2",
    });
    expect(oauth.status).toBe(400);
    const none = await ok("PUT", `/api/services/${made.id}`, { ...fields, authorizationRequired: false });
    expect(none).not.toHaveProperty("hasPolicyAdministrationPoint");
    expect(none).not.toHaveProperty("papServiceId");
    expect(none).not.toHaveProperty("clientId");
  });
});
