import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeRegistry, type FakeRegistry } from "../../../test/fakes/ishare-registry.ts";
import type { FakeKeyrock } from "../../../test/fakes/keyrock.ts";
import { startFakePap, type FakePap } from "../../../test/fakes/odrl-pap.ts";
import type { PartyCredentials } from "../../../test/fakes/pki.ts";
import { startFakeVerifier, type FakeVerifier } from "../../../test/fakes/vc-verifier.ts";
import {
  credential,
  fdscService,
  ishareRecords,
  partyEvidence,
  partyToken,
  roleWithAccess,
  schemeParties,
  startConsumerKeyrock,
  userToken,
  verifierToken,
} from "./support/consumer-peers.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";
import { driver } from "./support/harness.ts";

/**
 * Data-space consumers end to end (issue 35, "Done when"): their requests reach the embedded broker
 * through the API's port, as any consumer's would, and the PEP answers them from the workspace's
 * registry (iSHARE users and parties) or its PAP's ODRL policies (FDSC), with the workspace's
 * @context; the decisions are in the data access log.
 */
const CACHE_MS = 500;
const w = useEmbeddedWorkspace({ PEP_DECISION_CACHE_SECONDS: String(CACHE_MS / 1000) });
const PROVIDER = "did:web:provider.example.org";
const DEFAULT_VOCABULARY = "https://uri.etsi.org/ngsi-ld/default-context/";
const CONTEXT_REL = "http://www.w3.org/ns/json-ld#context";

let registry: FakeRegistry;
let keyrock: FakeKeyrock;
let pap: FakePap;
let verifier: FakeVerifier;
let foreignContexts: Server;
let scheme: { registry: PartyCredentials; consumer: PartyCredentials; stranger: PartyCredentials };
/** The workspaces of the consumers: `shop` judged by its registry, `clusters` by its PAP. */
const shop = { tenant: "", link: "", path: "", role: "", model: "" };
const clusters = { tenant: "", link: "", path: "", role: "" };
const building = "urn:ngsi-ld:Building:consumer-1";
const person = "urn:ngsi-ld:Person:consumer-1";

