import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaces } from "@orrery/model";
import { startFakeRegistry, type FakeRegistry } from "../../../test/fakes/ishare-registry.ts";
import type { FakeKeyrock } from "../../../test/fakes/keyrock.ts";
import { partyCredentials, type PartyCredentials } from "../../../test/fakes/pki.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { consumerJudge, type ConsumerRequest } from "../src/pep/consumers.ts";
import {
  ishareRecords,
  partyEvidence,
  partyToken as signedPartyToken,
  roleWithAccess,
  schemeParties,
  startConsumerKeyrock,
  userToken as keyrockUserToken,
} from "./support/consumer-peers.ts";
import { driver, useTestApp } from "./support/harness.ts";

// iSHARE consumers of a workspace with an authorization registry, judged by the PEP's consumer
// module against a registry that answers as Keyrock 8.4's /ar does and a Keyrock identity manager:
// a user's roles (held through an organisation) are the workspace's roles whose policies Orrery's
// own synchronisation wrote; a consumer party's iSHARE JWT is judged by the evidence an operator
// wrote for its EORI with the console's registry tool.

const ctx = useTestApp();
const CACHE_MS = 400;
let registry: FakeRegistry;
let keyrock: FakeKeyrock;
let scheme: { registry: PartyCredentials; consumer: PartyCredentials; stranger: PartyCredentials };
let outsider: PartyCredentials;
const ids: Record<string, string> = {};
let path: string;
const judge = () => consumerJudge(ctx.t.records, { cacheMs: CACHE_MS });
let shared: ReturnType<typeof consumerJudge>;

async function ok(method: string, url: string, body?: unknown) {
  const res = await ctx.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An iSHARE JWT of a party, for the data space's party unless another audience is given. */
const partyToken = (
  party: PartyCredentials,
  options: { signer?: PartyCredentials; iat?: number; audience?: string } = {},
) => signedPartyToken(party, options.audience ?? scheme.registry.identifier, options);
const userToken = (email: string, password: string) => keyrockUserToken(keyrock, email, password);

const readShelves: ConsumerRequest = {
  method: "GET",
  path: "/entities",
  routePattern: "/entities",
  params: {},
  query: { type: "Shelf" },
  body: undefined,
};
const patchShelf: ConsumerRequest = {
  method: "PATCH",
  path: "/entities/urn:ngsi-ld:Shelf:1/attrs",
  routePattern: "/entities/:entityId/attrs",
  params: { entityId: "urn:ngsi-ld:Shelf:1" },
  query: {},
  body: { numberOfItems: { type: "Property", value: 3 } },
};
const entityTypeOf = async (id: string) => (id.startsWith("urn:ngsi-ld:Shelf:") ? "Shelf" : undefined);
const tenantWorkspaces = async () =>
  (await ctx.t.records.list(workspaces)).filter((w) => w.id === ids.workspace);
const decide = async (token: string, request: ConsumerRequest, on = shared) =>
  on.judge(token, request, await tenantWorkspaces(), entityTypeOf);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  scheme = await schemeParties({
    registry: "EU.EORI.NLKEYROCK",
    consumer: "EU.EORI.NLCONSUMER",
    stranger: "EU.EORI.NLSTRANGER",
  });
  outsider = await partyCredentials("EU.EORI.NLCONSUMER", "Self-made CA");
  registry = await startFakeRegistry({ credentials: scheme.registry, trustedRoots: [scheme.registry.root] });
  keyrock = await startConsumerKeyrock("Shelf_stocker");
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const service = await ok("POST", "/api/services", { name: "Shop service", hasContextBroker: broker.id });
  const trust = await ishareRecords(ok, registry, scheme.registry, keyrock);
  ids.workspace = (
    await ok("POST", "/api/workspaces", {
      name: "Shop",
      dataModelName: "shop",
      hasService: service.id,
      enableOffers: true,
      ...trust,
    })
  ).id;
  path = `/api/workspace/${ids.workspace}`;
  const type = await ok("POST", `${path}/types`, { name: "Shelf" });
  ids.role = await roleWithAccess(ok, path, {
    typeId: type.id,
    actions: ["GET"],
    roleName: "Shelf_stocker",
    provider: scheme.registry.identifier,
  });
  // As the console does it: the role synchronised with Permit (written, then proven by the registry).
  const synced = await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Permit" });
  expect(synced.synchronized).toBe(true);
  // The consumer party's evidence, written with the console's authorization registry tool.
  await partyEvidence(ok, trust, scheme.registry.identifier, scheme.consumer.identifier, "Shelf");
  shared = judge();
});

