import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { migrate } from "../src/storage/migrations.ts";
import { freePort } from "../../../test/fakes/browser.ts";
import { partyCredentials } from "../../../test/fakes/pki.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { client, driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// Issue 36, "the seed's shapes work again", and two items of issues 36 and 37: the spec's bodies, as
// the original console sends them, are taken (grants without their peer, a workspace without temporal
// services, a second contract with one stakeholder); what the API answers is what a client reads
// (every list present, a pattern saying what it expects); names are compared as people read them; an
// administrator is told why a role cannot be given rather than refused their rights.

const ctx = useEmbeddedWorkspace();
const hostile = ".*+?(|\\";
const ALL_YEAR = { notBefore: 1_767_225_600, notOnOrAfter: 1_798_761_600 };
const fr = { "accept-language": "fr" };

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The original console's identity manager grant form: the spec's fields, no identity manager. */
const specGrant = (name: string) => ({
  name,
  grantType: "password",
  clientId: "supermarket-app",
  clientSecret: "client-secret-36",
  username: "admin@supermarket.example.org",
  password: "admin-password-36",
});

/** The original console's registry grant form: id, name, description, identifier, certificates, privateKey. */
async function specRegistryGrant(name: string) {
  const party = await partyCredentials("EU.EORI.NLSUPERMARKET", name);
  return {
    name,
    description: "The supermarket's key",
    identifier: party.identifier,
    certificates: party.certificates,
    privateKey: party.privateKey,
  };
}

/** An identity manager or a registry listening nowhere (a port nothing answers on). */
async function peer(kind: "identity-managers" | "authorization-registries", name: string) {
  return ok("POST", `/api/${kind}`, {
    ...samplePayload(kind, () => ""),
    name,
    scheme: "http",
    host: "127.0.0.1",
    port: await freePort(),
  });
}

const role = (name: string) => ({
  name,
  ...ALL_YEAR,
  dataServiceProviderId: "did:web:provider.example.org",
  verifiableCredentialType: "ShelfCredential",
});

