import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizationRegistryGrants, identityManagerGrants } from "@orrery/model";
import { listen, readBody, sendJson, type Listening } from "../../../test/fakes/http.ts";
import { partyCredentials } from "../../../test/fakes/pki.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { migrate } from "../src/storage/migrations.ts";
import { rowsOf } from "../src/storage/database.ts";
import { client, driver, startTestApp, useTestApp, type TestApp } from "./support/harness.ts";

// A grant goes to its own peer only (issue 24): an identity manager grant names the identity manager
// it was made for, a registry grant its registry. A record may pair a grant only with that peer; a
// grant's peer cannot move while records pair it; and a pairing saved before the rule, or asked by
// the registry tool's query, is refused before any secret leaves, which peers listening here prove.

/** A peer that records every request it receives, and answers none of them usefully. */
interface Recorder extends Listening {
  received: string[];
}
async function recorder(): Promise<Recorder> {
  const received: string[] = [];
  const listening = await listen(async (req, res, url) => {
    received.push(`${req.method} ${url.pathname} ${await readBody(req)}`);
    sendJson(res, 404, { error: "nothing here" });
  });
  return { ...listening, received };
}

const ctx = useTestApp();
const peers: Record<string, Recorder> = {};
const ids: Record<string, string> = {};
let workspace: Record<string, unknown> = {};

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const at = (peer: Recorder) => ({ scheme: "http", host: "127.0.0.1", port: Number(new URL(peer.url).port) });
/** Writes a record's data directly, as a record saved before the rule would be. */
const writeData = (id: string, change: string) =>
  ctx.t.storage.db.execute(sql`UPDATE records SET data = ${sql.raw(change)} WHERE id = ${id}`);
const asJson = (value: string) => `to_jsonb('${value}'::text)`;
const nothingReceived = () => {
  for (const [name, peer] of Object.entries(peers)) expect(peer.received, name).toEqual([]);
};

beforeAll(async () => {
  for (const name of ["idmA", "idmB", "registryA", "registryB"]) peers[name] = await recorder();
  for (const [key, name, peer] of [
    ["idmA", "Keyrock A", peers.idmA!],
    ["idmB", "Keyrock B (.*+?(|\\)", peers.idmB!],
  ] as const)
    ids[key] = (
      await ok("POST", "/api/identity-managers", {
        ...samplePayload("identity-managers", () => ""),
        name,
        ...at(peer),
      })
    ).id;
  ids.grantA = (
    await ok("POST", "/api/identity-manager-grants", {
      ...samplePayload("identity-manager-grants", () => ids.idmA!),
      name: "Supermarket admin",
      username: "admin",
      password: "admin",
    })
  ).id;
  const party = await partyCredentials("EU.EORI.NLORRERY", "Orrery");
  for (const [key, name, peer] of [
    ["registryA", "Registry A", peers.registryA!],
    ["registryB", "Registry B", peers.registryB!],
  ] as const)
    ids[key] = (
      await ok("POST", "/api/authorization-registries", {
        ...samplePayload("authorization-registries", () => ""),
        name,
        ...at(peer),
      })
    ).id;
  ids.registryGrantA = (
    await ok("POST", "/api/authorization-registry-grants", {
      name: "Orrery at registry A",
      hasAuthorizationRegistry: ids.registryA,
      identifier: party.identifier,
      certificates: party.certificates,
      privateKey: party.privateKey,
    })
  ).id;
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  ids.service = (
    await ok("POST", "/api/services", {
      name: "Protected",
      hasContextBroker: broker.id,
      authorizationRequired: true,
      authorizationMode: "oauth2",
      hasIdentityManager: ids.idmA,
      hasIdentityManagerGrant: ids.grantA,
    })
  ).id;
  workspace = await ok("POST", "/api/workspaces", {
    name: "Supermarket",
    dataModelName: "supermarket-grant-peer",
    hasService: ids.service,
    hasIdentityManager: ids.idmA,
    hasIdentityManagerGrant: ids.grantA,
  });
  ids.workspace = String(workspace.id);
});