const ok = async (method: string, url: string, body?: unknown) => {
  const res = await w.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const linkTo = (url: string) => `<${url}>; rel="${CONTEXT_REL}"; type="application/ld+json"`;
const contextOf = (workspace: Record<string, unknown>) =>
  `${w.base}/data-models/${String(workspace.dataModelName)}/${Number(workspace.dataModelVersion)}/context.jsonld`;

/** A request to the embedded broker over HTTP, on the API's own port. */
async function broker(
  method: string,
  path: string,
  on: { tenant: string; link: string },
  token?: string,
  body?: unknown,
) {
  const res = await fetch(`${w.base}/ngsi-ld/v1${path}`, {
    method,
    headers: {
      "ngsild-tenant": on.tenant,
      link: on.link,
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}
const ids = (body: unknown) => (Array.isArray(body) ? body.map((e: { id: string }) => e.id) : body);
const readBuildings = (on: { tenant: string; link: string }, token: string) =>
  broker("GET", "/entities?type=Building", on, token);
const renameBuilding = (on: { tenant: string; link: string }, token: string) =>
  broker("PATCH", `/entities/${encodeURIComponent(building)}/attrs`, on, token, {
    name: { type: "Property", value: "renamed by a consumer" },
  });

/** An entity of each type of the test data model, written by an administrator. */
async function seed(on: { tenant: string; link: string }) {
  const admin = await w.t.tokenFor("admin");
  for (const entity of [
    { id: building, type: "Building", name: { type: "Property", value: "Depot" } },
    { id: person, type: "Person", name: { type: "Property", value: "Ada" } },
  ])
    expect((await broker("POST", "/entities", on, admin, entity)).status).toBe(201);
}

beforeAll(async () => {
  scheme = await schemeParties({
    registry: "EU.EORI.NLKEYROCK",
    consumer: "EU.EORI.NLCONSUMER",
    stranger: "EU.EORI.NLSTRANGER",
  });
  registry = await startFakeRegistry({ credentials: scheme.registry, trustedRoots: [scheme.registry.root] });
  keyrock = await startConsumerKeyrock("Building_reader");
  pap = await startFakePap();
  verifier = await startFakeVerifier();

  // iSHARE: the role Building_reader may GET Building; the party's evidence too.
  const trust = await ishareRecords(ok, registry, scheme.registry, keyrock);
  const ishare = await w.another({ ...trust, enableOffers: true });
  Object.assign(shop, {
    tenant: String(ishare.workspace.contextBrokerTenant),
    link: linkTo(contextOf(ishare.workspace)),
    path: ishare.path,
    model: String(ishare.workspace.dataModelName),
  });
  shop.role = await roleWithAccess(ok, shop.path, {
    typeId: ishare.types.Building!,
    actions: ["GET"],
    roleName: "Building_reader",
    provider: scheme.registry.identifier,
  });
  expect(
    (await ok("POST", `${shop.path}/roles/${shop.role}/synchronize`, { effect: "Permit" })).synchronized,
  ).toBe(true);
  await partyEvidence(ok, trust, scheme.registry.identifier, scheme.consumer.identifier, "Building");
  await seed(shop);

  // FDSC: the role OPERATOR may GET Building, by the ODRL policy Orrery writes to the PAP.
  const service = await fdscService(ok, {
    brokerId: w.brokerId,
    pap,
    provider: PROVIDER,
    clientId: "buildings",
    verifiers: { "Provider verifier": verifier },
  });
  const fdsc = await w.another({ hasService: service });
  Object.assign(clusters, {
    tenant: String(fdsc.workspace.contextBrokerTenant),
    link: linkTo(contextOf(fdsc.workspace)),
    path: fdsc.path,
  });
  clusters.role = await roleWithAccess(ok, clusters.path, {
    typeId: fdsc.types.Building!,
    actions: ["GET"],
    roleName: "OPERATOR",
    provider: PROVIDER,
    credentialType: "OperatorCredential",
  });
  expect(
    (await ok("POST", `${clusters.path}/roles/${clusters.role}/synchronize`, { effect: "Permit" }))
      .synchronized,
  ).toBe(true);
  await seed(clusters);

  // A consumer's own @context, mapping the permitted name Building to the IRI of Person.
  foreignContexts = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/ld+json" });
    res.end(JSON.stringify({ "@context": { Building: `${DEFAULT_VOCABULARY}Person` } }));
  });
  await new Promise<void>((resolve) => foreignContexts.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await registry?.close().catch(() => undefined);
  await keyrock?.close();
  await pap?.close().catch(() => undefined);
  await verifier?.close();
  if (foreignContexts) {
    foreignContexts.closeAllConnections();
    await new Promise((resolve) => foreignContexts.close(resolve));
  }
});

describe(`iSHARE consumers through /ngsi-ld/v1 (${driver})`, () => {
  it("a Keyrock user holding the role through an organisation reads the permitted type and gets 403 registryDeny on PATCH", async () => {
    const alice = await userToken(keyrock, "alice@shop.example", "alice-pw");
    const read = await readBuildings(shop, alice);
    expect(read.status, read.text).toBe(200);
    expect(ids(read.body)).toEqual([building]);
    const patch = await renameBuilding(shop, alice);
    expect(patch.status).toBe(403);
    expect(patch.body).toMatchObject({ status: 403, reason: "registryDeny" });
    expect(patch.body.detail).toBe("The authorization registry denies this request.");
    // The entity was not changed.
    const admin = await w.t.tokenFor("admin");
    const stored = await broker("GET", `/entities/${encodeURIComponent(building)}`, shop, admin);
    expect(stored.body.name.value).toBe("Depot");
    // bob holds none of the workspace's roles.
    const bob = await readBuildings(shop, await userToken(keyrock, "bob@shop.example", "bob-pw"));
    expect(bob.status).toBe(403);
    expect(bob.body.reason).toBe("noRole");
  });

  it("the role synchronised with Deny through Orrery's route: the read is refused once the cache time has passed", async () => {
    const alice = await userToken(keyrock, "alice@shop.example", "alice-pw");
    expect((await readBuildings(shop, alice)).status).toBe(200);
    const denied = await ok("POST", `${shop.path}/roles/${shop.role}/synchronize`, { effect: "Deny" });
    expect(denied.synchronized).toBe(true);
    await wait(CACHE_MS + 200);
    const refused = await readBuildings(shop, alice);
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe("registryDeny");
    expect(refused.text).not.toContain(building);
    await ok("POST", `${shop.path}/roles/${shop.role}/synchronize`, { effect: "Permit" });
    await wait(CACHE_MS + 200);
    expect((await readBuildings(shop, alice)).status).toBe(200);
  });

  it("a consumer party's iSHARE JWT reads what its evidence permits; an expired or foreign-signed one is 401", async () => {
    const party = await partyToken(scheme.consumer, scheme.registry.identifier);
    const read = await readBuildings(shop, party);
    expect(read.status, read.text).toBe(200);
    expect(ids(read.body)).toEqual([building]);
    expect((await broker("GET", "/entities?type=Person", shop, party)).status).toBe(403);

    const expired = await partyToken(scheme.consumer, scheme.registry.identifier, {
      iat: Math.floor(Date.now() / 1000) - 120,
    });
    const late = await readBuildings(shop, expired);
    expect(late.status).toBe(401);
    expect(late.body.reason).toBe("expired");
    const forged = await partyToken(scheme.consumer, scheme.registry.identifier, { signer: scheme.stranger });
    const foreign = await readBuildings(shop, forged);
    expect(foreign.status).toBe(401);
    expect(foreign.body.reason).toBe("badSignature");
    expect(foreign.text).not.toContain(building);
  });
});

describe(`an FDSC consumer through /ngsi-ld/v1 (${driver})`, () => {
  it("a verifier's token whose role the workspace's ODRL policies permit reads that type, not another, and may not PATCH", async () => {
    const token = await verifierToken(verifier, "buildings", credential(PROVIDER, ["OPERATOR"]));
    const read = await readBuildings(clusters, token);
    expect(read.status, read.text).toBe(200);
    expect(ids(read.body)).toEqual([building]);
    const people = await broker("GET", "/entities?type=Person", clusters, token);
    expect(people.status).toBe(403);
    expect(people.body.reason).toBe("policyDeny");
    const patch = await renameBuilding(clusters, token);
    expect(patch.status).toBe(403);
    expect(patch.body.reason).toBe("policyDeny");
    // A credential with another role gets nothing.
    const viewer = await verifierToken(verifier, "buildings", credential(PROVIDER, ["VIEWER"]));
    expect((await readBuildings(clusters, viewer)).status).toBe(403);
  });

  it("a token in the verifier's name signed by another key is 401", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const iat = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ verifiableCredential: credential(PROVIDER, ["OPERATOR"]) })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: "forged" })
      .setIssuer(verifier.url)
      .setAudience(["buildings"])
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(privateKey);
    const res = await readBuildings(clusters, forged);
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe("badSignature");
    expect(res.text).not.toContain(building);
  });
});

