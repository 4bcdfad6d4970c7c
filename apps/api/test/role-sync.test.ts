import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeRegistry, type FakeRegistry } from "../../../test/fakes/ishare-registry.ts";
import { partyCredentials, type PartyCredentials } from "../../../test/fakes/pki.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { migrate } from "../src/storage/migrations.ts";
import { driver, useTestApp } from "./support/harness.ts";

// Role synchronisation against a fake registry that answers as Keyrock 8.4's /ar does: the access
// subject is the role's roleName, the policy carries what Keyrock's matcher can use, and a role is
// synchronised only when the registry's delegation evidence answers the effect for every data action.

const ctx = useTestApp();
let registry: FakeRegistry;
let registryParty: PartyCredentials;
let orrery: PartyCredentials;
let stranger: PartyCredentials;
const ids: Record<string, string> = {};
let path: string;

async function ok(method: string, url: string, body?: unknown, headers?: Record<string, string>) {
  const res = await ctx.api(method, url, body, headers);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const registryRecord = (name: string, implementationName: string) =>
  ok("POST", "/api/authorization-registries", {
    name,
    identifier: registryParty.identifier,
    certificates: registryParty.certificates,
    scheme: "http",
    host: "127.0.0.1",
    port: Number(new URL(registry.url).port),
    oauth2TokenPath: "/oauth2/token",
    delegationPath: "/ar/delegation",
    policyPath: "/ar/policy",
    implementationName,
    implementationVersion: "8.4.0",
  }).then((r) => r.id as string);

const grantOf = (party: PartyCredentials, registryId: string) =>
  ok("POST", "/api/authorization-registry-grants", {
    name: `Grant ${party.identifier} ${Math.random()}`,
    hasAuthorizationRegistry: registryId,
    identifier: party.identifier,
    certificates: party.certificates,
    privateKey: party.privateKey,
  }).then((r) => r.id as string);

/** Points the workspace at a registry and grant. */
async function useRegistry(registryId: string, grantId: string) {
  const { id: _id, ...fields } = await ok("GET", `/api/workspaces/${ids.workspace}`);
  await ok("PUT", `/api/workspaces/${ids.workspace}`, {
    ...fields,
    enableOffers: true,
    hasAuthorizationRegistry: registryId,
    hasAuthorizationRegistryGrant: grantId,
  });
}

const role = (name: string, extra: Record<string, unknown> = {}) =>
  ctx.api("POST", `${path}/roles`, {
    name,
    notBefore: 1_767_225_600,
    notOnOrAfter: 1_798_761_600,
    dataServiceProviderId: "EU.EORI.NLPROVIDER",
    verifiableCredentialType: "StockerCredential",
    ...extra,
  });

const sync = (roleId: string, effect: string, headers?: Record<string, string>) =>
  ctx.api("POST", `${path}/roles/${roleId}/synchronize`, { effect }, headers);

/** A role with one access to the Shelves data service (GET and PATCH). */
async function roleWithAccess(name: string, roleName: string) {
  const made = await role(name, { roleName });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await ok("POST", `${path}/data-service-accesses`, { hasRole: made.body.id, hasDataService: ids.service });
  return made.body.id as string;
}

beforeAll(async () => {
  [registryParty, orrery, stranger] = await Promise.all([
    partyCredentials("EU.EORI.NLKEYROCK", "Keyrock"),
    partyCredentials("EU.EORI.NLORRERY", "Orrery"),
    partyCredentials("EU.EORI.NLSTRANGER", "Stranger"),
  ]);
  registry = await startFakeRegistry({
    credentials: registryParty,
    trustedRoots: [registryParty.root, orrery.root],
  });
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const service = await ok("POST", "/api/services", { name: "Sync service", hasContextBroker: broker.id });
  ids.workspace = (
    await ok("POST", "/api/workspaces", { name: "Sync", dataModelName: "sync", hasService: service.id })
  ).id;
  path = `/api/workspace/${ids.workspace}`;
  const type = await ok("POST", `${path}/types`, { name: "Shelf" });
  const property = await ok("POST", `${path}/properties`, {
    name: "numberOfItems",
    hasType: type.id,
    ngsiLdType: "Property",
    propertyNgsiLdValueType: "Number",
  });
  const get = await ok("POST", "/api/data-actions", { name: "GET" });
  const patch = await ok("POST", "/api/data-actions", { name: "PATCH" });
  ids.service = (
    await ok("POST", `${path}/data-services`, {
      name: "Shelves",
      hasEntityType: type.id,
      hasProperties: [property.id],
      hasDataActions: [get.id, patch.id],
    })
  ).id;
  ids.keyrock = await registryRecord("Keyrock", "keyrock");
  ids.owner = await grantOf(registryParty, ids.keyrock);
  ids.orrery = await grantOf(orrery, ids.keyrock);
  ids.stranger = await grantOf(stranger, ids.keyrock);
});

afterAll(() => registry?.close());

describe(`a role's roleName (${driver})`, () => {
  it("is one word, unique in the workspace, made from the name when a client sends none, and carried by the accesses", async () => {
    const spaced = await role("Shelf stocker", { roleName: "Shelf stocker" });
    expect(spaced.status).toBe(400);
    expect(spaced.body.errors).toEqual([
      expect.objectContaining({ path: "roleName", code: "format.accessSubject" }),
    ]);
    const made = await role("Shelf  stocker");
    expect(made.status).toBe(201);
    expect(made.body.roleName).toBe("Shelf_stocker");
    const twin = await role("Another", { roleName: "Shelf_stocker" });
    expect(twin.status).toBe(409);
    expect(twin.body).toMatchObject({
      code: "conflict.roleName",
      errors: [{ path: "roleName", code: "conflict.roleName" }],
    });
    const access = await ok("POST", `${path}/data-service-accesses`, {
      hasRole: made.body.id,
      hasDataService: ids.service,
    });
    expect(access.roleName).toBe("Shelf_stocker");
    // A new roleName reaches the accesses; an update that leaves it out keeps it.
    const { id, ...fields } = made.body;
    await ok("PUT", `${path}/roles/${id}`, { ...fields, roleName: "ShelfStocker" });
    expect((await ok("GET", `${path}/data-service-accesses/${access.id}`)).roleName).toBe("ShelfStocker");
    const { roleName: _left, ...withoutRoleName } = fields;
    expect((await ok("PUT", `${path}/roles/${id}`, withoutRoleName)).roleName).toBe("ShelfStocker");
  });
});

describe(`role synchronisation with Keyrock (${driver})`, () => {
  it("writes the policy without environment, proves it with a delegation request, and keeps the registry's evidence", async () => {
    const roleId = await roleWithAccess("Logistics partner", "Logistics_partner");
    await useRegistry(ids.keyrock, ids.owner);
    const synced = await sync(roleId, "Permit");
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    const sent = registry.policies.get(`${registryParty.identifier} Logistics_partner`)!;
    expect(sent.target).toEqual({ accessSubject: "Logistics_partner" });
    expect(sent.policySets[0].policies).toEqual([
      {
        target: {
          resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] },
          actions: ["GET", "PATCH"],
        },
        rules: [{ effect: "Permit" }],
      },
    ]);
    expect(synced.body).toMatchObject({ synchronized: true });
    expect(synced.body.synchronizationTime).toBeGreaterThan(1_700_000_000);
    // The evidence kept is the registry's answer: one Permit per data action.
    expect(synced.body.lastDelegationEvidence.delegationEvidence).toMatchObject({
      policyIssuer: registryParty.identifier,
      target: { accessSubject: "Logistics_partner" },
      policySets: [
        {
          policies: [
            { target: { actions: ["GET"] }, rules: [{ effect: "Permit" }] },
            { target: { actions: ["PATCH"] }, rules: [{ effect: "Permit" }] },
          ],
        },
      ],
    });
    expect(synced.body.details).toEqual([
      "Writing the policy of 'Logistics_partner' to the authorization registry Keyrock…",
      "Asking Keyrock for the delegation evidence of 'Logistics_partner'…",
      "✔ GET on Shelf: Permit",
      "✔ PATCH on Shelf: Permit",
    ]);

    // Deny as iSHARE writes it (Permit, then Deny on the target), which Keyrock answers Deny.
    const denied = await sync(roleId, "Deny", { "accept-language": "fr" });
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    expect(denied.body.details).toContain("✔ GET sur Shelf\u00a0: Deny");
    expect(
      registry.policies.get(`${registryParty.identifier} Logistics_partner`)!.policySets[0].policies[0].rules,
    ).toEqual([
      { effect: "Permit" },
      {
        effect: "Deny",
        target: {
          resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] },
          actions: ["GET", "PATCH"],
        },
      },
    ]);
    expect(denied.body.lastDelegationEvidence.delegationEvidence.policySets[0].policies[1].rules).toEqual([
      { effect: "Deny" },
    ]);
  });

  it("leaves the role unsynchronised, with a line per data action, when the registry does not answer the effect", async () => {
    const roleId = await roleWithAccess("Stock analyst", "Stock_analyst");
    await useRegistry(ids.keyrock, ids.owner);
    // A registry that keeps the policy with a service provider (what Orrery sent before): Keyrock's
    // matcher then answers Deny to a request without one.
    const set = registry.policies.set.bind(registry.policies);
    registry.policies.set = (key, evidence) => {
      for (const policy of evidence.policySets[0].policies)
        policy.target.environment = { serviceProviders: ["EU.EORI.NLPROVIDER"] };
      return set(key, evidence);
    };
    try {
      const unproven = await sync(roleId, "Permit");
      expect(unproven.status).toBe(502);
      expect(unproven.body).toMatchObject({ code: "roles.notProven" });
      expect(unproven.body.detail).toBe(
        "The authorization registry Keyrock took the policy of Stock_analyst, but its delegation evidence does not answer Permit for every data action: the role is not synchronised.",
      );
      expect(unproven.body.details.slice(2)).toEqual([
        "❌ GET on Shelf: the registry answered Deny, not Permit",
        "❌ PATCH on Shelf: the registry answered Deny, not Permit",
      ]);
      // A registry that takes the policy but keeps nothing: its empty 404, explained.
      registry.policies.set = () => registry.policies;
      registry.policies.delete(`${registryParty.identifier} Stock_analyst`);
      const lost = await sync(roleId, "Permit");
      expect(lost.status).toBe(502);
      expect(lost.body.details.at(-1)).toBe(
        "❌ The delegation request failed: The authorization registry Keyrock knows no policy for the access subject Stock_analyst (404).",
      );
    } finally {
      registry.policies.set = set;
    }
    const after = await ok("GET", `${path}/roles/${roleId}`);
    expect(after).toMatchObject({
      synchronized: false,
      synchronizationTime: 0,
      lastDelegationEvidence: null,
    });
  });

  it("sends the service provider to a registry that takes it; Keyrock's matcher fails on it, and the role is not synchronised", async () => {
    const roleId = await roleWithAccess("Auditor", "Auditor");
    const other = await registryRecord("Other", "ishare");
    await useRegistry(other, await grantOf(registryParty, other));
    const failed = await sync(roleId, "Permit");
    expect(
      registry.policies.get(`${registryParty.identifier} Auditor`)!.policySets[0].policies[0].target,
    ).toMatchObject({
      environment: { serviceProviders: ["EU.EORI.NLPROVIDER"] },
    });
    expect(failed.status).toBe(502);
    expect(failed.body.details.at(-1)).toBe(
      "❌ The delegation request failed: The authorization registry Other refused the delegation request (500): Internal Server Error",
    );
    expect((await ok("GET", `${path}/roles/${roleId}`)).synchronized).toBe(false);
  });

  it("names Keyrock's rule on a 403, gives an HTML refusal's reason, and changes nothing on a refused write", async () => {
    // Characters that mean something in a pattern or a path are an access subject like any other.
    const roleId = await roleWithAccess("Picker", "Picker.*+?(|\\");
    await useRegistry(ids.keyrock, ids.owner);
    expect((await sync(roleId, "Permit")).status).toBe(200);
    const before = await ok("GET", `${path}/roles/${roleId}`);
    await useRegistry(ids.keyrock, ids.orrery);
    const forbidden = await sync(roleId, "Deny");
    expect(forbidden.status).toBe(502);
    expect(forbidden.body).toMatchObject({ code: "registry.policyForbidden", registryStatus: 403 });
    expect(forbidden.body.detail).toContain(
      `lets only its own party ${registryParty.identifier} (or its administrator) write policies, and the grant signs in as ${orrery.identifier}`,
    );
    await useRegistry(ids.keyrock, ids.stranger);
    const untrusted = await sync(roleId, "Deny");
    expect(untrusted.body).toMatchObject({ registryStatus: 400, params: { step: "token" } });
    expect(untrusted.body.detail).toBe(
      "The authorization registry Keyrock refused the token request (400): client is not a trusted participant",
    );
    expect(await ok("GET", `${path}/roles/${roleId}`)).toEqual(before);
    expect(
      registry.policies.get(`${registryParty.identifier} Picker.*+?(|\\`)!.policySets[0].policies[0].rules,
    ).toEqual([{ effect: "Permit" }]);
  });
});

