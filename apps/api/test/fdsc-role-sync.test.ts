import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statementsOf } from "@orrery/model/odrl";
import { startFakePap, type FakePap } from "../../../test/fakes/odrl-pap.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

// A role's synchronisation when the workspace's service is in FDSC mode: its data service accesses
// become ODRL policies in the fake ODRL-PAP (one per access), read back from it, and kept by the role.

const ctx = useTestApp();
let pap: FakePap;
const ids: Record<string, string> = {};
let path: string;

async function ok(method: string, url: string, body?: unknown, headers?: Record<string, string>) {
  const res = await ctx.api(method, url, body, headers);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  pap = await startFakePap({ validation: true });
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const papRecord = await ok("POST", "/api/policy-administration-points", {
    ...samplePayload("policy-administration-points", () => ""),
    host: "127.0.0.1",
    port: Number(new URL(pap.url).port),
  });
  const ccs = await ok(
    "POST",
    "/api/credentials-config-services",
    samplePayload("credentials-config-services", () => ""),
  );
  const til = await ok(
    "POST",
    "/api/trusted-issuers-lists",
    samplePayload("trusted-issuers-lists", () => ""),
  );
  const service = await ok("POST", "/api/services", {
    name: "Clusters",
    hasContextBroker: broker.id,
    authorizationRequired: true,
    authorizationMode: "fdsc",
    hasPolicyAdministrationPoint: papRecord.id,
    hasCredentialsConfigService: ccs.id,
    hasTrustedIssuersList: til.id,
    clientId: "clusters",
    papServiceId: "clusters",
  });
  ids.workspace = (
    await ok("POST", "/api/workspaces", {
      name: "Clusters",
      dataModelName: "clusters",
      hasService: service.id,
    })
  ).id;
  path = `/api/workspace/${ids.workspace}`;
  const action = async (name: string) => (await ok("POST", "/api/data-actions", { name })).id as string;
  const [get, patch, notify] = [
    await action("GET"),
    await action("PATCH"),
    await action("POST:Notification"),
  ];
  const dataService = async (typeName: string, actions: string[]) => {
    const type = await ok("POST", `${path}/types`, { name: typeName });
    return (
      await ok("POST", `${path}/data-services`, {
        name: `${typeName} service`,
        hasEntityType: type.id,
        hasDataActions: actions,
      })
    ).id as string;
  };
  ids.clusters = await dataService("K8SCluster", [get, patch, notify]);
  ids.nodes = await dataService("K8SNode", [get]);
  ids.role = (
    await ok("POST", `${path}/roles`, {
      name: "Operator",
      roleName: "OPERATOR",
      notBefore: 1_767_225_600,
      notOnOrAfter: 1_798_761_600,
      dataServiceProviderId: "did:web:provider.example.org",
      verifiableCredentialType: "OperatorCredential",
    })
  ).id;
  ids.clustersAccess = (
    await ok("POST", `${path}/data-service-accesses`, { hasRole: ids.role, hasDataService: ids.clusters })
  ).id;
  ids.nodesAccess = (
    await ok("POST", `${path}/data-service-accesses`, { hasRole: ids.role, hasDataService: ids.nodes })
  ).id;
});
afterAll(() => pap?.close());

const sync = (effect: string, headers?: Record<string, string>) =>
  ctx.api("POST", `${path}/roles/${ids.role}/synchronize`, { effect }, headers);