describe(`a consumer's own @context (${driver})`, () => {
  it("mapping the permitted type name to another type's IRI is refused", async () => {
    const alice = await userToken(keyrock, "alice@shop.example", "alice-pw");
    const address = foreignContexts.address() as AddressInfo;
    const foreign = { tenant: shop.tenant, link: linkTo(`http://127.0.0.1:${address.port}/context.jsonld`) };
    const read = await readBuildings(foreign, alice);
    expect(read.status).toBe(403);
    expect(read.text).not.toContain(person);

    // Nor through the workspace's own address with a way out of it: another data model maps
    // Building to the IRI of Person, and `..` in the Link leads there.
    const other = await ok("POST", "/api/workspaces", {
      name: `Elsewhere ${Date.now()}`,
      dataModelName: `elsewhere-${Date.now().toString(36)}`,
      hasService: w.serviceId,
      contextBrokerTenant: `elsewhere${Date.now().toString(36)}`,
    });
    await ok("POST", `/api/workspace/${other.id}/types`, {
      name: "Building",
      url: `${DEFAULT_VOCABULARY}Person`,
    });
    await ok("POST", `/api/workspace/${other.id}/data-model/generate`);
    const generated = await ok("GET", `/api/workspaces/${other.id}`);
    for (const way of ["..", "%2e%2e", "%2E."]) {
      const sideways = `${w.base}/data-models/${shop.model}/${way}/${String(generated.dataModelName)}/${Number(generated.dataModelVersion)}/context.jsonld`;
      const res = await readBuildings({ tenant: shop.tenant, link: linkTo(sideways) }, alice);
      expect(res.status, way).toBe(403);
      expect(res.text).not.toContain(person);
    }
    // The workspace's own @context, and none at all (the core's), name its types.
    expect((await readBuildings(shop, alice)).status).toBe(200);
  });
});

