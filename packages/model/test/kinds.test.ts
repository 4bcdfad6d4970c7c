import { describe, expect, it } from "vitest";
import {
  authorizationRegistries,
  authorizationRegistryGrants,
  contextBrokers,
  identityManagerGrants,
  identityManagers,
  normalize,
  platformKinds,
  services,
  temporalServices,
  trustedIssuersLists,
  vcVerifiers,
  type KindDefinition,
} from "../src/index.ts";
import { writeSchema } from "../src/schema.ts";
import { samplePayload } from "../../../test/samples/platform.ts";

function check(kind: KindDefinition, input: unknown, mode: "create" | "update" = "create") {
  const result = writeSchema(kind, mode).safeParse(input);
  return {
    ok: result.success,
    value: result.success ? (result.data as Record<string, unknown>) : undefined,
    paths: result.success ? [] : result.error.issues.map((i) => i.path.join(".")),
  };
}

const none = () => "";
const { customHeaders: _h, ...broker } = samplePayload("context-brokers", none);
const idm = samplePayload("identity-managers", none);
const urn = (t: string) => `urn:ngsi-ld:${t}:8f7d3a52-0c1e-4b8e-9a51-1f2e3d4c5b6a`;
const registryGrant = samplePayload("authorization-registry-grants", () => urn("AuthorizationRegistry"));
const registry = samplePayload("authorization-registries", none);
const cert = (registry.certificates as string[])[0]!;

describe("every kind", () => {
  it.each(platformKinds.map((k) => [k.kind, k] as const))(
    "%s reports each missing required field",
    (_n, kind) => {
      const required = kind.fields
        .filter((f) => f.required && !f.when && f.default === undefined)
        .map((f) => f.name);
      expect(check(kind, {}).paths.sort()).toEqual(required.sort());
    },
  );
  it("rejects unknown fields and non-objects", () => {
    expect(check(contextBrokers, { ...broker, colour: "red" }).paths).toEqual([""]);
    expect(check(contextBrokers, "broker").ok).toBe(false);
    expect(check(contextBrokers, [broker]).ok).toBe(false);
  });
  it("ignores a client-sent id", () => {
    expect(check(contextBrokers, { ...broker, id: "urn:x" }).value).not.toHaveProperty("id");
  });
  it("keeps a name without its surrounding spaces, and a name of spaces alone is none", () => {
    expect(check(contextBrokers, { ...broker, name: "  Orion (.*+?(|\\) \t" }).value?.name).toBe(
      "Orion (.*+?(|\\)",
    );
    expect(check(contextBrokers, { ...broker, name: "   " }).paths).toEqual(["name"]);
    // Secrets are what they are: a password keeps its spaces.
    const grant = samplePayload("identity-manager-grants", () => urn("IdentityManager"));
    expect(check(identityManagerGrants, { ...grant, password: " spaced " }).value?.password).toBe(" spaced ");
  });
});