describe(`grants in the spec's shape (${driver})`, () => {
  it("creates both grants as the original console's forms send them, without their peer", async () => {
    const password = await ctx.api("POST", "/api/identity-manager-grants", specGrant("Supermarket admin"));
    expect(password.status, JSON.stringify(password.body)).toBe(201);
    expect(password.body).not.toHaveProperty("hasIdentityManager");
    expect(password.body).toMatchObject({ clientSecret: { set: true }, password: { set: true } });
    const clientCredentials = await ctx.api("POST", "/api/identity-manager-grants", {
      name: "Supermarket machine",
      description: "The broker's client",
      grantType: "client_credentials",
      clientId: "machine",
      clientSecret: "machine-secret",
    });
    expect(clientCredentials.status, JSON.stringify(clientCredentials.body)).toBe(201);
    const registry = await ctx.api(
      "POST",
      "/api/authorization-registry-grants",
      await specRegistryGrant("Supermarket key"),
    );
    expect(registry.status, JSON.stringify(registry.body)).toBe(201);
    expect(registry.body).not.toHaveProperty("hasAuthorizationRegistry");
    expect(registry.body.privateKey).toEqual({ set: true });
  });

  it("binds a grant to the first identity manager a record pairs it with, and refuses another saying why", async () => {
    const idmA = await peer("identity-managers", "Keyrock A");
    const idmB = await peer("identity-managers", `Keyrock B ${hostile}`);
    const grant = await ok("POST", "/api/identity-manager-grants", specGrant(`Shelf grant ${hostile}`));
    const service = await ctx.api("POST", "/api/services", {
      name: "Protected shelves",
      hasContextBroker: ctx.brokerId,
      authorizationRequired: true,
      authorizationMode: "oauth2",
      hasIdentityManager: idmA.id,
      hasIdentityManagerGrant: grant.id,
    });
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    const bound = await ctx.api("GET", `/api/identity-manager-grants/${grant.id}`);
    expect(bound.body.hasIdentityManager).toBe(idmA.id);
    expect(bound.headers.etag).toBe('"2"');
    // The binding is a write of its own in the trail, by whoever paired it.
    const trail = await ok("GET", `/api/audit?${new URLSearchParams({ record: grant.id })}`);
    expect(trail.items[0]).toMatchObject({
      action: "update",
      changes: [{ field: "hasIdentityManager", after: idmA.id }],
    });

    // Another identity manager, on a temporal service or a workspace: refused on the grant field.
    const mintaka = await ctx.api("POST", "/api/temporal-services", {
      ...samplePayload("temporal-services", () => ""),
      name: "Mintaka of B",
      authorizationRequired: true,
      hasIdentityManager: idmB.id,
      hasIdentityManagerGrant: grant.id,
    });
    expect(mintaka.status).toBe(400);
    expect(mintaka.body.errors).toEqual([
      expect.objectContaining({
        path: "hasIdentityManagerGrant",
        code: "field.ofAnother",
        message: `refers to “Shelf grant ${hostile}”, which belongs to “Keyrock A”, not to the chosen “Identity manager”`,
      }),
    ]);
    const workspace = await ctx.api(
      "POST",
      "/api/workspaces",
      {
        name: "Shelves of B",
        dataModelName: `shelves-b-${driver}`,
        hasService: ctx.serviceId,
        hasIdentityManager: idmB.id,
        hasIdentityManagerGrant: grant.id,
      },
      fr,
    );
    expect(workspace.status).toBe(400);
    expect(workspace.body.errors[0].message).toBe(
      `désigne « Shelf grant ${hostile} », qui appartient à « Keyrock A » et non au champ « Gestionnaire d'identité » choisi`,
    );
    expect((await ok("GET", `/api/identity-manager-grants/${grant.id}`)).hasIdentityManager).toBe(idmA.id);

    // The original console's edit form sends the spec's fields only: the grant stays bound.
    const edited = await ctx.api("PUT", `/api/identity-manager-grants/${grant.id}`, {
      ...specGrant(`Shelf grant ${hostile}`),
      description: "Renamed in the original console",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.hasIdentityManager).toBe(idmA.id);

    // Pointing it at another identity manager needs its secrets typed again.
    expect((await ctx.api("DELETE", `/api/services/${service.body.id}`)).status).toBe(204);
    const { id: _id, ...read } = await ok("GET", `/api/identity-manager-grants/${grant.id}`);
    const moved = await ctx.api("PUT", `/api/identity-manager-grants/${grant.id}`, {
      ...read,
      hasIdentityManager: idmB.id,
    });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({
      code: "grant.peerNeedsSecrets",
      detail: `The grant “Shelf grant ${hostile}” was given for its current “Identity manager”: to choose another, type its “Client secret”, “Password” again in the same change (its secrets never go to a peer they were not given for).`,
    });
    const french = await ctx.api(
      "PUT",
      `/api/identity-manager-grants/${grant.id}`,
      { ...read, hasIdentityManager: idmB.id, clientSecret: "typed again" },
      fr,
    );
    expect(french.status).toBe(409);
    expect(french.body.detail).toContain("saisissez de nouveau « Mot de passe »");
    expect((await ok("GET", `/api/identity-manager-grants/${grant.id}`)).hasIdentityManager).toBe(idmA.id);
    const retyped = await ctx.api("PUT", `/api/identity-manager-grants/${grant.id}`, {
      ...read,
      hasIdentityManager: idmB.id,
      clientSecret: "client-secret-of-b",
      password: "password-of-b",
    });
    expect(retyped.status, JSON.stringify(retyped.body)).toBe(200);
    expect(retyped.body.hasIdentityManager).toBe(idmB.id);
  });

  it("lets only who may change a grant bind it: an operator pairing an unbound grant is told why", async () => {
    const idm = await peer("identity-managers", "Keyrock O");
    const grant = await ok("POST", "/api/identity-manager-grants", specGrant("Unbound for operators"));
    const operator = client(ctx.t, await ctx.t.tokenFor("operator"));
    const workspace = {
      name: "Operator's shop",
      dataModelName: `operator-shop-${driver}`,
      hasService: ctx.serviceId,
      hasIdentityManager: idm.id,
      hasIdentityManagerGrant: grant.id,
    };
    const refused = await operator("POST", "/api/workspaces", workspace);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: "grant.bindForbidden",
      detail:
        "The grant “Unbound for operators” has no “Identity manager” yet: the first record that pairs it chooses where its secrets go, which needs permission to change the grant. Ask an administrator to choose it in the grant’s form.",
    });
    expect(await ok("GET", `/api/identity-manager-grants/${grant.id}`)).not.toHaveProperty(
      "hasIdentityManager",
    );
    expect((await ok("GET", "/api/workspaces")).map((w: { name: string }) => w.name)).not.toContain(
      "Operator's shop",
    );
    // Once an administrator bound it, the operator pairs it like any other.
    const { id: _id, ...fields } = await ok("GET", `/api/identity-manager-grants/${grant.id}`);
    await ok("PUT", `/api/identity-manager-grants/${grant.id}`, { ...fields, hasIdentityManager: idm.id });
    expect((await operator("POST", "/api/workspaces", workspace)).status).toBe(201);
  });

  it("binds a registry grant to the first workspace's registry, or to the registry the registry tool first names", async () => {
    const registryA = await peer("authorization-registries", "Registry A");
    const registryB = await peer("authorization-registries", `Registry B ${hostile}`);
    const key = await ok("POST", "/api/authorization-registry-grants", await specRegistryGrant("Offer key"));
    const offering = (name: string, registry: string) =>
      ctx.api("POST", "/api/workspaces", {
        name,
        dataModelName: `${name.toLowerCase().replace(/\W+/g, "-")}-${driver}`,
        hasService: ctx.serviceId,
        enableOffers: true,
        hasAuthorizationRegistry: registry,
        hasAuthorizationRegistryGrant: key.id,
      });
    const first = await offering("Offers A", registryA.id);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await ok("GET", `/api/authorization-registry-grants/${key.id}`)).hasAuthorizationRegistry).toBe(
      registryA.id,
    );
    const second = await offering("Offers B", registryB.id);
    expect(second.status).toBe(400);
    expect(second.body.errors).toEqual([
      expect.objectContaining({
        path: "hasAuthorizationRegistryGrant",
        params: { name: "Offer key", owner: "Registry A", field: "hasAuthorizationRegistry" },
      }),
    ]);

    // The registry tool of the original console: a registry and a grant chosen, then a request.
    const toolKey = await ok(
      "POST",
      "/api/authorization-registry-grants",
      await specRegistryGrant("Tool key"),
    );
    const tool = (registry: string) =>
      ctx.api(
        "POST",
        `/api/proxies/authorization-registry/request-delegation?${new URLSearchParams({
          authorizationRegistryId: registry,
          authorizationRegistryGrantId: toolKey.id,
        })}`,
        { delegationRequest: { policyIssuer: "EU.EORI.NLSUPERMARKET", target: { accessSubject: "x" } } },
      );
    const asked = await tool(registryA.id);
    // Registry A listens nowhere: the request reached the point of calling it, the grant now bound.
    expect(asked.status, JSON.stringify(asked.body)).toBe(502);
    expect(
      (await ok("GET", `/api/authorization-registry-grants/${toolKey.id}`)).hasAuthorizationRegistry,
    ).toBe(registryA.id);
    const elsewhere = await tool(registryB.id);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body).toMatchObject({
      code: "grant.ofAnotherPeer",
      params: { grant: "Tool key", owner: "Registry A", peer: `Registry B ${hostile}` },
    });
  });
});