describe(`the data access log (${driver})`, () => {
  it("holds the consumers' decisions with holder, kind, roles and reason", async () => {
    const log = await ok("GET", "/api/data-access?limit=500");
    const decisions = log.items as Array<Record<string, unknown>>;
    const find = (match: Record<string, unknown>) =>
      decisions.find((d) =>
        Object.entries(match).every(([k, v]) => JSON.stringify(d[k]) === JSON.stringify(v)),
      );
    expect(
      find({
        holder: "alice@shop.example",
        holderKind: "ishare-user",
        roles: ["Building_reader"],
        method: "GET",
        tenant: shop.tenant,
        entityType: "Building",
        permit: true,
        reason: "permit",
      }),
    ).toBeTruthy();
    expect(
      find({
        holder: "alice@shop.example",
        holderKind: "ishare-user",
        method: "PATCH",
        entityId: building,
        permit: false,
        reason: "registryDeny",
      }),
    ).toBeTruthy();
    expect(find({ holderKind: "ishare-user", holder: "bob@shop.example", reason: "noRole" })).toBeTruthy();
    expect(
      find({
        holder: scheme.consumer.identifier,
        holderKind: "ishare-party",
        party: scheme.consumer.identifier,
        permit: true,
      }),
    ).toBeTruthy();
    expect(find({ holderKind: "ishare-party", reason: "expired" })).toBeTruthy();
    expect(find({ holderKind: "ishare-party", reason: "badSignature" })).toBeTruthy();
    expect(
      find({
        holderKind: "fdsc",
        roles: ["OPERATOR"],
        tenant: clusters.tenant,
        permit: true,
        reason: "permit",
      }),
    ).toBeTruthy();
    expect(find({ holderKind: "fdsc", method: "PATCH", reason: "policyDeny" })).toBeTruthy();
    // The workspace's panel has its own tenant's decisions only.
    const panel = await ok("GET", `${shop.path}/data-access?limit=500`);
    expect(panel.items.length).toBeGreaterThan(0);
    expect(panel.items.every((d: { tenant: string }) => d.tenant === shop.tenant)).toBe(true);
  });
});