describe("context broker", () => {
  it("accepts a complete broker and fills defaults", () => {
    const r = check(contextBrokers, broker);
    expect(r.ok).toBe(true);
    expect(r.value).toMatchObject({ multiTenancyEnabled: false });
    expect(r.value).not.toHaveProperty("disableCertificateVerification");
  });
  it.each([
    [{ port: 65_536 }, "port"],
    [{ port: -1 }, "port"],
    [{ port: 80.5 }, "port"],
    [{ port: "80" }, "port"],
    [{ paginationMaxLimit: 0 }, "paginationMaxLimit"],
    [{ paginationMaxLimit: 1.5 }, "paginationMaxLimit"],
    [{ implementationName: "fiware-orion" }, "implementationName"],
    [{ scheme: "ftp" }, "scheme"],
    [{ host: "http://orion.example.org" }, "host"],
    [{ host: "orion.example.org/path" }, "host"],
    [{ path: "ngsi-ld" }, "path"],
    [{ customHeaders: { "Bad Header": "x" } }, "customHeaders.Bad Header"],
    [{ customHeaders: { "X-Ok": "two\nlines" } }, "customHeaders.X-Ok"],
    [{ multiTenancyEnabled: "yes" }, "multiTenancyEnabled"],
  ])("rejects %j at %s", (patch, path) => {
    expect(check(contextBrokers, { ...broker, ...patch }).paths).toEqual([path]);
  });
  it("accepts the port bounds 0 and 65535", () => {
    expect(check(contextBrokers, { ...broker, port: 0 }).ok).toBe(true);
    expect(check(contextBrokers, { ...broker, port: 65_535 }).ok).toBe(true);
  });
  it("drops disableCertificateVerification when the scheme is not https", () => {
    expect(
      check(contextBrokers, { ...broker, disableCertificateVerification: true }).value,
    ).not.toHaveProperty("disableCertificateVerification");
  });
  it("sets disableCertificateVerification to false when switching to https", () => {
    expect(check(contextBrokers, { ...broker, scheme: "https" }).value).toMatchObject({
      disableCertificateVerification: false,
    });
    expect(
      check(contextBrokers, { ...broker, scheme: "https", disableCertificateVerification: true }).value,
    ).toMatchObject({
      disableCertificateVerification: true,
    });
  });
  it("drops an emptied header map, an empty description and an empty path", () => {
    const r = check(contextBrokers, { ...broker, customHeaders: {}, description: "", path: "" });
    expect(r.value).not.toHaveProperty("customHeaders");
    expect(r.value).not.toHaveProperty("description");
    expect(r.value).not.toHaveProperty("path");
    expect(
      check(contextBrokers, { ...broker, customHeaders: { "X-Api-Key": "k" } }).value?.customHeaders,
    ).toEqual({
      "X-Api-Key": "k",
    });
  });
});

describe("identity manager and its grant", () => {
  it("drops an empty userPath and requires oauth2TokenPath", () => {
    expect(check(identityManagers, { ...idm, userPath: "" }).value).not.toHaveProperty("userPath");
    const { oauth2TokenPath: _t, ...rest } = idm;
    expect(check(identityManagers, rest).paths).toEqual(["oauth2TokenPath"]);
  });
  it("defaults the only implementation", () => {
    const { implementationName: _n, ...rest } = idm;
    expect(check(identityManagers, rest).value?.implementationName).toBe("keyrock");
  });
  const grant = {
    name: "G",
    hasIdentityManager: urn("IdentityManager"),
    grantType: "client_credentials",
    clientId: "c",
    clientSecret: "s",
  };
  it("asks the console's form for the peer it was made for, and takes the spec's shape without it", () => {
    const { hasIdentityManager: _m, ...rest } = grant;
    const form = (kind: KindDefinition, input: unknown) =>
      writeSchema(kind, "create", "form")
        .safeParse(input)
        .error?.issues.map((i) => i.path.join("."));
    expect(form(identityManagerGrants, rest)).toEqual(["hasIdentityManager"]);
    expect(check(identityManagerGrants, rest).ok).toBe(true);
    const { hasAuthorizationRegistry: _r, ...key } = registryGrant;
    expect(form(authorizationRegistryGrants, key)).toEqual(["hasAuthorizationRegistry"]);
    expect(check(authorizationRegistryGrants, key).ok).toBe(true);
  });
  it("requires username and password only for the password grant", () => {
    expect(check(identityManagerGrants, grant).ok).toBe(true);
    expect(check(identityManagerGrants, { ...grant, grantType: "password" }).paths.sort()).toEqual([
      "password",
      "username",
    ]);
  });
  it("clears username and password when the grant type is not password", () => {
    const r = check(identityManagerGrants, { ...grant, username: "u", password: "p" });
    expect(r.value).not.toHaveProperty("username");
    expect(r.value).not.toHaveProperty("password");
  });
  it("lets an update omit the secrets, but not a create", () => {
    const { clientSecret: _s, ...rest } = grant;
    expect(check(identityManagerGrants, rest).paths).toEqual(["clientSecret"]);
    expect(check(identityManagerGrants, rest, "update").ok).toBe(true);
  });
  it("rejects an unknown grant type", () => {
    expect(check(identityManagerGrants, { ...grant, grantType: "implicit" }).paths).toEqual(["grantType"]);
  });
});