describe(`lists answered as lists (${driver})`, () => {
  it("answers a workspace's temporalServices as [] on the create, the read, the list and the update", async () => {
    const created = await ctx.api("POST", "/api/workspaces", {
      name: "Corner shop",
      dataModelName: `corner-shop-${driver}`,
      hasService: ctx.serviceId,
      temporalServices: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.temporalServices).toEqual([]);
    const id = created.body.id as string;
    expect((await ok("GET", `/api/workspaces/${id}`)).temporalServices).toEqual([]);
    const listed = (await ok("GET", "/api/workspaces")) as Array<Record<string, unknown>>;
    expect(listed.find((w) => w.id === id)?.temporalServices).toEqual([]);
    const { id: _id, ...fields } = created.body;
    const withOne = await ok("PUT", `/api/workspaces/${id}`, {
      ...fields,
      temporalServices: [ctx.temporalServiceId],
    });
    expect(withOne.temporalServices).toEqual([ctx.temporalServiceId]);
    const emptied = await ok("PUT", `/api/workspaces/${id}`, { ...fields, temporalServices: [] });
    expect(emptied.temporalServices).toEqual([]);
    // A property can be created there, as the original's workspace page then lets one.
    const type = await ok("POST", `/api/workspace/${id}/types`, { name: "Shelf" });
    const property = await ctx.api("POST", `/api/workspace/${id}/properties`, {
      name: "numberOfItems",
      hasType: type.id,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    });
    expect(property.status, JSON.stringify(property.body)).toBe(201);
    // Not temporal: no temporal services, read as an empty list all the same.
    expect(property.body.temporalServices).toEqual([]);
    const properties = (await ok("GET", `/api/workspace/${id}/properties`)) as Array<Record<string, unknown>>;
    expect(properties.find((p) => p.id === property.body.id)?.temporalServices).toEqual([]);
  });

  it("answers a data service's lists as [] when it has none yet, in the list too", async () => {
    const service = await ctx.api("POST", `${ctx.path}/data-services`, {
      hasEntityType: ctx.types.Person,
      isOffer: true,
    });
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    expect(service.body).toMatchObject({ hasProperties: [], hasDataActions: [] });
    const listed = (await ok("GET", `${ctx.path}/data-services`)) as Array<Record<string, unknown>>;
    expect(listed.find((s) => s.id === service.body.id)).toMatchObject({
      hasProperties: [],
      hasDataActions: [],
    });
  });
});

describe(`lists stored as lists (${driver})`, () => {
  it("reads [] in the lists of records written before the API stored empty lists (migration 0026), their ETags unchanged", async () => {
    const workspace = await ctx.api("POST", "/api/workspaces", {
      name: `Old corner ${hostile}`,
      dataModelName: `old-corner-${driver}`,
      hasService: ctx.serviceId,
    });
    expect(workspace.status, JSON.stringify(workspace.body)).toBe(201);
    const service = await ok("POST", `${ctx.path}/data-services`, {
      hasEntityType: ctx.types.Person,
      isOffer: true,
    });
    const shown = (path: string) => ctx.api("GET", path);
    const workspacePath = `/api/workspaces/${workspace.body.id}`;
    const servicePath = `${ctx.path}/data-services/${service.id}`;
    const etags = [(await shown(workspacePath)).headers.etag, (await shown(servicePath)).headers.etag];
    // As the API stored them before: without their empty lists.
    const db = ctx.t.storage.db;
    await db.execute(
      sql`UPDATE records SET data = data - 'temporalServices' WHERE id = ${workspace.body.id}`,
    );
    await db.execute(
      sql`UPDATE records SET data = data - 'hasProperties' - 'hasDataActions' WHERE id = ${service.id}`,
    );
    await db.execute(sql`DELETE FROM orrery_migrations WHERE name = '0026_list_items_stored'`);
    await migrate(db);
    const workspaces = (await ok("GET", "/api/workspaces")) as Array<Record<string, unknown>>;
    expect(workspaces.find((w) => w.id === workspace.body.id)?.temporalServices).toEqual([]);
    const services = (await ok("GET", `${ctx.path}/data-services`)) as Array<Record<string, unknown>>;
    expect(services.find((s) => s.id === service.id)).toMatchObject({
      hasProperties: [],
      hasDataActions: [],
    });
    expect((await ok("GET", servicePath)).hasProperties).toEqual([]);
    expect([(await shown(workspacePath)).headers.etag, (await shown(servicePath)).headers.etag]).toEqual(
      etags,
    );
  });
});

describe(`lists as the records read (${driver})`, () => {
  it("lists each record as its own read shows it, after an update and after a change the database makes itself", async () => {
    const created = await ok("POST", `${ctx.path}/data-services`, {
      hasEntityType: ctx.types.Person,
      isOffer: true,
    });
    const path = `${ctx.path}/data-services/${created.id}`;
    const listed = async () =>
      ((await ok("GET", `${ctx.path}/data-services`)) as Array<Record<string, unknown>>).find(
        (s) => s.id === created.id,
      );
    expect(await listed()).toEqual(await ok("GET", path));
    const { id: _id, hasWorkspace: _ws, ...fields } = created;
    await ok("PUT", path, { ...fields, name: `Offer ${hostile}` });
    expect(await listed()).toMatchObject({ name: `Offer ${hostile}`, hasWorkspace: created.hasWorkspace });
    expect(await listed()).toEqual(await ok("GET", path));
    // A change written by SQL, as the database's own triggers write a role's synchronisation.
    await ctx.t.storage.db.execute(
      sql`UPDATE records SET data = data || ${JSON.stringify({ name: `Said by SQL ${hostile}` })}::jsonb WHERE id = ${created.id}`,
    );
    expect(await listed()).toMatchObject({ name: `Said by SQL ${hostile}` });
    expect(await listed()).toEqual(await ok("GET", path));
  });
});

describe(`contracts of one stakeholder (${driver})`, () => {
  it("takes a second contract with the same stakeholder DID", async () => {
    const contract = (stakeholderName: string) => ({
      stakeholderDid: "did:web:grocer.example.org",
      stakeholderName,
      validFromTime: ALL_YEAR.notBefore,
      validToTime: ALL_YEAR.notOnOrAfter,
      verifiableCredentialType: "GrocerCredential",
    });
    const first = await ctx.api("POST", `${ctx.path}/contracts`, contract("Grocer"));
    const second = await ctx.api("POST", `${ctx.path}/contracts`, contract("Grocer, second shop"));
    expect([first.status, second.status], JSON.stringify(second.body)).toEqual([201, 201]);
    const listed = (await ok("GET", `${ctx.path}/contracts`)) as Array<Record<string, unknown>>;
    expect(listed.filter((c) => c.stakeholderDid === "did:web:grocer.example.org")).toHaveLength(2);
  });
});

describe(`patterns that say what they expect (${driver})`, () => {
  it("says a key or certificate goes without its BEGIN/END lines, in English and French", async () => {
    const body = await specRegistryGrant("Tagged key");
    const tagged = {
      ...body,
      privateKey: `-----BEGIN PRIVATE KEY-----${body.privateKey}-----END PRIVATE KEY-----`,
      certificates: [`-----BEGIN CERTIFICATE-----${body.certificates[0]}`, ...body.certificates.slice(1)],
    };
    const refused = await ctx.api("POST", "/api/authorization-registry-grants", tagged);
    expect(refused.status).toBe(400);
    const pem =
      "must be the key or certificate without its BEGIN/END lines: one line of base64, without line breaks";
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "privateKey", code: "format.pem", message: pem }),
        expect.objectContaining({ path: "certificates.0", code: "format.pem", message: pem }),
      ]),
    );
    const french = await ctx.api("POST", "/api/authorization-registry-grants", tagged, fr);
    expect(french.body.errors.find((e: { path: string }) => e.path === "privateKey").message).toBe(
      "doit être la clé ou le certificat sans ses lignes BEGIN/END\u00a0: une ligne de base64, sans saut de ligne",
    );
    expect(JSON.stringify(french.body)).not.toContain("regex");
  });

  it("says a token path starts with /, whatever bytes it was given", async () => {
    for (const oauth2TokenPath of ["oauth2/token", hostile, "/with space"]) {
      const refused = await ctx.api("POST", "/api/identity-managers", {
        ...samplePayload("identity-managers", () => ""),
        oauth2TokenPath,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          path: "oauth2TokenPath",
          code: "format.path",
          message: "must be a path starting with /, without spaces",
        }),
      ]);
      const french = await ctx.api(
        "POST",
        "/api/identity-managers",
        { ...samplePayload("identity-managers", () => ""), oauth2TokenPath },
        fr,
      );
      expect(french.body.errors[0].message).toBe("doit être un chemin commençant par /, sans espace");
    }
  });
});