afterAll(async () => {
  await registry?.close().catch(() => undefined);
  await keyrock?.close();
});

describe(`an iSHARE consumer of a workspace with an authorization registry (${driver})`, () => {
  it("a Keyrock user holding the role through an organisation reads what the role's synchronised policy permits, and may not write", async () => {
    const token = await userToken("alice@shop.example", "alice-pw");
    const read = await decide(token, readShelves);
    expect(read).toMatchObject({
      permit: true,
      reason: "permit",
      holder: "alice@shop.example",
      holderKind: "ishare-user",
      roles: ["Shelf_stocker"],
      workspaceId: ids.workspace,
      asked: ["GET Shelf [*] [*]"],
    });
    const write = await decide(token, patchShelf);
    expect(write).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
      asked: ["PATCH Shelf [urn:ngsi-ld:Shelf:1] [numberOfItems]"],
    });
    expect(write!.detail).toContain("does not permit PATCH Shelf");
  });

  it("a user with none of the workspace's roles is refused 403, and a token no identity manager knows is no consumer's", async () => {
    const bob = await decide(await userToken("bob@shop.example", "bob-pw"), readShelves);
    expect(bob).toMatchObject({
      permit: false,
      status: 403,
      reason: "noRole",
      holder: "bob@shop.example",
      roles: [],
    });
    expect(bob!.detail).toContain("Cashier");
    expect(await decide("not-a-token-anyone-issued", readShelves)).toBeUndefined();
  });

  it("a role synchronised with Deny stops access once the cache time has passed", async () => {
    const token = await userToken("alice@shop.example", "alice-pw");
    const on = judge();
    expect((await decide(token, readShelves, on))!.permit).toBe(true);
    const denied = await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Deny" });
    expect(denied.synchronized).toBe(true);
    // Still the registry's last answer for this holder, role and target until the cache time ends...
    expect((await decide(token, readShelves, on))!.permit).toBe(true);
    await wait(CACHE_MS + 100);
    // ... then the registry's Deny.
    expect(await decide(token, readShelves, on)).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
      roles: ["Shelf_stocker"],
    });
    await ok("POST", `${path}/roles/${ids.role}/synchronize`, { effect: "Permit" });
  });

  it("a consumer party's iSHARE JWT, its chain from the scheme's root, is allowed what the registry's evidence for its EORI permits", async () => {
    const token = await partyToken(scheme.consumer);
    expect(await decide(token, readShelves)).toMatchObject({
      permit: true,
      holder: "EU.EORI.NLCONSUMER",
      holderKind: "ishare-party",
      party: "EU.EORI.NLCONSUMER",
      asked: ["GET Shelf [*] [*]"],
    });
    expect(await decide(token, patchShelf)).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
    });
    // A party the registry holds nothing for (Keyrock's empty 404) is denied, not failed.
    expect(await decide(await partyToken(scheme.stranger), readShelves)).toMatchObject({
      permit: false,
      status: 403,
      reason: "registryDeny",
    });
  });

  it("refuses with 401 a party JWT whose chain is untrusted, that is expired, or that another key signed", async () => {
    expect(await decide(await partyToken(outsider), readShelves)).toMatchObject({
      permit: false,
      status: 401,
      reason: "untrustedChain",
    });
    const expired = await partyToken(scheme.consumer, { iat: Math.floor(Date.now() / 1000) - 120 });
    expect(await decide(expired, readShelves)).toMatchObject({
      permit: false,
      status: 401,
      reason: "expired",
    });
    const forged = await partyToken(scheme.consumer, { signer: scheme.stranger });
    expect(await decide(forged, readShelves)).toMatchObject({
      permit: false,
      status: 401,
      reason: "badSignature",
    });
    // Addressed to another data space's party: not a consumer of this one.
    expect(
      await decide(await partyToken(scheme.consumer, { audience: "EU.EORI.NLELSEWHERE" }), readShelves),
    ).toBeUndefined();
  });

  it("the registry down gives 503 with the reason, never a Permit", async () => {
    const token = await userToken("alice@shop.example", "alice-pw");
    const on = judge();
    expect((await decide(token, readShelves, on))!.permit).toBe(true);
    await registry.close();
    await wait(CACHE_MS + 100);
    const verdict = await decide(token, readShelves, on);
    expect(verdict).toMatchObject({ permit: false, status: 503, reason: "registryUnreachable" });
    expect(verdict!.detail).toMatch(/Keyrock AR could not be reached \(ECONNREFUSED\)/);
    expect(await decide(await partyToken(scheme.consumer), readShelves, on)).toMatchObject({
      permit: false,
      status: 503,
      reason: "registryUnreachable",
    });
  });
});
