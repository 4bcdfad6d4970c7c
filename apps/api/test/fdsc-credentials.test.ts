import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startFakeCredentialsConfig,
  type CcsVariant,
  type FakeCredentialsConfig,
} from "../../../test/fakes/credentials-config.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

// The credential configuration of a service in FDSC mode, written to the standalone Credentials
// Config Service and to the verifier's own /service API (fakes answering as each does), read back.

const ctx = useTestApp();
const fakes: Partial<Record<CcsVariant, FakeCredentialsConfig>> = {};
const services: Partial<Record<CcsVariant, string>> = {};
let tilUrl: string;

async function ok(method: string, url: string, body?: unknown) {
  const res = await ctx.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The connector's operator scope: an OperatorCredential from the local TIL, embedded whole, its roles kept. */
const operatorScope = (til: string) => ({
  defaultOidcScope: "operator",
  authorizationType: "DEEPLINK",
  oidcScopes: {
    operator: {
      credentials: [
        {
          type: "OperatorCredential",
          trustedParticipantsLists: [
            "https://tir.127.0.0.1.nip.io",
            { type: "gaia-x", url: "https://registry.gaia-x.eu" },
          ],
          trustedIssuersLists: [til],
          jwtInclusion: {
            enabled: true,
            fullInclusion: false,
            claimsToInclude: [{ originalKey: "roles", newKey: "roles" }],
          },
        },
      ],
      // Not edited by Orrery: kept as it was.
      dcql: { credentials: [{ id: "op", format: "jwt_vc_json" }] },
    },
  },
});

beforeAll(async () => {
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const pap = await ok(
    "POST",
    "/api/policy-administration-points",
    samplePayload("policy-administration-points", () => ""),
  );
  const til = await ok(
    "POST",
    "/api/trusted-issuers-lists",
    samplePayload("trusted-issuers-lists", () => ""),
  );
  tilUrl = "http://til:8080";
  for (const variant of ["ccs", "verifier"] as const) {
    const fake = await startFakeCredentialsConfig({ variant });
    fakes[variant] = fake;
    const ccs = await ok("POST", "/api/credentials-config-services", {
      ...samplePayload("credentials-config-services", () => ""),
      name: `CCS ${variant}`,
      host: "127.0.0.1",
      port: Number(new URL(fake.url).port),
      implementationName: variant === "ccs" ? "fiware-credentials-config-service" : "fiware-vc-verifier",
    });
    services[variant] = (
      await ok("POST", "/api/services", {
        name: `Service ${variant}`,
        hasContextBroker: broker.id,
        authorizationRequired: true,
        authorizationMode: "fdsc",
        hasPolicyAdministrationPoint: pap.id,
        hasCredentialsConfigService: ccs.id,
        hasTrustedIssuersList: til.id,
        clientId: `packet-delivery-${variant}`,
      })
    ).id;
  }
});
afterAll(() => Promise.all(Object.values(fakes).map((f) => f.close())));

describe.each(["ccs", "verifier"] as const)(
  `a service's credential configuration at the %s (${driver})`,
  (variant) => {
    const path = () => `/api/services/${services[variant]}/credential-configuration`;

    it("is absent until written, then created at the component under the client id, and read back", async () => {
      const none = await ctx.api("GET", path());
      expect(none.status).toBe(404);
      expect(none.body.code).toBe("ccs.noConfiguration");
      const written = await ok("PUT", path(), operatorScope(tilUrl));
      expect(written).toMatchObject({ id: `packet-delivery-${variant}`, component: `CCS ${variant}` });
      expect(written.configuration.oidcScopes.operator.credentials[0].jwtInclusion.claimsToInclude).toEqual([
        { originalKey: "roles", newKey: "roles" },
      ]);
      const kept = fakes[variant]!.services.get(`packet-delivery-${variant}`)!;
      expect(kept.oidcScopes.operator.dcql).toEqual({ credentials: [{ id: "op", format: "jwt_vc_json" }] });
      expect(await ok("GET", path())).toEqual(written);
    });

    it("is replaced by a second write (a scope added), and says the component's reason when it refuses", async () => {
      const config = operatorScope(tilUrl);
      const more = {
        ...config,
        oidcScopes: {
          ...config.oidcScopes,
          customer: { credentials: [{ type: "CustomerCredential", trustedIssuersLists: [tilUrl] }] },
        },
      };
      const written = await ok("PUT", path(), more);
      expect(Object.keys(written.configuration.oidcScopes).sort()).toEqual(["customer", "operator"]);
      const duplicate = await ctx.api("PUT", path(), {
        ...config,
        oidcScopes: {
          operator: {
            credentials: [
              {
                type: "OperatorCredential",
                jwtInclusion: {
                  claimsToInclude: [
                    { originalKey: "a", newKey: "x" },
                    { originalKey: "b", newKey: "x" },
                  ],
                },
              },
            ],
          },
        },
      });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toMatchObject({ code: "ccs.invalid" });
      expect(duplicate.body.detail).toContain("Configuration contains duplicate claim keys.");
      const noScope = await ctx.api("PUT", path(), { ...config, defaultOidcScope: "nowhere" });
      expect(noScope.status).toBe(400);
      expect(noScope.body.errors).toEqual([
        expect.objectContaining({ path: "defaultOidcScope", code: "ccs.defaultScope" }),
      ]);
      const empty = await ctx.api("PUT", path(), {
        ...config,
        oidcScopes: { operator: { credentials: [] } },
      });
      expect(empty.status).toBe(400);
    });

    it("is removed from the component", async () => {
      expect((await ctx.api("DELETE", path())).status).toBe(204);
      expect(fakes[variant]!.services.has(`packet-delivery-${variant}`)).toBe(false);
      expect((await ctx.api("GET", path())).status).toBe(404);
      expect(await ok("GET", `${path()}/defaults`)).toEqual({
        clientId: `packet-delivery-${variant}`,
        trustedIssuersList: "http://til:8080",
      });
    });
  },
);

describe(`credential configuration outside FDSC mode (${driver})`, () => {
  it("is refused for a service in another mode", async () => {
    const broker = await ok(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    const service = await ok("POST", "/api/services", { name: "Plain", hasContextBroker: broker.id });
    const res = await ctx.api("GET", `/api/services/${service.id}/credential-configuration`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("fdsc.notFdsc");
  });
});