describe(`the consumers' dry run (${driver})`, () => {
  type Guide = {
    mode: string;
    roles: Array<{
      roleName: string;
      rows: Array<{
        entityType: string;
        granted: boolean;
        summary: string;
        decisions: Array<Record<string, unknown>>;
      }>;
    }>;
    [k: string]: unknown;
  };
  const rowOf = (guide: Guide, roleName: string, type: string) =>
    guide.roles.find((r) => r.roleName === roleName)!.rows.find((r) => r.entityType === type)!;
  const verdicts = (row: { decisions: Array<Record<string, unknown>> }) =>
    Object.fromEntries(row.decisions.map((d) => [d.method, d.permit ? "permit" : d.reason]));

  it("iSHARE: says how users and parties get a token, and what the registry permits each role now", async () => {
    const guide = (await ok("GET", `${shop.path}/data-access/consumers`)) as Guide;
    expect(guide).toMatchObject({
      mode: "ishare",
      onEmbeddedBroker: true,
      enforced: true,
      broker: {
        url: `${w.base}/ngsi-ld/v1`,
        tenant: shop.tenant,
        context: shop.link.slice(1, shop.link.indexOf(">")),
      },
      ishareUser: {
        identityManager: "Shop Keyrock",
        tokenUrl: `${keyrock.url}/oauth2/token`,
        grantType: "password",
        clientId: "consumer-app",
      },
      ishareParty: { registry: "Keyrock AR" },
      fdsc: null,
    });
    expect(guide.ishareParty).toMatchObject({
      audience: expect.arrayContaining([scheme.registry.identifier]),
    });
    const buildings = rowOf(guide, "Building_reader", "Building");
    expect(buildings.granted).toBe(true);
    expect(verdicts(buildings)).toEqual({
      GET: "permit",
      POST: "registryDeny",
      PATCH: "registryDeny",
      DELETE: "registryDeny",
    });
    expect(buildings.summary).toBe(
      "Building: GET permitted; POST, PATCH, DELETE denied (the authorization registry denies it).",
    );
    // The data model's other types are listed too, after the role's own.
    expect(guide.roles[0]!.rows.map((r) => r.entityType)).toEqual(["Building", "Person"]);
    expect(verdicts(rowOf(guide, "Building_reader", "Person")).GET).toBe("registryDeny");
    const french = await w.api("GET", `${shop.path}/data-access/consumers`, undefined, {
      "accept-language": "fr",
    });
    expect(rowOf(french.body, "Building_reader", "Building").summary).toBe(
      "Building\u00a0: autorisé pour GET\u00a0; refusé pour POST, PATCH, DELETE (le registre d’autorisations le refuse).",
    );
  });

  it("FDSC: names the verifier's token endpoint, and what the PAP's ODRL policies permit each role", async () => {
    const guide = (await ok("GET", `${clusters.path}/data-access/consumers`)) as Guide;
    expect(guide).toMatchObject({
      mode: "fdsc",
      ishareUser: null,
      ishareParty: null,
      fdsc: {
        clientId: "buildings",
        organizationDid: PROVIDER,
        grantType: "vp_token",
        verifiers: [{ name: "Provider verifier", tokenUrl: `${verifier.url}/services/buildings/token` }],
      },
    });
    expect(verdicts(rowOf(guide, "OPERATOR", "Building"))).toEqual({
      GET: "permit",
      POST: "policyDeny",
      PATCH: "policyDeny",
      DELETE: "policyDeny",
    });
    expect(verdicts(rowOf(guide, "OPERATOR", "Person")).GET).toBe("policyDeny");
  });

  it("a workspace without a trust layer accepts no consumer; viewers and the showroom may not read the dry run", async () => {
    await roleWithAccess(ok, w.path, {
      typeId: w.types.Building!,
      actions: ["GET"],
      roleName: "Plain_reader",
      provider: "EU.EORI.NLNOBODY",
    });
    const guide = (await ok("GET", `${w.path}/data-access/consumers`)) as Guide;
    expect(guide).toMatchObject({ mode: "none", ishareUser: null, ishareParty: null, fdsc: null });
    expect(verdicts(rowOf(guide, "Plain_reader", "Building")).GET).toBe("unknownToken");
    for (const role of ["viewer", "showroom"]) {
      const res = await w.api("GET", `${w.path}/data-access/consumers`, undefined, {
        authorization: `Bearer ${await w.t.tokenFor(role)}`,
      });
      expect(res.status, role).toBe(403);
    }
    const operator = await w.api("GET", `${w.path}/data-access/consumers`, undefined, {
      authorization: `Bearer ${await w.t.tokenFor("operator")}`,
    });
    expect(operator.status).toBe(200);
    expect(
      await ok("GET", "/api/workspace/urn:ngsi-ld:Workspace:nope/data-access/consumers").catch(
        (e: Error) => e.message,
      ),
    ).toContain("404");
  });
});

describe(`the registry down (${driver})`, () => {
  it("gives 503 with the reason, never a 200", async () => {
    const alice = await userToken(keyrock, "alice@shop.example", "alice-pw");
    expect((await readBuildings(shop, alice)).status).toBe(200);
    await registry.close();
    await wait(CACHE_MS + 200);
    for (const token of [alice, await partyToken(scheme.consumer, scheme.registry.identifier)]) {
      const res = await readBuildings(shop, token);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 503, reason: "registryUnreachable" });
      expect(res.body.detail).toContain("authorization registry");
      expect(res.text).not.toContain(building);
    }
    // The dry run says so on each row.
    const guide = await ok("GET", `${shop.path}/data-access/consumers`);
    const row = guide.roles[0].rows[0];
    expect(row.decisions.every((d: { reason: string }) => d.reason === "registryUnreachable")).toBe(true);
    expect(row.decisions[0].detail).toMatch(/Keyrock AR could not be reached/);
    expect(row.summary).toContain("cannot be reached");
    const log = await ok("GET", "/api/data-access?reason=registryUnreachable");
    expect(log.items[0].detail).toMatch(/Keyrock AR could not be reached/);
  });
});