describe("service", () => {
  const service = { name: "S", hasContextBroker: urn("ContextBroker") };
  it("defaults authorizationRequired to false and needs a broker", () => {
    expect(check(services, service).value).toMatchObject({ authorizationRequired: false });
    expect(check(services, { name: "S" }).paths).toEqual(["hasContextBroker"]);
    expect(check(services, { ...service, hasContextBroker: "not-a-urn" }).paths).toEqual([
      "hasContextBroker",
    ]);
  });
  it("requires a mode when authorization is required", () => {
    expect(check(services, { ...service, authorizationRequired: true }).paths).toEqual(["authorizationMode"]);
  });
  it("requires the identity manager and grant for oauth2", () => {
    expect(
      check(services, { ...service, authorizationRequired: true, authorizationMode: "oauth2" }).paths,
    ).toEqual(["hasIdentityManager", "hasIdentityManagerGrant"]);
  });
  it("requires verifier, issuers list and client id for siop2", () => {
    expect(
      check(services, { ...service, authorizationRequired: true, authorizationMode: "siop2" }).paths,
    ).toEqual(["hasVCVerifier", "hasTrustedIssuersList", "clientId"]);
  });
  const everything = {
    ...service,
    authorizationRequired: true,
    hasIdentityManager: urn("IdentityManager"),
    hasIdentityManagerGrant: urn("IdentityManagerGrant"),
    hasVCVerifier: urn("VCVerifier"),
    hasTrustedIssuersList: urn("TrustedIssuersList"),
    clientId: "client",
  };
  it("choosing oauth2 clears verifier, issuers list and client id", () => {
    expect(
      Object.keys(check(services, { ...everything, authorizationMode: "oauth2" }).value ?? {}).sort(),
    ).toEqual([
      "authorizationMode",
      "authorizationRequired",
      "hasContextBroker",
      "hasIdentityManager",
      "hasIdentityManagerGrant",
      "name",
    ]);
  });
  it("choosing siop2 clears identity manager and grant", () => {
    const r = check(services, { ...everything, authorizationMode: "siop2" });
    expect(r.value).not.toHaveProperty("hasIdentityManager");
    expect(r.value).not.toHaveProperty("hasIdentityManagerGrant");
    expect(r.value).toMatchObject({ clientId: "client" });
  });
  it("turning authorization off clears every authorization field", () => {
    const r = check(services, { ...everything, authorizationMode: "siop2", authorizationRequired: false });
    expect(Object.keys(r.value ?? {}).sort()).toEqual(["authorizationRequired", "hasContextBroker", "name"]);
  });
});

describe("temporal service", () => {
  const mintaka = {
    name: "M",
    temporalServiceType: "mintaka",
    version: "0.7",
    scheme: "https",
    host: "mintaka",
    port: 8080,
  };
  it("requires the mintaka fields only for mintaka", () => {
    expect(check(temporalServices, { name: "T", temporalServiceType: "ngsi-ld" }).ok).toBe(true);
    expect(check(temporalServices, { name: "T", temporalServiceType: "mintaka" }).paths.sort()).toEqual([
      "host",
      "port",
      "scheme",
      "version",
    ]);
    expect(check(temporalServices, { ...mintaka, port: 70_000 }).paths).toEqual(["port"]);
  });
  it("drops the mintaka fields when the type is ngsi-ld", () => {
    const r = check(temporalServices, {
      ...mintaka,
      temporalServiceType: "ngsi-ld",
      authorizationRequired: true,
    });
    expect(Object.keys(r.value ?? {}).sort()).toEqual(["name", "temporalServiceType"]);
  });
  it("applies the https rule and the authorization rule", () => {
    expect(check(temporalServices, mintaka).value).toMatchObject({
      disableCertificateVerification: false,
      authorizationRequired: false,
    });
    expect(check(temporalServices, { ...mintaka, authorizationRequired: true }).paths).toEqual([
      "hasIdentityManager",
      "hasIdentityManagerGrant",
    ]);
    const off = check(temporalServices, {
      ...mintaka,
      hasIdentityManager: urn("IdentityManager"),
      authorizationRequired: false,
    });
    expect(off.value).not.toHaveProperty("hasIdentityManager");
  });
});