afterAll(() => Promise.all(Object.values(peers).map((p) => p.close())));

describe(`a grant goes only to its own peer (${driver})`, () => {
  it("refuses a workspace re-pointed at another identity manager with its grant, on the grant field", async () => {
    const { id: _id, ...fields } = workspace;
    const repointed = await ctx.api("PUT", `/api/workspaces/${ids.workspace}`, {
      ...fields,
      hasIdentityManager: ids.idmB,
    });
    expect(repointed.status).toBe(400);
    expect(repointed.body.errors).toEqual([
      {
        path: "hasIdentityManagerGrant",
        code: "field.ofAnother",
        params: { name: "Supermarket admin", owner: "Keyrock A", field: "hasIdentityManager" },
        message:
          "refers to “Supermarket admin”, which belongs to “Keyrock A”, not to the chosen “Identity manager”",
      },
    ]);
    const french = await ctx.api(
      "PUT",
      `/api/workspaces/${ids.workspace}`,
      { ...fields, hasIdentityManager: ids.idmB },
      { "accept-language": "fr" },
    );
    expect(french.body.errors[0].message).toBe(
      "désigne « Supermarket admin », qui appartient à « Keyrock A » et non au champ « Gestionnaire d'identité » choisi",
    );
    expect((await ok("GET", `/api/workspaces/${ids.workspace}`)).hasIdentityManager).toBe(ids.idmA);
    nothingReceived();
  });

  it("refuses the same pairing on a service and a temporal service, and a registry grant of another registry", async () => {
    const service = await ok("GET", `/api/services/${ids.service}`);
    const { id: _s, ...serviceFields } = service;
    const repointed = await ctx.api("PUT", `/api/services/${ids.service}`, {
      ...serviceFields,
      hasIdentityManager: ids.idmB,
    });
    expect(repointed.status).toBe(400);
    expect(repointed.body.errors[0]).toMatchObject({
      path: "hasIdentityManagerGrant",
      code: "field.ofAnother",
    });
    const mintaka = await ctx.api("POST", "/api/temporal-services", {
      ...samplePayload("temporal-services", () => ""),
      authorizationRequired: true,
      hasIdentityManager: ids.idmB,
      hasIdentityManagerGrant: ids.grantA,
    });
    expect(mintaka.status).toBe(400);
    expect(mintaka.body.errors[0]).toMatchObject({
      path: "hasIdentityManagerGrant",
      code: "field.ofAnother",
    });
    const { id: _w, ...fields } = workspace;
    const offers = await ctx.api("PUT", `/api/workspaces/${ids.workspace}`, {
      ...fields,
      enableOffers: true,
      hasAuthorizationRegistry: ids.registryB,
      hasAuthorizationRegistryGrant: ids.registryGrantA,
    });
    expect(offers.status).toBe(400);
    expect(offers.body.errors).toEqual([
      expect.objectContaining({
        path: "hasAuthorizationRegistryGrant",
        params: { name: "Orrery at registry A", owner: "Registry A", field: "hasAuthorizationRegistry" },
      }),
    ]);
    nothingReceived();
  });

  it("refuses to move a grant to another identity manager while records pair it with its own, naming them", async () => {
    const { id: _g, ...grant } = await ok("GET", `/api/identity-manager-grants/${ids.grantA}`);
    const moved = await ctx.api("PUT", `/api/identity-manager-grants/${ids.grantA}`, {
      ...grant,
      hasIdentityManager: ids.idmB,
    });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe("record.dependents");
    expect(moved.body.detail).toBe(
      "The change of its “Identity manager” would break these records that go with it: “Protected”, “Supermarket”.",
    );
    expect(moved.body.referrers.map((r: { id: string }) => r.id)).toEqual([ids.service, ids.workspace]);
    expect((await ok("GET", `/api/identity-manager-grants/${ids.grantA}`)).hasIdentityManager).toBe(ids.idmA);
    // Renaming it, its identity manager unchanged, is no move.
    const renamed = await ctx.api("PUT", `/api/identity-manager-grants/${ids.grantA}`, {
      ...grant,
      description: "The Supermarket's administrator",
    });
    expect(renamed.status).toBe(200);
  });

  it("refuses to delete the identity manager a grant names, naming the grant", async () => {
    const other = await ok("POST", "/api/identity-managers", {
      ...samplePayload("identity-managers", () => ""),
      name: "Keyrock C",
    });
    const grant = await ok("POST", "/api/identity-manager-grants", {
      ...samplePayload("identity-manager-grants", () => other.id),
      name: "Grant of C",
    });
    const refused = await ctx.api("DELETE", `/api/identity-managers/${other.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("“Grant of C”");
    expect(refused.body.referrers).toEqual([
      expect.objectContaining({
        id: grant.id,
        kind: "identity-manager-grants",
        refs: { hasIdentityManager: other.id },
      }),
    ]);
    expect((await ctx.api("DELETE", `/api/identity-manager-grants/${grant.id}`)).status).toBe(204);
    expect((await ctx.api("DELETE", `/api/identity-managers/${other.id}`)).status).toBe(204);
  });

  it("refuses at use a workspace saved before the rule with another identity manager's grant: nothing reaches it", async () => {
    await writeData(ids.workspace!, `jsonb_set(data, '{hasIdentityManager}', ${asJson(ids.idmB!)})`);
    const users = await ctx.api("GET", `/api/workspace/${ids.workspace}/users`);
    expect(users.status).toBe(409);
    expect(users.body).toMatchObject({
      code: "grant.ofAnotherPeer",
      params: { grant: "Supermarket admin", owner: "Keyrock A", peer: "Keyrock B (.*+?(|\\)" },
    });
    expect(users.body.detail).toBe(
      "The grant “Supermarket admin” belongs to “Keyrock A”, not to “Keyrock B (.*+?(|\\)”: its secrets go to “Keyrock A” only. Choose a grant of “Keyrock B (.*+?(|\\)”.",
    );
    const french = await ctx.api("GET", `/api/workspace/${ids.workspace}/users`, undefined, {
      "accept-language": "fr",
    });
    expect(french.body.detail).toContain("L’autorisation « Supermarket admin » appartient à « Keyrock A »");
    nothingReceived();
    await writeData(ids.workspace!, `jsonb_set(data, '{hasIdentityManager}', ${asJson(ids.idmA!)})`);
  });

  it("refuses at use a service's grant of another identity manager before asking it for a token", async () => {
    await writeData(ids.service!, `jsonb_set(data, '{hasIdentityManager}', ${asJson(ids.idmB!)})`);
    try {
      const entity = await ctx.api("GET", `/api/workspace/${ids.workspace}/entities/urn:ngsi-ld:Shelf:1`);
      expect(entity.status).toBe(409);
      expect(entity.body.code).toBe("grant.ofAnotherPeer");
      nothingReceived();
    } finally {
      await writeData(ids.service!, `jsonb_set(data, '{hasIdentityManager}', ${asJson(ids.idmA!)})`);
    }
  });

  it("refuses at use a grant that names no identity manager yet", async () => {
    await writeData(ids.grantA!, `data - 'hasIdentityManager'`);
    try {
      const users = await ctx.api("GET", `/api/workspace/${ids.workspace}/users`);
      expect(users.status).toBe(409);
      expect(users.body).toMatchObject({
        code: "grant.ofNoPeer",
        params: { grant: "Supermarket admin", peer: "Keyrock A" },
      });
      nothingReceived();
    } finally {
      await writeData(ids.grantA!, `jsonb_set(data, '{hasIdentityManager}', ${asJson(ids.idmA!)})`);
    }
  });

  it("refuses the registry tool a grant of another registry, whatever its query names", async () => {
    const query = (registry: string, grant: string) =>
      `authorizationRegistryId=${encodeURIComponent(registry)}&authorizationRegistryGrantId=${encodeURIComponent(grant)}`;
    const policy = await ctx.api(
      "POST",
      `/api/proxies/authorization-registry/create-policy?${query(ids.registryB!, ids.registryGrantA!)}`,
      { delegationEvidence: { policyIssuer: "EU.EORI.NLORRERY" } },
    );
    expect(policy.status).toBe(409);
    expect(policy.body).toMatchObject({
      code: "grant.ofAnotherPeer",
      params: { grant: "Orrery at registry A", owner: "Registry A", peer: "Registry B" },
    });
    const delegation = await ctx.api(
      "POST",
      `/api/proxies/authorization-registry/request-delegation?${query(ids.registryB!, ids.registryGrantA!)}`,
      { delegationRequest: {} },
    );
    expect(delegation.status).toBe(409);
    nothingReceived();
    // Its own registry is asked (and answers 404 here): the check lets the right pairing through.
    await ctx.api(
      "POST",
      `/api/proxies/authorization-registry/create-policy?${query(ids.registryA!, ids.registryGrantA!)}`,
      { delegationEvidence: { policyIssuer: "EU.EORI.NLORRERY" } },
    );
    expect(peers.registryA!.received.length).toBeGreaterThan(0);
    peers.registryA!.received.length = 0;
  });
});

describe(`migration 0009_grant_peer (${driver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it("gives each grant the peer that records pair it with, copying it for every other peer", async () => {
    const api = client(t, await t.tokenFor("admin"));
    const made = async (path: string, body: unknown) => {
      const res = await api("POST", path, body);
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };
    const idm = (name: string) =>
      made("/api/identity-managers", { ...samplePayload("identity-managers", () => ""), name });
    const registry = (name: string) =>
      made("/api/authorization-registries", { ...samplePayload("authorization-registries", () => ""), name });
    const [alpha, beta, arAlpha, arBeta] = [
      await idm("Alpha IdM"),
      await idm("Beta IdM"),
      await registry("Alpha AR"),
      await registry("Beta AR"),
    ];
    const shared = await made("/api/identity-manager-grants", {
      ...samplePayload("identity-manager-grants", () => alpha),
      name: "Shared grant",
    });
    const lonely = await made("/api/identity-manager-grants", {
      ...samplePayload("identity-manager-grants", () => alpha),
      name: "Lonely grant",
    });
    const key = await made("/api/authorization-registry-grants", {
      ...samplePayload("authorization-registry-grants", () => arAlpha),
      name: "Shared key",
    });
    const broker = await made(
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    const open = await made("/api/services", { name: "Open", hasContextBroker: broker });
    const oauth2 = (name: string) =>
      made("/api/services", {
        name,
        hasContextBroker: broker,
        authorizationRequired: true,
        authorizationMode: "oauth2",
        hasIdentityManager: alpha,
        hasIdentityManagerGrant: shared,
      });
    const serviceOnBeta = await oauth2("On beta");
    const mintakaOnBeta = await made("/api/temporal-services", {
      ...samplePayload("temporal-services", () => ""),
      authorizationRequired: true,
      hasIdentityManager: alpha,
      hasIdentityManagerGrant: shared,
    });
    const workspace = (name: string) =>
      made("/api/workspaces", {
        name,
        dataModelName: name.toLowerCase(),
        hasService: open,
        hasIdentityManager: alpha,
        hasIdentityManagerGrant: shared,
        enableOffers: true,
        hasAuthorizationRegistry: arAlpha,
        hasAuthorizationRegistryGrant: key,
      });
    const onAlpha = await workspace("Alpha");
    const onBeta = await workspace("Beta");

    // The old shape: grants without a peer, and pairings as an operator could save them before.
    const db = t.storage.db;
    await db.execute(sql`UPDATE records SET data = data - 'hasIdentityManager' - 'hasAuthorizationRegistry'
      WHERE kind IN ('identity-manager-grants', 'authorization-registry-grants')`);
    for (const id of [serviceOnBeta, mintakaOnBeta, onBeta])
      await db.execute(
        sql`UPDATE records SET data = jsonb_set(data, '{hasIdentityManager}', to_jsonb(${beta}::text)) WHERE id = ${id}`,
      );
    await db.execute(
      sql`UPDATE records SET data = jsonb_set(data, '{hasAuthorizationRegistry}', to_jsonb(${arBeta}::text)) WHERE id = ${onBeta}`,
    );
    const before = await t.records.find(identityManagerGrants, shared);
    await db.execute(sql`DELETE FROM orrery_migrations WHERE name = '0009_grant_peer'`);
    await migrate(db);

    const data = async (id: string) =>
      (
        await api(
          "GET",
          `/api/${id.includes(":Workspace:") ? "workspaces" : id.includes(":Service:") ? "services" : "temporal-services"}/${id}`,
        )
      ).body;
    const grants = (await api("GET", "/api/identity-manager-grants")).body as Array<Record<string, unknown>>;
    expect(grants.map((g) => [g.name, g.hasIdentityManager])).toEqual([
      ["Lonely grant", undefined],
      ["Shared grant", alpha],
      ["Shared grant (Beta IdM)", beta],
    ]);
    const copy = grants.find((g) => g.hasIdentityManager === beta)!;
    expect(copy.id).toMatch(/^urn:ngsi-ld:IdentityManagerGrant:[0-9a-f-]{36}$/);
    expect(copy).toMatchObject({
      grantType: "password",
      clientId: "client-id",
      username: "alice@example.org",
    });
    // The same encrypted secrets, readable as before.
    const copied = await t.records.find(identityManagerGrants, String(copy.id));
    expect(copied!.secrets).toEqual(before!.secrets);
    expect(await t.records.secret(identityManagerGrants, String(copy.id), "password")).toBe("p4ssw0rd-alice");
    // One copy for beta, which two records and a workspace pair it with; all three re-pointed.
    for (const id of [serviceOnBeta, mintakaOnBeta, onBeta])
      expect((await data(id)).hasIdentityManagerGrant, id).toBe(copy.id);
    expect((await data(onAlpha)).hasIdentityManagerGrant).toBe(shared);
    expect(lonely).toBe(grants.find((g) => g.name === "Lonely grant")!.id);

    // The registry grant the same way, in the workspace whose identity manager grant moved too.
    const keys = (await api("GET", "/api/authorization-registry-grants")).body as Array<
      Record<string, unknown>
    >;
    expect(keys.map((k) => [k.name, k.hasAuthorizationRegistry])).toEqual([
      ["Shared key", arAlpha],
      ["Shared key (Beta AR)", arBeta],
    ]);
    const keyCopy = keys.find((k) => k.hasAuthorizationRegistry === arBeta)!;
    expect((await data(onBeta)).hasAuthorizationRegistryGrant).toBe(keyCopy.id);
    expect((await data(onAlpha)).hasAuthorizationRegistryGrant).toBe(key);
    expect(await t.records.secret(authorizationRegistryGrants, String(keyCopy.id), "privateKey")).toBe(
      await t.records.secret(authorizationRegistryGrants, key, "privateKey"),
    );
    // Every pairing now holds: each of these records saves unchanged.
    for (const id of [serviceOnBeta, mintakaOnBeta, onBeta, onAlpha]) {
      const { id: _id, dataModelVersion: _v, dataModelUpToDate: _u, ...fields } = await data(id);
      const path = `/api/${id.includes(":Workspace:") ? "workspaces" : id.includes(":Service:") ? "services" : "temporal-services"}/${id}`;
      expect((await api("PUT", path, fields)).status, id).toBe(200);
    }
    const count = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::int AS n FROM records WHERE kind = 'identity-manager-grants'`),
    );
    expect(count[0]!.n).toBe(3);
  });
});