describe(`names compared as people read them (${driver})`, () => {
  it("refuses a role named as another but for case and spaces, and keeps names trimmed", async () => {
    const first = await ctx.api("POST", `${ctx.path}/roles`, role("Stock analyst"));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await ctx.api("POST", `${ctx.path}/roles`, {
      ...role("stock ANALYST "),
      roleName: "stock_analyst_2",
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: "conflict.roleTitle",
      detail: 'The workspace already has a role named "stock ANALYST".',
    });
    const spaced = await ok("POST", `${ctx.path}/roles`, role(`  Shelf keeper ${hostile}  `));
    expect(spaced.name).toBe(`Shelf keeper ${hostile}`);
    expect((await ok("GET", `${ctx.path}/roles/${spaced.id}`)).name).toBe(`Shelf keeper ${hostile}`);
    const hostileTwin = await ctx.api("POST", `${ctx.path}/roles`, {
      ...role(`SHELF KEEPER ${hostile}`),
      roleName: "shelf_keeper_2",
    });
    expect(hostileTwin.status).toBe(409);
    // A rename into another's name, in other letters, is refused too.
    const renamed = await ctx.api("PUT", `${ctx.path}/roles/${spaced.id}`, {
      ...role("STOCK analyst"),
      roleName: spaced.roleName,
    });
    expect(renamed.status).toBe(409);
  });

  it("compares thing description and data service names the same way", async () => {
    await ok("POST", `${ctx.path}/wot-thing-descriptions`, {
      name: "Cold room",
      hasType: ctx.types.Building,
    });
    const td = await ctx.api("POST", `${ctx.path}/wot-thing-descriptions`, {
      name: " COLD ROOM",
      hasType: ctx.types.Building,
    });
    expect(td.status).toBe(409);
    expect(td.body.code).toBe("conflict.thingDescriptionName");
    await ok("POST", `${ctx.path}/data-services`, {
      name: "Stock levels",
      hasEntityType: ctx.types.Building,
    });
    const service = await ctx.api("POST", `${ctx.path}/data-services`, {
      name: "stock LEVELS",
      hasEntityType: ctx.types.Building,
    });
    expect(service.status).toBe(409);
    expect(service.body.code).toBe("conflict.dataServiceName");
  });
});

describe(`giving a role that no contract detail names (${driver})`, () => {
  it("tells an administrator so with a 404, not a refusal of their rights", async () => {
    const other = await ctx.another();
    const refused = await ctx.api("POST", `${other.path}/users/viewer/roles/stranger`);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      code: "users.roleNotInContracts",
      detail:
        "No contract detail of this workspace has the role scope name stranger: a role is given through a contract detail that names it, so add one first.",
    });
    const french = await ctx.api("POST", `${other.path}/users/viewer/roles/stranger`, undefined, fr);
    expect(french.body.detail).toBe(
      "Aucun détail de contrat de cet espace de travail n’a le nom de portée de rôle stranger\u00a0: un rôle est donné par un détail de contrat qui le nomme, ajoutez-en un d’abord.",
    );
    // Removing it alike.
    expect((await ctx.api("DELETE", `${other.path}/users/viewer/roles/stranger`)).status).toBe(404);
  });
});