describe(`roles from before roleName (${driver})`, () => {
  it("migrate: the name's words joined, duplicates suffixed, the accesses following, the subject's change unsynchronising", async () => {
    const db = ctx.t.storage.db;
    const plain = (await role("Loader")).body.id as string;
    const spaced = (await role("Night  shift")).body.id as string;
    const twin = (await role("Night shift", { roleName: "Night_shift_b" })).body.id as string;
    await ok("POST", `${path}/data-service-accesses`, { hasRole: spaced, hasDataService: ids.service });
    await db.execute(sql.raw("DROP INDEX records_unique_role_name"));
    await db.execute(sql.raw("DELETE FROM orrery_migrations WHERE name = '0010_role_name'"));
    await db.execute(
      sql.raw(
        `UPDATE records SET data = (data - 'roleName') || '{"synchronized": true}'::jsonb WHERE kind = 'roles'`,
      ),
    );
    await db.execute(
      sql.raw(`UPDATE records SET data = data - 'roleName' WHERE kind = 'data-service-accesses'`),
    );

    await migrate(db);

    const after = async (id: string) => ok("GET", `${path}/roles/${id}`);
    expect(await after(plain)).toMatchObject({ roleName: "Loader", synchronized: true });
    expect(await after(spaced)).toMatchObject({ roleName: "Night_shift", synchronized: false });
    expect(await after(twin)).toMatchObject({ roleName: "Night_shift_2", synchronized: false });
    const accesses = (await ok("GET", `${path}/data-service-accesses`)) as Array<Record<string, unknown>>;
    expect(accesses.find((a) => a.hasRole === spaced)?.roleName).toBe("Night_shift");
    expect(accesses.every((a) => typeof a.roleName === "string")).toBe(true);
    expect((await role("Night shift 3", { roleName: "Night_shift_2" })).status).toBe(409);
  });
});

