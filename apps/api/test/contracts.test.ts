import { beforeAll, describe, expect, it } from "vitest";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// Contracts and contract details (spec workspace-console sections 3 and 5), their scopes checked
// against entities in the workspace's embedded broker.

const ctx = useEmbeddedWorkspace();
let roleId = "";

// A stakeholder DID is unique in a workspace (the trusted issuers list keeps one entry a DID).
let stakeholders = 0;
const contract = (extra: Record<string, unknown> = {}) => ({
  stakeholderDid: `did:web:retailer${++stakeholders}.example.org`,
  stakeholderName: "Retailer",
  validFromTime: 1_767_225_600,
  validToTime: 1_798_761_600,
  verifiableCredentialType: "RetailerCredential",
  ...extra,
});

beforeAll(async () => {
  const { api, path, types } = ctx;
  // Scope types need a scope name.
  for (const [name, scopeName] of [
    ["Person", "person"],
    ["Building", "building"],
  ]) {
    const type = (await api("GET", `${path}/types/${types[name]}`)).body;
    expect((await api("PUT", `${path}/types/${type.id}`, { ...type, scopeName })).status).toBe(200);
  }
  for (const entity of [
    { id: "urn:ngsi-ld:Person:ada", type: "Person", name: { type: "Property", value: "Ada" } },
    {
      id: "urn:ngsi-ld:Building:owned",
      type: "Building",
      owner: { type: "Relationship", object: "urn:ngsi-ld:Person:ada" },
    },
    { id: "urn:ngsi-ld:Building:other", type: "Building", name: { type: "Property", value: "Other" } },
  ])
    expect((await api("POST", `${path}/entities`, entity)).status).toBe(201);
  roleId = (
    await api("POST", `${path}/roles`, {
      name: "Tenant",
      notBefore: 1_767_225_600,
      notOnOrAfter: 1_798_761_600,
      dataServiceProviderId: "did:web:provider.example.org",
      verifiableCredentialType: "TenantCredential",
    })
  ).body.id;
});

describe(`contracts (${driver})`, () => {
  it("default to data-consumer, end after they begin, and keep no scope entity without a scope type", async () => {
    const { api, path } = ctx;
    const created = await api(
      "POST",
      `${path}/contracts`,
      contract({ scopeEntity: "urn:ngsi-ld:Person:ada" }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.contractType).toBe("data-consumer");
    expect(created.body.scopeEntity).toBeUndefined();
    const backwards = await api("POST", `${path}/contracts`, contract({ validToTime: 1_767_225_600 }));
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0]).toMatchObject({ path: "validToTime", code: "field.afterField" });
    const notDid = await api("POST", `${path}/contracts`, contract({ stakeholderDid: "retailer" }));
    expect(notDid.body.errors[0].path).toBe("stakeholderDid");
    const fraction = await api("POST", `${path}/contracts`, contract({ validFromTime: 1.5 }));
    expect(fraction.status).toBe(400);
  });

  it("take a scope type with a scope name and an entity of that type from the broker", async () => {
    const { api, path, types } = ctx;
    const noEntity = await api("POST", `${path}/contracts`, contract({ scopeType: types.Person }));
    expect(noEntity.body.errors[0]).toMatchObject({ path: "scopeEntity" });
    const missing = await api(
      "POST",
      `${path}/contracts`,
      contract({ scopeType: types.Person, scopeEntity: "urn:ngsi-ld:Person:nobody" }),
    );
    expect(missing.body.errors[0]).toMatchObject({ path: "scopeEntity", code: "contract.scopeEntity" });
    const otherType = await api(
      "POST",
      `${path}/contracts`,
      contract({ scopeType: types.Person, scopeEntity: "urn:ngsi-ld:Building:owned" }),
    );
    expect(otherType.body.errors[0].code).toBe("contract.scopeEntity");
    const scoped = await api(
      "POST",
      `${path}/contracts`,
      contract({ scopeType: types.Person, scopeEntity: "urn:ngsi-ld:Person:ada" }),
    );
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(201);
    // A type without a scope name is no scope type.
    const plain = (await api("POST", `${path}/types`, { name: "Plain" })).body;
    const unnamed = await api(
      "POST",
      `${path}/contracts`,
      contract({ scopeType: plain.id, scopeEntity: "urn:ngsi-ld:Person:ada" }),
    );
    expect(unnamed.body.errors[0]).toMatchObject({ path: "scopeType", code: "contract.noScopeName" });
  });
});

describe(`contract details (${driver})`, () => {
  it("scope only under a scoped contract, to an entity related to the contract's scope entity", async () => {
    const { api, path, types } = ctx;
    const bare = (await api("POST", `${path}/contracts`, contract())).body;
    const scoped = (
      await api(
        "POST",
        `${path}/contracts`,
        contract({ scopeType: types.Person, scopeEntity: "urn:ngsi-ld:Person:ada" }),
      )
    ).body;
    const detail = (extra: Record<string, unknown>) => ({
      hasRole: roleId,
      roleScopeName: "tenant",
      ...extra,
    });
    const plain = await api("POST", `${path}/contract-details`, detail({ hasContract: bare.id }));
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    const underBare = await api(
      "POST",
      `${path}/contract-details`,
      detail({ hasContract: bare.id, scopeType: types.Building, scopeEntity: "urn:ngsi-ld:Building:owned" }),
    );
    expect(underBare.body.errors[0].code).toBe("contractDetail.contractWithoutScope");
    // Person has no relationship to Person: not a scope type for this contract.
    const unrelated = await api(
      "POST",
      `${path}/contract-details`,
      detail({ hasContract: scoped.id, scopeType: types.Person, scopeEntity: "urn:ngsi-ld:Person:ada" }),
    );
    expect(unrelated.body.errors[0].code).toBe("contractDetail.scopeTypeUnrelated");
    const notReferring = await api(
      "POST",
      `${path}/contract-details`,
      detail({
        hasContract: scoped.id,
        scopeType: types.Building,
        scopeEntity: "urn:ngsi-ld:Building:other",
      }),
    );
    expect(notReferring.body.errors[0].code).toBe("contractDetail.scopeEntity");
    const good = await api(
      "POST",
      `${path}/contract-details`,
      detail({
        hasContract: scoped.id,
        scopeType: types.Building,
        scopeEntity: "urn:ngsi-ld:Building:owned",
      }),
    );
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    // A contract with details stays.
    expect((await api("DELETE", `${path}/contracts/${scoped.id}`)).status).toBe(409);
  });

  it("are refused to a viewer, who may still read them", async () => {
    const viewer = await ctx.t.tokenFor("viewer");
    const headers = { authorization: `Bearer ${viewer}` };
    const write = await ctx.t.app.inject({
      method: "POST",
      url: `${ctx.path}/contracts`,
      headers,
      payload: contract(),
    });
    expect(write.statusCode).toBe(403);
    const read = await ctx.t.app.inject({ method: "GET", url: `${ctx.path}/contracts`, headers });
    expect(read.statusCode).toBe(200);
  });
});
