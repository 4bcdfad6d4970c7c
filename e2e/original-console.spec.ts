import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { bearer, signIn } from "./support.ts";

/*
 * The original console's bodies, exactly as the spec (shared/spec/) has them, sent over real HTTP to
 * the server `npm start` runs, with a session token as the original sends it (`Authorization:
 * <token_type> <token>`): its two grant forms, which have no peer field, a workspace without temporal
 * services (`temporalServices: []`, whose `.length` its workspace page reads), and a property created
 * in that workspace. The grants are then used as the original uses them: the identity manager grant
 * in a service, the registry grant in the registry tool against the fake iSHARE registry.
 */

interface FakeRegistryFile {
  url: string;
  registry: { identifier: string; certificates: string[] };
  client: { identifier: string; certificates: string[]; privateKey: string };
}

type Headers = Record<string, string>;

async function send(
  request: APIRequestContext,
  headers: Headers,
  method: string,
  url: string,
  data?: unknown,
) {
  const res = await request.fetch(url, { method, headers, ...(data !== undefined ? { data } : {}) });
  const text = await res.text();
  return { status: res.status(), body: text ? JSON.parse(text) : undefined };
}

async function named(request: APIRequestContext, headers: Headers, path: string, name: string) {
  const { body } = await send(request, headers, "GET", path);
  const found = (body as Array<{ id: string; name: string }>).find((r) => r.name === name);
  expect(found, `${name} in ${path}`).toBeTruthy();
  return found!.id;
}

async function sessionOf(page: Page): Promise<Headers> {
  await signIn(page, "admin");
  return bearer(page);
}

test("the original console's grant forms create grants, which bind to the first peer they are used with", async ({
  page,
  request,
}) => {
  const headers = await sessionOf(page);
  const stamp = Date.now();

  // identityManagerGrants.create: name, description (dropped when empty), grantType, clientId,
  // clientSecret, username and password for the password grant.
  const grant = await send(request, headers, "POST", "/api/identity-manager-grants", {
    name: `Original grant ${stamp}`,
    grantType: "password",
    clientId: "original-console",
    clientSecret: "original-secret",
    username: "admin",
    password: "admin",
  });
  expect(grant.status, JSON.stringify(grant.body)).toBe(201);
  expect(grant.body).toMatchObject({ grantType: "password", clientSecret: { set: true } });

  // services.create with it (oauth2: hasIdentityManager and hasIdentityManagerGrant).
  const keyrock = await named(request, headers, "/api/identity-managers", "Keyrock (example)");
  const broker = await named(request, headers, "/api/context-brokers", "Embedded broker");
  const service = await send(request, headers, "POST", "/api/services", {
    name: `Original service ${stamp}`,
    hasContextBroker: broker,
    authorizationRequired: true,
    authorizationMode: "oauth2",
    hasIdentityManager: keyrock,
    hasIdentityManagerGrant: grant.body.id,
  });
  expect(service.status, JSON.stringify(service.body)).toBe(201);
  const bound = await send(request, headers, "GET", `/api/identity-manager-grants/${grant.body.id}`);
  expect(bound.body.hasIdentityManager).toBe(keyrock);
  // Another identity manager for it, in the temporal service form: refused, saying why.
  const other = await named(request, headers, "/api/identity-managers", "Development identity manager");
  const mintaka = await send(request, headers, "POST", "/api/temporal-services", {
    name: `Original Mintaka ${stamp}`,
    temporalServiceType: "mintaka",
    version: "0.7.1",
    scheme: "http",
    host: "mintaka",
    port: 8080,
    authorizationRequired: true,
    hasIdentityManager: other,
    hasIdentityManagerGrant: grant.body.id,
  });
  expect(mintaka.status).toBe(400);
  expect(mintaka.body.errors[0].message).toBe(
    `refers to “Original grant ${stamp}”, which belongs to “Keyrock (example)”, not to the chosen “Identity manager”`,
  );

  // authorizationRegistryGrants.create: name, description, identifier, certificates, privateKey.
  const fake = JSON.parse(readFileSync(process.env.E2E_REGISTRY_FILE!, "utf8")) as FakeRegistryFile;
  const { hostname, port } = new URL(fake.url);
  const registry = await send(request, headers, "POST", "/api/authorization-registries", {
    name: `Original registry ${stamp}`,
    ...fake.registry,
    scheme: "http",
    host: hostname,
    port: Number(port),
    oauth2TokenPath: "/oauth2/token",
    delegationPath: "/ar/delegation",
    policyPath: "/ar/policy",
    implementationName: "keyrock",
    implementationVersion: "8.4.0",
  });
  expect(registry.status, JSON.stringify(registry.body)).toBe(201);
  const key = await send(request, headers, "POST", "/api/authorization-registry-grants", {
    name: `Original key ${stamp}`,
    description: "The key of the original console's form",
    identifier: fake.client.identifier,
    certificates: fake.client.certificates,
    privateKey: fake.client.privateKey,
  });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  expect(key.body).not.toHaveProperty("hasAuthorizationRegistry");

  // tools.authorizationRegistries.home: a policy, then a delegation request, with the two chosen.
  const query = new URLSearchParams({
    authorizationRegistryId: registry.body.id,
    authorizationRegistryGrantId: key.body.id,
  });
  const now = Math.floor(Date.now() / 1000);
  const policies = [
    {
      target: { resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] }, actions: ["GET"] },
      rules: [{ effect: "Permit" }],
    },
  ];
  const subject = { accessSubject: `original_console_${stamp}` };
  const policy = await send(
    request,
    headers,
    "POST",
    `/api/proxies/authorization-registry/create-policy?${query}`,
    {
      delegationEvidence: {
        notBefore: now,
        notOnOrAfter: now + 3600,
        policyIssuer: fake.client.identifier,
        target: subject,
        policySets: [
          { maxDelegationDepth: 1, target: { environment: { licenses: ["ISHARE.0001"] } }, policies },
        ],
      },
    },
  );
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  const delegation = await send(
    request,
    headers,
    "POST",
    `/api/proxies/authorization-registry/request-delegation?${query}`,
    {
      delegationRequest: {
        policyIssuer: fake.client.identifier,
        target: subject,
        policySets: [{ policies }],
      },
    },
  );
  expect(delegation.status, JSON.stringify(delegation.body)).toBe(200);
  const keyNow = await send(request, headers, "GET", `/api/authorization-registry-grants/${key.body.id}`);
  expect(keyNow.body.hasAuthorizationRegistry).toBe(registry.body.id);
});