describe(`a synchronised role whose policy changes (${driver})`, () => {
  /** Asks the registry itself, through the registry tool's proxy, what it answers for a type and action. */
  async function registryAnswers(roleName: string, type: string, action: string) {
    const res = await ctx.api(
      "POST",
      `/api/proxies/authorization-registry/request-delegation?authorizationRegistryId=${encodeURIComponent(ids.keyrock)}&authorizationRegistryGrantId=${encodeURIComponent(ids.owner)}`,
      {
        delegationRequest: {
          policyIssuer: registryParty.identifier,
          target: { accessSubject: roleName },
          policySets: [
            {
              policies: [
                {
                  target: { resource: { type, identifiers: ["*"], attributes: ["*"] }, actions: [action] },
                  rules: [{ effect: "Permit" }],
                },
              ],
            },
          ],
        },
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.delegationEvidence.policySets[0].policies[0].rules[0].effect as string;
  }

  async function synchronised(roleId: string) {
    const synced = await sync(roleId, "Permit");
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    expect(synced.body).toMatchObject({ synchronized: true, changedSinceSynchronization: false });
  }

  const state = async (roleId: string) => {
    const { synchronized, changedSinceSynchronization } = await ok("GET", `${path}/roles/${roleId}`);
    return { synchronized, changedSinceSynchronization };
  };
  const stale = { synchronized: false, changedSinceSynchronization: true };
  const fresh = { synchronized: true, changedSinceSynchronization: false };

  /** A PUT of a record with some fields changed (the body as read, without id). */
  async function edit(url: string, changes: Record<string, unknown>) {
    const { id: _id, ...fields } = await ok("GET", url);
    return ok("PUT", url, { ...fields, ...changes });
  }

  it("is unsynchronised by an access added, and the registry permits it after a new synchronisation", async () => {
    const roleId = await roleWithAccess("Bin keeper", "Bin_keeper.*+?(|\\");
    await useRegistry(ids.keyrock, ids.owner);
    await synchronised(roleId);
    const bin = await ok("POST", `${path}/types`, { name: "Bin" });
    const get = (await ok("GET", "/api/data-actions")).find((a: { name: string }) => a.name === "GET");
    const bins = await ok("POST", `${path}/data-services`, {
      name: "Bins",
      hasEntityType: bin.id,
      hasDataActions: [get.id],
    });
    await ok("POST", `${path}/data-service-accesses`, { hasRole: roleId, hasDataService: bins.id });
    expect(await state(roleId)).toEqual(stale);
    // What the flag said before: the registry does not permit the new access.
    expect(await registryAnswers("Bin_keeper.*+?(|\\", "Bin", "GET")).toBe("Deny");

    await synchronised(roleId);
    expect(await registryAnswers("Bin_keeper.*+?(|\\", "Bin", "GET")).toBe("Permit");
    expect(await registryAnswers("Bin_keeper.*+?(|\\", "Shelf", "PATCH")).toBe("Permit");
  });

  it("is unsynchronised by an access removed, or moved to another data service", async () => {
    const roleId = await roleWithAccess("Shelf counter", "Shelf_counter");
    const second = await ok("POST", `${path}/data-service-accesses`, {
      hasRole: roleId,
      hasDataService: ids.service,
    });
    await useRegistry(ids.keyrock, ids.owner);
    await synchronised(roleId);
    const res = await ctx.api("DELETE", `${path}/data-service-accesses/${second.id}`);
    expect(res.status).toBe(204);
    expect(await state(roleId)).toEqual(stale);

    await synchronised(roleId);
    const [access] = (await ok("GET", `${path}/data-service-accesses`)).filter(
      (a: { hasRole: string }) => a.hasRole === roleId,
    );
    const type = await ok("POST", `${path}/types`, { name: "Crate" });
    const crates = await ok("POST", `${path}/data-services`, { name: "Crates", hasEntityType: type.id });
    await edit(`${path}/data-service-accesses/${access.id}`, { hasDataService: crates.id });
    expect(await state(roleId)).toEqual(stale);
  });

  it("is unsynchronised by its data service's type or actions, and by that type's or action's name", async () => {
    const type = await ok("POST", `${path}/types`, { name: "Pallet" });
    const action = await ok("POST", "/api/data-actions", { name: "PUT" });
    const other = await ok("POST", "/api/data-actions", { name: "DELETE" });
    const pallets = await ok("POST", `${path}/data-services`, {
      name: "Pallets",
      hasEntityType: type.id,
      hasDataActions: [action.id],
    });
    const made = await role("Pallet mover", { roleName: "Pallet_mover" });
    await ok("POST", `${path}/data-service-accesses`, { hasRole: made.body.id, hasDataService: pallets.id });
    const roleId = made.body.id as string;
    await useRegistry(ids.keyrock, ids.owner);
    const serviceUrl = `${path}/data-services/${pallets.id}`;

    await synchronised(roleId);
    await edit(serviceUrl, { hasDataActions: [action.id, other.id] });
    expect(await state(roleId)).toEqual(stale);

    await synchronised(roleId);
    const box = await ok("POST", `${path}/types`, { name: "Box" });
    await edit(serviceUrl, { hasEntityType: box.id, hasProperties: [] });
    expect(await state(roleId)).toEqual(stale);

    await synchronised(roleId);
    await edit(`${path}/types/${box.id}`, { name: "Carton" });
    expect(await state(roleId)).toEqual(stale);

    await synchronised(roleId);
    await edit(`/api/data-actions/${other.id}`, { name: "POST" });
    expect(await state(roleId)).toEqual(stale);

    // What its policy does not hold leaves it synchronised: the data service's name and offer, an
    // unused type's name, the role's own name.
    await synchronised(roleId);
    await edit(serviceUrl, { name: "Pallets and cartons", isOffer: true });
    await edit(`${path}/types/${type.id}`, { name: "Skid" });
    await edit(`${path}/roles/${roleId}`, { name: "Pallet mover (night)" });
    expect(await state(roleId)).toEqual(fresh);
  });

  it("is not called synchronised when an access is added while it is being synchronised", async () => {
    const roleId = await roleWithAccess("Night picker", "Night_picker");
    await useRegistry(ids.keyrock, ids.owner);
    const type = await ok("POST", `${path}/types`, { name: "Tote" });
    const get = (await ok("GET", "/api/data-actions")).find((a: { name: string }) => a.name === "GET");
    const totes = await ok("POST", `${path}/data-services`, {
      hasEntityType: type.id,
      hasDataActions: [get.id],
    });
    // The access is added as the registry takes the policy, before the synchronisation has its proof.
    const set = registry.policies.set.bind(registry.policies);
    let added: Promise<unknown> | undefined;
    registry.policies.set = (key, evidence) => {
      added ??= ok("POST", `${path}/data-service-accesses`, { hasRole: roleId, hasDataService: totes.id });
      return set(key, evidence);
    };
    try {
      const synced = await sync(roleId, "Permit");
      await added;
      if (synced.status !== 200) {
        expect(synced.status).toBe(409);
        expect(synced.body.code).toBe("roles.changedDuringSynchronization");
      }
    } finally {
      registry.policies.set = set;
    }
    expect((await state(roleId)).synchronized).toBe(false);
  });

  it("is unsynchronised by its dates, roleName or data service provider", async () => {
    const roleId = await roleWithAccess("Forklift driver", "Forklift_driver");
    await useRegistry(ids.keyrock, ids.owner);
    const url = `${path}/roles/${roleId}`;
    for (const changes of [
      { notBefore: 1_767_225_601 },
      { notOnOrAfter: 1_798_761_601 },
      { roleName: "Forklift_operator" },
      { dataServiceProviderId: "EU.EORI.NLOTHER" },
    ]) {
      await synchronised(roleId);
      const after = await edit(url, changes);
      expect(after, JSON.stringify(changes)).toMatchObject(stale);
      expect(await state(roleId)).toEqual(stale);
    }
    // A role never synchronised has nothing to go stale.
    const never = (await role("Trainee", { roleName: "Trainee" })).body.id as string;
    await ok("POST", `${path}/data-service-accesses`, { hasRole: never, hasDataService: ids.service });
    const { synchronized, changedSinceSynchronization } = await ok("GET", `${path}/roles/${never}`);
    expect({ synchronized, changedSinceSynchronization }).toEqual({
      synchronized: false,
      changedSinceSynchronization: undefined,
    });
  });
});
