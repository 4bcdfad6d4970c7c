import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeKeyrock, type FakeKeyrock } from "../../../test/fakes/keyrock.ts";
import { isAllowed } from "@orrery/model";
import { keyrockManagement } from "../src/auth/keyrock-management.ts";
import { client, driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// The users of a workspace (spec section 7), read and changed through its identity manager over
// HTTP: the development identity manager of the same process (/idm/v1), and a fake Keyrock that
// answers as Keyrock 8.4 does (201 for the user list, 404 for an empty list, roles created on
// demand, the management token reused).

const ctx = useEmbeddedWorkspace();
const admin = { email: "idm-admin@test.com", password: "kr-admin-password-5d1c" };
const fakes: FakeKeyrock[] = [];
let detailId = "";

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Points the workspace at an identity manager (address and grant) and returns nothing. */
async function wire(url: string, grant: Record<string, unknown> = {}, path?: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const idm = await ok("POST", "/api/identity-managers", {
    name: `IdM ${fakes.length}-${Date.now()}`,
    scheme: "http",
    host: hostname,
    port: Number(port),
    ...(path ? { path } : {}),
    oauth2TokenPath: "/oauth2/token",
    implementationName: "keyrock",
    implementationVersion: "8.4.0",
  });
  const created = await ok("POST", "/api/identity-manager-grants", {
    name: `Grant ${Date.now()}-${Math.random()}`,
    hasIdentityManager: idm.id,
    grantType: "password",
    clientId: "market-app",
    clientSecret: "client-secret-91f2",
    username: admin.email,
    password: admin.password,
    ...grant,
  });
  const { id, ...workspace } = await ok("GET", `/api/workspaces/${ctx.workspace.id}`);
  await ok("PUT", `/api/workspaces/${id}`, {
    ...workspace,
    hasIdentityManager: idm.id,
    hasIdentityManagerGrant: created.id,
  });
}

async function keyrock(options: { adminManagesRoles?: boolean; adminIsAdministrator?: boolean } = {}) {
  const fake = await startFakeKeyrock({
    clientId: "market-app",
    clientSecret: "client-secret-91f2",
    admin,
    users: [
      { id: "u-ada", username: "ada", email: "ada@test.com", password: "x", roles: ["r-tenant"] },
      { id: "u-bob", username: "bob", email: "bob@test.com", password: "x", roles: [] },
    ],
    roles: [{ id: "r-tenant", name: "tenant-ada", permissions: [] }],
    ...options,
  });
  fakes.push(fake);
  return fake;
}

beforeAll(async () => {
  const { path } = ctx;
  const role = await ok("POST", `${path}/roles`, {
    name: "Tenant",
    notBefore: 1_767_225_600,
    notOnOrAfter: 1_798_761_600,
    dataServiceProviderId: "did:web:provider.example.org",
    verifiableCredentialType: "TenantCredential",
  });
  const contract = await ok("POST", `${path}/contracts`, {
    stakeholderDid: "did:web:retailer.example.org",
    stakeholderName: "Retailer",
    validFromTime: 1_767_225_600,
    validToTime: 1_798_761_600,
    verifiableCredentialType: "RetailerCredential",
  });
  for (const roleScopeName of ["tenant-ada", "visitor"]) {
    const detail = await ok("POST", `${path}/contract-details`, {
      hasContract: contract.id,
      hasRole: role.id,
      roleScopeName,
    });
    detailId ||= detail.id;
  }
});

afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

describe(`users of a workspace (${driver})`, () => {
  it("need an identity manager with a password grant, and say what to configure", async () => {
    const { api, path } = ctx;
    const none = await api("GET", `${path}/users`);
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("users.noIdentityManager");
    await wire(
      ctx.base,
      { grantType: "client_credentials", username: undefined, password: undefined },
      "/idm",
    );
    const clientCredentials = await api("GET", `${path}/users`);
    expect(clientCredentials.status).toBe(400);
    expect(clientCredentials.body.code).toBe("users.notPasswordGrant");
    const french = await api("GET", `${path}/users`, undefined, { "accept-language": "fr" });
    expect(french.body.detail).toMatch(/accès par mot de passe/);
  });

  it("are the development identity manager's demo users, whose roles are assigned and removed", async () => {
    const { api, path } = ctx;
    await wire(ctx.base, { username: "admin", password: "admin" }, "/idm");
    const listed = await api("GET", `${path}/users`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.map((u: { username: string }) => u.username)).toEqual([
      "admin",
      "operator",
      "showroom",
      "viewer",
    ]);
    expect(listed.body[0]).toEqual({
      id: "admin",
      username: "admin",
      email: "admin@example.org",
      roles: [],
      organizationRoles: [],
    });

    expect((await api("POST", `${path}/users/viewer/roles/tenant-ada`)).status).toBe(204);
    expect((await api("POST", `${path}/users/viewer/roles/tenant-ada`)).status).toBe(204); // idempotent
    expect((await api("POST", `${path}/users/viewer/roles/visitor`)).status).toBe(204);
    const after = (await api("GET", `${path}/users`)).body.find((u: { id: string }) => u.id === "viewer");
    expect(after.roles).toEqual(["tenant-ada", "visitor"]);

    expect((await api("DELETE", `${path}/users/viewer/roles/tenant-ada`)).status).toBe(204);
    const again = await api("DELETE", `${path}/users/viewer/roles/tenant-ada`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("users.notHeld");
    const nobody = await api("POST", `${path}/users/nobody/roles/visitor`);
    expect(nobody.status).toBe(404);
    expect(nobody.body.code).toBe("users.unknownUser");
    const unnamed = await api("POST", `${path}/users/viewer/roles/stranger`);
    expect(unnamed.status).toBe(404);
    expect(unnamed.body.code).toBe("users.roleNotInContracts");
  });

  it("refuse the console's own roles, as contract roles and in assignment, saying why", async () => {
    const { api, path } = ctx;
    await wire(ctx.base, { username: "admin", password: "admin" }, "/idm");
    const [contract] = (await api("GET", `${path}/contracts`)).body;
    const [detail] = (await api("GET", `${path}/contract-details`)).body;
    for (const roleScopeName of ["admin", "Operator", "showroom "]) {
      const named = await api("POST", `${path}/contract-details`, {
        hasContract: contract.id,
        hasRole: detail.hasRole,
        roleScopeName,
      });
      expect(named.status, roleScopeName).toBe(400);
      expect(named.body.errors).toEqual([
        expect.objectContaining({ path: "roleScopeName", code: "contractDetail.consoleRole" }),
      ]);
    }
    const { id, ...fields } = detail;
    const renamed = await api(
      "PUT",
      `${path}/contract-details/${id}`,
      { ...fields, roleScopeName: "viewer" },
      {
        "accept-language": "fr",
      },
    );
    expect(renamed.status).toBe(400);
    expect(renamed.body.errors[0].message).toMatch(/rôle de la console/);
    // Whoever asks, and whether or not a detail names it (one stored before this check would).
    const assign = await api("POST", `${path}/users/viewer/roles/admin`);
    expect(assign.status).toBe(403);
    expect(assign.body.code).toBe("users.consoleRole");
    expect(assign.body.detail).toContain("config/permissions.yaml");
    expect(
      (await api("GET", `${path}/users`)).body.find((u: { id: string }) => u.id === "viewer").roles,
    ).not.toContain("admin");
  });

  it("refuse any role when the workspace uses the console's own application", async () => {
    const { api, path } = ctx;
    // The development identity manager's console application: its roles are the demo users'.
    await wire(ctx.base, { username: "admin", password: "admin", clientId: "orrery-console" }, "/idm");
    const listed = (await api("GET", `${path}/users`)).body;
    expect(listed.find((u: { id: string }) => u.id === "admin").roles).toEqual(["admin"]);
    const assign = await api("POST", `${path}/users/viewer/roles/tenant-ada`);
    expect(assign.status).toBe(403);
    expect(assign.body.code).toBe("users.consoleApplication");
    expect((await api("DELETE", `${path}/users/admin/roles/tenant-ada`)).body.code).toBe(
      "users.consoleApplication",
    );
    const sync = await api("POST", `${path}/contract-details/${detailId}/synchronize`);
    expect(sync.status).toBe(403);
    expect(sync.body.code).toBe("users.consoleApplication");
    const [detail] = (await api("GET", `${path}/contract-details`)).body;
    const { id, ...fields } = detail;
    const kept = await api("PUT", `${path}/contract-details/${id}`, fields);
    expect(kept.status).toBe(400);
    expect(kept.body.errors[0]).toMatchObject({
      path: "roleScopeName",
      code: "contractDetail.consoleApplication",
      params: { application: "orrery-console" },
    });
    // Even spelled as the identity manager's collation would still find it.
    await wire(ctx.base, { username: "admin", password: "admin", clientId: "ORRERY-console " }, "/idm");
    expect((await api("POST", `${path}/users/viewer/roles/tenant-ada`)).body.code).toBe(
      "users.consoleApplication",
    );
    await wire(ctx.base, { username: "admin", password: "admin" }, "/idm");
  });

  it("are changed only with update permission on a contract detail naming the role", async () => {
    const { t, path } = ctx;
    await wire(ctx.base, { username: "admin", password: "admin" }, "/idm");
    const viewer = client(t, await t.tokenFor("viewer"));
    expect((await viewer("GET", `${path}/users`)).status).toBe(200);
    const refused = await viewer("POST", `${path}/users/viewer/roles/visitor`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("users.forbidden");
    // Refused before the role is looked up: the answer does not tell whether a detail names it.
    const unnamed = await viewer("POST", `${path}/users/viewer/roles/stranger`);
    expect(unnamed.status).toBe(403);
    expect(unnamed.body.code).toBe("users.forbidden");
    expect((await viewer("POST", `${path}/users/viewer/roles/admin`)).body.code).toBe("users.forbidden");
    // Update permission on the tenant-ada detail only: that role, and no other.
    const one = client(
      t,
      await t.tokenWith([
        { action: "GET", resource: "^/api/.*" },
        { action: "PUT", resource: `^${path}/contract-details/${detailId}$` },
      ]),
    );
    expect((await one("POST", `${path}/users/operator/roles/tenant-ada`)).status).toBe(204);
    expect((await one("POST", `${path}/users/operator/roles/visitor`)).status).toBe(403);
    const stranger = client(t, await t.tokenWith([{ action: "PUT", resource: "^/api/.*" }]));
    expect((await stranger("DELETE", `${path}/users/operator/roles/tenant-ada`)).status).toBe(403);
    expect((await client(t)("GET", `${path}/users`)).status).toBe(401);
  });

  it("are read and changed in Keyrock with one management token, creating the role when missing", async () => {
    const { api, path } = ctx;
    const fake = await keyrock();
    await wire(fake.url);
    const listed = await api("GET", `${path}/users`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toEqual([
      { id: "u-ada", username: "ada", email: "ada@test.com", roles: ["tenant-ada"], organizationRoles: [] },
      { id: "u-bob", username: "bob", email: "bob@test.com", roles: [], organizationRoles: [] },
    ]);
    expect(fake.roleNames()).not.toContain("visitor");
    expect((await api("POST", `${path}/users/u-bob/roles/visitor`)).status).toBe(204);
    expect(fake.roleNames()).toContain("visitor");
    expect(fake.rolesOf("u-bob")).toHaveLength(1);
    expect(fake.deprecatedCalls).toEqual([]); // assigned with PUT, not Keyrock's deprecated POST
    expect((await api("DELETE", `${path}/users/u-ada/roles/tenant-ada`)).status).toBe(204);
    expect(fake.rolesOf("u-ada")).toEqual([]);
    const users = (await api("GET", `${path}/users`)).body;
    expect(users.map((u: { roles: string[] }) => u.roles)).toEqual([[], ["visitor"]]);
    expect(fake.liveAdminTokens()).toBe(1);
    expect(JSON.stringify(ctx.t.logs)).not.toContain(admin.password);
    // The management client releases its token (as the API does when it stops), and signs in again after.
    const management = keyrockManagement(fake.url, { name: admin.email, password: admin.password });
    expect((await management.call("GET", "/v1/users", "users")).status).toBe(201);
    expect(fake.liveAdminTokens()).toBe(2);
    await management.release();
    expect(fake.liveAdminTokens()).toBe(1);
    expect((await management.call("GET", "/v1/users", "users")).status).toBe(201);
    await management.release();
  });

  it("synchronise a contract detail as a Keyrock role whose permissions are the paths of its scope", async () => {
    const { api, path, types, properties } = ctx;
    for (const [name, scopeName] of [
      ["Person", "person"],
      ["Building", "building"],
    ]) {
      const { id, ...type } = (await api("GET", `${path}/types/${types[name]}`)).body;
      await ok("PUT", `${path}/types/${id}`, { ...type, scopeName });
    }
    await ok("POST", `${path}/entities`, {
      id: "urn:ngsi-ld:Person:ada",
      type: "Person",
      name: { type: "Property", value: "Ada" },
    });
    await ok("POST", `${path}/entities`, {
      id: "urn:ngsi-ld:Building:tower",
      type: "Building",
      name: { type: "Property", value: "Tower" },
      owner: { type: "Relationship", object: "urn:ngsi-ld:Person:ada" },
    });
    const [get, patch] = [
      await ok("POST", "/api/data-actions", { name: "GET" }),
      await ok("POST", "/api/data-actions", { name: "PATCH" }),
    ];
    const service = await ok("POST", `${path}/data-services`, {
      name: "Buildings",
      hasEntityType: types.Building,
      hasProperties: [properties["Building.name"]],
      hasDataActions: [get.id, patch.id],
    });
    const role = await ok("POST", `${path}/roles`, {
      name: "Caretaker",
      notBefore: 1_767_225_600,
      notOnOrAfter: 1_798_761_600,
      dataServiceProviderId: "did:web:provider.example.org",
      verifiableCredentialType: "CaretakerCredential",
    });
    await ok("POST", `${path}/data-service-accesses`, { hasRole: role.id, hasDataService: service.id });
    const contract = await ok("POST", `${path}/contracts`, {
      stakeholderDid: "did:web:care.example.org",
      stakeholderName: "Care",
      validFromTime: 1_767_225_600,
      validToTime: 1_798_761_600,
      verifiableCredentialType: "CareCredential",
      scopeType: types.Person,
      scopeEntity: "urn:ngsi-ld:Person:ada",
    });
    const detail = await ok("POST", `${path}/contract-details`, {
      hasContract: contract.id,
      hasRole: role.id,
      roleScopeName: "ada-tower-care",
      scopeType: types.Building,
      scopeEntity: "urn:ngsi-ld:Building:tower",
    });
    const fake = await keyrock();
    await wire(fake.url);
    const sync = (language = "en") =>
      api("POST", `${path}/contract-details/${detail.id}/synchronize`, undefined, {
        "accept-language": language,
      });
    const first = await sync();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.details).toContain(
      "Role with the name 'ada-tower-care' not found, creating this role…",
    );
    const base = "/person/urn:ngsi-ld:Person:ada/building/urn:ngsi-ld:Building:tower";
    const made = () =>
      fake
        .permissionsOf("ada-tower-care")
        .map(({ name, action, resource, is_regex }) => ({ name, action, resource, is_regex }))
        .sort((a, b) => a.name.localeCompare(b.name));
    expect(made()).toEqual([
      { name: "GET Ada Tower building", action: "GET", resource: `${base}/building`, is_regex: false },
      {
        name: "PATCH Ada Tower building",
        action: "PATCH",
        resource: `^${base}/building/(.*)$`,
        is_regex: true,
      },
    ]);
    // Again, in French: the role is found, its two permissions replaced by two new ones.
    const again = await sync("fr");
    expect(again.body.details).toContain("2 permission(s) trouvée(s), suppression…");
    expect(made()).toHaveLength(2);

    // A data service whose type has no scope name: the lines say so, as a 502.
    const product = await ok("POST", `${path}/types`, { name: "Product" });
    const label = await ok("POST", `${path}/properties`, {
      name: "label",
      hasType: product.id,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "String",
    });
    const products = await ok("POST", `${path}/data-services`, {
      name: "Products",
      hasEntityType: product.id,
      hasProperties: [label.id],
      hasDataActions: [get.id],
    });
    await ok("POST", `${path}/data-service-accesses`, { hasRole: role.id, hasDataService: products.id });
    const partial = await sync();
    expect(partial.status).toBe(502);
    expect(partial.body.details.filter((l: string) => l.startsWith("❌"))).toEqual([
      "❌ The type Product of a data service of the role has no scope name: no permission for it.",
    ]);
  });

  it("escape every value they place in a regular expression: an entity `.*` is that entity alone", async () => {
    const { api, path, types, properties } = ctx;
    const { id: typeId, ...type } = (await api("GET", `${path}/types/${types.Building}`)).body;
    const scope = "b(u|i)+l?d.*\\";
    await ok("PUT", `${path}/types/${typeId}`, { ...type, scopeName: scope });
    const entity = "urn:ngsi-ld:Building:.*";
    await ok("POST", `${path}/entities`, {
      id: entity,
      type: "Building",
      name: { type: "Property", value: "Any" },
      owner: { type: "Relationship", object: "urn:ngsi-ld:Person:ada" },
    });
    const actions = (await ok("GET", "/api/data-actions")) as Array<{ id: string; name: string }>;
    const service = await ok("POST", `${path}/data-services`, {
      name: "Any buildings",
      hasEntityType: types.Building,
      hasProperties: [properties["Building.name"]],
      hasDataActions: actions.filter((a) => ["GET", "PATCH"].includes(a.name)).map((a) => a.id),
    });
    const role = await ok("POST", `${path}/roles`, {
      name: "Shelver",
      notBefore: 1_767_225_600,
      notOnOrAfter: 1_798_761_600,
      dataServiceProviderId: "did:web:provider.example.org",
      verifiableCredentialType: "ShelverCredential",
    });
    await ok("POST", `${path}/data-service-accesses`, { hasRole: role.id, hasDataService: service.id });
    const contract = await ok("POST", `${path}/contracts`, {
      stakeholderDid: "did:web:shelves.example.org",
      stakeholderName: "Shelves",
      validFromTime: 1_767_225_600,
      validToTime: 1_798_761_600,
      verifiableCredentialType: "ShelvesCredential",
      scopeType: types.Person,
      scopeEntity: "urn:ngsi-ld:Person:ada",
    });
    const detail = await ok("POST", `${path}/contract-details`, {
      hasContract: contract.id,
      hasRole: role.id,
      roleScopeName: "shelver-any",
      scopeType: types.Building,
      scopeEntity: entity,
    });
    const fake = await keyrock();
    await wire(fake.url);
    const sync = await api("POST", `${path}/contract-details/${detail.id}/synchronize`);
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
    const made = fake.permissionsOf("shelver-any");
    const base = `/person/urn:ngsi-ld:Person:ada/${scope}/${entity}`;
    // The plain permission is compared as written by Keyrock: it stays the literal path.
    expect(made.find((p) => p.action === "GET")).toMatchObject({
      resource: `${base}/${scope}`,
      is_regex: false,
    });
    const patch = made.find((p) => p.action === "PATCH")!;
    expect(patch.is_regex).toBe(true);
    // Read as Keyrock's decision point reads it (a case-insensitive regular expression).
    const generated = [{ action: "PATCH", resource: patch.resource! }];
    expect(isAllowed(generated, "PATCH", `${base}/${scope}/urn:ngsi-ld:Thing:1`)).toBe(true);
    for (const sibling of [
      `/person/urn:ngsi-ld:Person:ada/${scope}/urn:ngsi-ld:Building:tower/${scope}/urn:ngsi-ld:Thing:1`,
      // Unescaped, the scope name and the id would have matched this other building's items.
      "/person/urn:ngsi-ld:Person:ada/building/urn:ngsi-ld:Building:tower/building/urn:ngsi-ld:Thing:1",
      `/person/urn:ngsi-ld:Person:ada/building/${entity}/${scope}/urn:ngsi-ld:Thing:1`,
      `/person/urn:ngsi-ld:Person:ada/${scope}/${entity}/buuld/urn:ngsi-ld:Thing:1`,
      `/person/urn:ngsi-ld:Person:ada/${scope}/urn:ngsi-ld:Building:x/${scope}/urn:ngsi-ld:Thing:1`,
    ])
      expect(isAllowed(generated, "PATCH", sibling), sibling).toBe(false);
  });

  it("name the organisation through which a user holds a role, which cannot be removed from the user", async () => {
    const { api, path } = ctx;
    const organizations = [
      { id: "o-acme", name: "Acme Retail", members: ["u-bob"], roles: ["r-visitor"] },
      { id: "o-empty", name: "Nobody", members: [], roles: ["r-tenant"] },
    ];
    const start = (ownedByAdmin = true) =>
      startFakeKeyrock({
        clientId: "market-app",
        clientSecret: "client-secret-91f2",
        admin,
        users: [
          { id: "u-ada", username: "ada", email: "ada@test.com", password: "x", roles: ["r-tenant"] },
          { id: "u-bob", username: "bob", email: "bob@test.com", password: "x", roles: [] },
        ],
        roles: [
          { id: "r-tenant", name: "tenant-ada", permissions: [] },
          { id: "r-visitor", name: "visitor", permissions: [] },
        ],
        organizations: organizations.map((o) => ({ ...o, ownedByAdmin })),
      }).then((fake) => (fakes.push(fake), fake));
    await wire((await start()).url);
    const listed = await api("GET", `${path}/users`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toEqual([
      { id: "u-ada", username: "ada", email: "ada@test.com", roles: ["tenant-ada"], organizationRoles: [] },
      {
        id: "u-bob",
        username: "bob",
        email: "bob@test.com",
        roles: [],
        organizationRoles: [{ role: "visitor", organization: "Acme Retail" }],
      },
    ]);
    // Held through the organisation, not by the user: nothing of the user's to remove.
    const remove = await api("DELETE", `${path}/users/u-bob/roles/visitor`);
    expect(remove.status).toBe(404);
    expect(remove.body.code).toBe("users.notHeld");

    // Keyrock lets only an organisation's owners read it: the users list goes on without them.
    await wire((await start(false)).url);
    const unowned = await api("GET", `${path}/users?include=unreadableOrganizations`);
    expect(unowned.status, JSON.stringify(unowned.body)).toBe(200);
    expect(unowned.body.unreadableOrganizations).toEqual([
      { id: "o-acme", name: "o-acme" },
      { id: "o-empty", name: "o-empty" },
    ]);
  });

  it("leave out the organisations the management account may not read, name them, and keep Assign", async () => {
    const { api, path } = ctx;
    const partner = "Partner.*+?(|\\ GmbH";
    const fake = await startFakeKeyrock({
      clientId: "market-app",
      clientSecret: "client-secret-91f2",
      admin,
      users: [
        { id: "u-ada", username: "ada", email: "ada@test.com", password: "x", roles: ["r-tenant"] },
        { id: "u-bob", username: "bob", email: "bob@test.com", password: "x", roles: [] },
        { id: "u-eve", username: "eve", email: "eve@test.com", password: "x", roles: [] },
      ],
      roles: [
        { id: "r-tenant", name: "tenant-ada", permissions: [] },
        { id: "r-visitor", name: "visitor", permissions: [] },
      ],
      organizations: [
        { id: "o-acme", name: "Acme Retail", members: ["u-bob"], roles: ["r-visitor"] },
        // A partner's organisations: the account is a plain member of one (Keyrock lists it, with
        // its name, among the account's own) and has nothing to do with the other.
        {
          id: "o-partner",
          name: partner,
          members: ["u-eve"],
          roles: ["r-visitor"],
          ownedByAdmin: false,
          adminIsMember: true,
        },
        { id: "o-far", name: "Far Away", members: ["u-eve"], roles: ["r-tenant"], ownedByAdmin: false },
      ],
    });
    fakes.push(fake);
    await wire(fake.url);
    const expected = [
      { id: "u-ada", username: "ada", email: "ada@test.com", roles: ["tenant-ada"], organizationRoles: [] },
      {
        id: "u-bob",
        username: "bob",
        email: "bob@test.com",
        roles: [],
        organizationRoles: [{ role: "visitor", organization: "Acme Retail" }],
      },
      { id: "u-eve", username: "eve", email: "eve@test.com", roles: [], organizationRoles: [] },
    ];
    // The spec's answer: the list, what could be read of it.
    const plain = await api("GET", `${path}/users`);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body).toEqual(expected);
    const full = await api("GET", `${path}/users?include=unreadableOrganizations`);
    expect(full.status).toBe(200);
    expect(full.body).toEqual({
      users: expected,
      unreadableOrganizations: [
        { id: "o-far", name: "o-far" },
        { id: "o-partner", name: partner },
      ],
    });
    expect((await api("GET", `${path}/users?include=everything`)).status).toBe(400);

    const assigned = await api("POST", `${path}/users/u-eve/roles/visitor`);
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(204);
    expect(fake.rolesOf("u-eve")).toEqual(["r-visitor"]);
    const after = await api("GET", `${path}/users`);
    expect(after.body.find((u: { id: string }) => u.id === "u-eve").roles).toEqual(["visitor"]);
  });

  it("explain Keyrock's refusals and silences as 502 problems", async () => {
    const { api, path } = ctx;
    await wire((await keyrock({ adminManagesRoles: false })).url);
    const manage = await api("GET", `${path}/users`);
    expect(manage.status).toBe(502);
    expect(manage.body.code).toBe("users.manageRoles");
    expect(manage.body.detail).toContain("Manage roles");

    await wire((await keyrock({ adminIsAdministrator: false })).url);
    const notAdmin = await api("GET", `${path}/users`);
    expect(notAdmin.body.code).toBe("users.notAdministrator");

    await wire((await keyrock()).url, { password: "wrong" });
    const signIn = await api("GET", `${path}/users`);
    expect(signIn.status).toBe(502);
    expect(signIn.body.code).toBe("users.signInRefused");
    expect(signIn.body.detail).toContain("Invalid email or password");

    // A server that answers HTML errors, and one that is not there at all.
    const html = createServer((_req, res) =>
      res.writeHead(500, { "content-type": "text/html" }).end("<html>down</html>"),
    );
    await new Promise<void>((resolve) => html.listen(0, "127.0.0.1", resolve));
    await wire(`http://127.0.0.1:${(html.address() as { port: number }).port}`);
    const broken = await api("GET", `${path}/users`);
    expect(broken.status).toBe(502);
    expect(broken.body.detail).toContain("an HTML page");
    html.close();
    await wire("http://127.0.0.1:9");
    const gone = await api("POST", `${path}/users/u-bob/roles/visitor`);
    expect(gone.status).toBe(502);
    expect(gone.body.code).toBe("users.unreachable");
  });
});