describe(`role synchronisation in FDSC mode (${driver})`, () => {
  it("writes one ODRL policy per data service access to the PAP, reads them back, and keeps them with the time", async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await sync("Permit");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.synchronized).toBe(true);
    expect(res.body.synchronizationTime).toBeGreaterThanOrEqual(before);
    const policies = [...pap.policies.values()];
    expect(policies).toHaveLength(2);
    expect(policies.every((p) => p.service === "clusters")).toBe(true);
    const byType = Object.fromEntries(
      policies.map((p) => {
        const said = statementsOf(p.odrl);
        return [said[0]!.target.kind === "entityType" ? said[0]!.target.entityType : "", said];
      }),
    );
    expect(byType.K8SCluster!.map((s) => s.action)).toEqual(["odrl:read", "odrl:modify"]);
    expect(byType.K8SCluster![0]!.assignee).toEqual({
      kind: "role",
      role: "OPERATOR",
      credentialType: "OperatorCredential",
    });
    expect(byType.K8SNode!.map((s) => s.action)).toEqual(["odrl:read"]);
    // The Rego the PAP made is what OPA evaluates: it names the role's action and the type.
    expect(policies.find((p) => p.rego.includes('"K8SCluster"'))!.rego).toContain("is_modify");
    expect(res.body.lastOdrlPolicies.map((p: { id: string }) => p.id).sort()).toEqual(
      policies.map((p) => p.id).sort(),
    );
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        "POST:Notification on K8SCluster has no ODRL action the PAP maps: left out.",
        expect.stringMatching(/^✔ K8SCluster: the PAP returns the policy orrery[a-z]+ as written$/),
      ]),
    );
    // The role's page shows them.
    expect((await ok("GET", `${path}/roles/${ids.role}`)).lastOdrlPolicies).toHaveLength(2);
  });

  it("replaces its own policies on the next synchronisation, and removes those of an access the role lost", async () => {
    const first = [...pap.policies.keys()].sort();
    await ok("DELETE", `${path}/data-service-accesses/${ids.nodesAccess}`);
    const res = await sync("Permit");
    expect(res.status).toBe(200);
    expect(pap.policies.size).toBe(1);
    expect(first).toContain([...pap.policies.keys()][0]);
    expect(res.body.lastOdrlPolicies).toHaveLength(1);
    expect(res.body.details.some((l: string) => l.startsWith("Removed the policy"))).toBe(true);
  });

  it("is unsynchronised by an access added or its credential type changed, and the PAP has the new access after a new synchronisation", async () => {
    expect((await sync("Permit")).status).toBe(200);
    const stale = { synchronized: false, changedSinceSynchronization: true };
    const access = await ok("POST", `${path}/data-service-accesses`, {
      hasRole: ids.role,
      hasDataService: ids.nodes,
    });
    expect(await ok("GET", `${path}/roles/${ids.role}`)).toMatchObject(stale);
    const nodeTypes = () =>
      [...pap.policies.values()].flatMap((p) =>
        statementsOf(p.odrl).map((s) => (s.target.kind === "entityType" ? s.target.entityType : "")),
      );
    expect(nodeTypes()).not.toContain("K8SNode");
    const again = await sync("Permit");
    expect(again.body).toMatchObject({ synchronized: true, changedSinceSynchronization: false });
    expect(nodeTypes()).toContain("K8SNode");
    // The credential type is the policy's assignee in FDSC mode.
    const { id: _id, ...fields } = await ok("GET", `${path}/roles/${ids.role}`);
    const edited = await ok("PUT", `${path}/roles/${ids.role}`, {
      ...fields,
      verifiableCredentialType: "ClusterOperatorCredential",
    });
    expect(edited).toMatchObject(stale);
    await ok("DELETE", `${path}/data-service-accesses/${access.id}`);
    const { id: _same, ...current } = await ok("GET", `${path}/roles/${ids.role}`);
    await ok("PUT", `${path}/roles/${ids.role}`, {
      ...current,
      verifiableCredentialType: "OperatorCredential",
    });
  });

  it("on Deny removes the role's policies from the PAP (it denies what nothing allows), proven by their absence", async () => {
    const res = await sync("Deny", { "accept-language": "fr" });
    expect(res.status).toBe(200);
    expect(pap.policies.size).toBe(0);
    expect(res.body.lastOdrlPolicies).toEqual([]);
    expect(res.body.details).toContainEqual(
      expect.stringMatching(/^✔ K8SCluster\u00a0: le PAP n’a plus de politique orrery[a-z]+$/),
    );
  });

  it("leaves the role unsynchronised with a 502 when the PAP does not return what was written", async () => {
    // A PAP that keeps a policy of another uid under the id written (as another writer would).
    const real = pap.policies.set.bind(pap.policies);
    pap.policies.set = (id, value) => real(id, { ...value, uid: "urn:someone:else" });
    try {
      const res = await sync("Permit");
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: "fdscSync.notProven" });
      expect(res.body.details.some((l: string) => l.startsWith("❌ K8SCluster"))).toBe(true);
      expect((await ok("GET", `${path}/roles/${ids.role}`)).synchronized).toBe(false);
    } finally {
      pap.policies.set = real;
    }
  });
});