test("a workspace without temporal services is answered with temporalServices: [], and takes a property", async ({
  page,
  request,
}) => {
  const headers = await sessionOf(page);
  const stamp = Date.now();
  const service = await named(request, headers, "/api/services", "Demo service");
  // workspaces.create: no identity manager (null), no offers, no temporal service chosen.
  const workspace = await send(request, headers, "POST", "/api/workspaces", {
    name: `Original workspace ${stamp}`,
    dataModelName: `original-${stamp}`,
    hasService: service,
    temporalServices: [],
    enableOffers: false,
    hasIdentityManager: null,
  });
  expect(workspace.status, JSON.stringify(workspace.body)).toBe(201);
  expect(workspace.body.temporalServices).toEqual([]);
  const id = workspace.body.id as string;
  const read = await send(request, headers, "GET", `/api/workspaces/${encodeURIComponent(id)}`);
  expect(read.body.temporalServices).toEqual([]);
  const listed = await send(request, headers, "GET", "/api/workspaces");
  expect((listed.body as Array<{ id: string }>).find((w) => w.id === id)).toMatchObject({
    temporalServices: [],
  });

  // The workspace page then offers types and properties: one of each, as its forms send them.
  const path = `/api/workspace/${encodeURIComponent(id)}`;
  const type = await send(request, headers, "POST", `${path}/types`, {
    name: "Shelf",
    dataModelGroup: null,
    standardDataModelBased: false,
    hasWorkspace: id,
  });
  expect(type.status, JSON.stringify(type.body)).toBe(201);
  const property = await send(request, headers, "POST", `${path}/properties`, {
    name: "numberOfItems",
    ngsiLdType: "Property",
    propertyNgsiLdValueType: "Number",
    standard: false,
    mandatory: false,
    temporal: false,
    temporalServices: [],
    hasType: type.body.id,
    hasWorkspace: id,
  });
  expect(property.status, JSON.stringify(property.body)).toBe(201);
  expect(property.body).toMatchObject({ name: "numberOfItems", temporalServices: [] });
});