describe("authorization registry and grant", () => {
  it("accept valid records", () => {
    expect(check(authorizationRegistryGrants, registryGrant).ok).toBe(true);
    expect(check(authorizationRegistries, registry).ok).toBe(true);
  });
  it("require exactly three certificates, on one line each, without PEM tags", () => {
    expect(
      check(authorizationRegistryGrants, { ...registryGrant, certificates: [cert, cert] }).paths,
    ).toEqual(["certificates"]);
    expect(
      check(authorizationRegistryGrants, { ...registryGrant, certificates: [cert, "ab\ncd", cert] }).paths,
    ).toEqual(["certificates.1"]);
    expect(
      check(authorizationRegistryGrants, {
        ...registryGrant,
        certificates: ["-----BEGIN CERTIFICATE-----MIIB", cert, cert],
      }).paths,
    ).toEqual(["certificates.0"]);
  });
  it("refuse a private key with line breaks or tags", () => {
    expect(check(authorizationRegistryGrants, { ...registryGrant, privateKey: "abc\ndef" }).paths).toEqual([
      "privateKey",
    ]);
    expect(
      check(authorizationRegistryGrants, { ...registryGrant, privateKey: "-----BEGIN PRIVATE KEY-----abc" })
        .paths,
    ).toEqual(["privateKey"]);
  });
  it("registry paths must be paths", () => {
    expect(check(authorizationRegistries, { ...registry, delegationPath: "delegation" }).paths).toEqual([
      "delegationPath",
    ]);
  });
});

describe("verifier and issuers list", () => {
  const verifier = {
    name: "V",
    did: "did:web:verifier.example.org",
    scheme: "http",
    host: "verifier",
    port: 8080,
    implementationVersion: "6.0.0",
  };
  it("checks the DID and defaults the implementation", () => {
    expect(check(vcVerifiers, verifier).value?.implementationName).toBe("fiware-vc-verifier");
    expect(check(vcVerifiers, { ...verifier, did: "web:verifier" }).paths).toEqual(["did"]);
  });
  it("requires host and port on a trusted issuers list", () => {
    expect(
      check(trustedIssuersLists, { name: "T", scheme: "http", implementationVersion: "1" }).paths.sort(),
    ).toEqual(["host", "port"]);
  });
});

describe("normalize", () => {
  it("leaves non-objects alone so that validation can report them", () => {
    expect(normalize(contextBrokers, null)).toBe(null);
  });
});

describe("broker client", () => {
  it("takes tenant names and the default tenant as an empty string, each once", async () => {
    const { brokerClients } = await import("../src/index.ts");
    const base = { name: "Shelf counter", access: "read" };
    expect(check(brokerClients, { ...base, tenants: ["", "supermarket"] }).ok).toBe(true);
    expect(check(brokerClients, { name: "x", tenants: [""] }).value).toMatchObject({ access: "read" });
    expect(check(brokerClients, { ...base, tenants: ["super market"] }).paths).toEqual(["tenants.0"]);
    expect(check(brokerClients, { ...base, tenants: ["a", "b", "a"] }).paths).toEqual(["tenants.2"]);
    expect(check(brokerClients, { ...base, tenants: [] }).paths).toEqual(["tenants"]);
    expect(check(brokerClients, { ...base, tenants: ["a"], access: "admin" }).paths).toEqual(["access"]);
    // The server sets these; a client's are dropped.
    expect(check(brokerClients, { ...base, tenants: ["a"], revoked: false }).value).not.toHaveProperty(
      "revoked",
    );
  });
});
