import { describe, expect, it } from "vitest";
import { odrlOf } from "@orrery/model/odrl";
import { permittingPolicy, type CredentialFacts } from "../src/pep/odrl-decision.ts";

// The ODRL policies a PAP holds, evaluated as its Rego would: only permissions, each needing its
// action, assignee, target and constraints to hold; what the evaluator does not understand permits nothing.

const operator: CredentialFacts = {
  roles: ["OPERATOR"],
  types: ["VerifiableCredential", "OperatorCredential"],
  issuers: ["did:web:consumer.example.org"],
};
const read = { type: "K8SCluster", identifiers: ["*"], attributes: ["*"], action: "GET" };
const policy = (uid: string, draft: Omit<Parameters<typeof odrlOf>[0], "uid">) => ({
  uid,
  odrl: odrlOf({ uid, ...draft }),
});
const entityType = { kind: "entityType", entityType: "K8SCluster" } as const;

describe("ODRL policies judged for a credential", () => {
  it("permits a role of the right credential type the action its permission covers, on its entity type", () => {
    const p = policy("p1", {
      assignee: { kind: "role", role: "OPERATOR", credentialType: "OperatorCredential" },
      actions: ["odrl:read"],
      target: entityType,
      constraints: [],
    });
    expect(permittingPolicy([p], operator, read, "entities")).toBe("p1");
    expect(permittingPolicy([p], operator, { ...read, action: "PATCH" }, "entities")).toBeUndefined();
    expect(permittingPolicy([p], operator, { ...read, type: "K8SNode" }, "entities")).toBeUndefined();
    expect(
      permittingPolicy([p], { ...operator, types: ["VerifiableCredential"] }, read, "entities"),
    ).toBeUndefined();
    // odrl:use covers every method; a batch is the POST the gateway sees.
    const use = policy("p2", {
      assignee: { kind: "any" },
      actions: ["odrl:use"],
      target: entityType,
      constraints: [],
    });
    expect(
      permittingPolicy(
        [use],
        { roles: [], types: [], issuers: [] },
        { ...read, action: "POST:Batch" },
        "update",
      ),
    ).toBe("p2");
  });

  it("compares a party with the credential's issuer, an entity target with the path's last segment", () => {
    const p = policy("p3", {
      assignee: { kind: "party", did: "did:web:consumer.example.org" },
      actions: ["odrl:read"],
      target: { kind: "entity", entityId: "urn:ngsi-ld:K8SCluster:1" },
      constraints: [],
    });
    expect(permittingPolicy([p], operator, read, "urn:ngsi-ld:K8SCluster:1")).toBe("p3");
    expect(permittingPolicy([p], operator, read, "urn:ngsi-ld:K8SCluster:2")).toBeUndefined();
  });

  it("holds a permission to its constraints, and an operand it does not know permits nothing", () => {
    const until = (when: string) =>
      policy("p4", {
        assignee: { kind: "any" },
        actions: ["odrl:read"],
        target: entityType,
        constraints: [{ leftOperand: "odrl:dateTime", operator: "odrl:lt", rightOperand: when }],
      });
    expect(permittingPolicy([until("2999-01-01T00:00:00Z")], operator, read, "entities")).toBe("p4");
    expect(permittingPolicy([until("2000-01-01T00:00:00Z")], operator, read, "entities")).toBeUndefined();
    const unknown = policy("p5", {
      assignee: { kind: "any" },
      actions: ["odrl:read"],
      target: entityType,
      constraints: [{ leftOperand: "http:bodyValue", operator: "odrl:eq", rightOperand: "x" }],
    });
    expect(permittingPolicy([unknown], operator, read, "entities")).toBeUndefined();
  });
});
