import { describe, expect, it } from "vitest";
import { draftOf, odrlOf, statementsOf, type PolicyDraft } from "../src/odrl.ts";

// The ODRL the builder writes reads back as the same draft, also after the PAP's JSON-LD
// compaction (one-item arrays made plain values); anything more stays JSON-only.

const draft: PolicyDraft = {
  uid: "urn:orrery:policy:1",
  assignee: { kind: "role", role: "OPERATOR", credentialType: "OperatorCredential" },
  actions: ["odrl:read"],
  target: { kind: "entityType", entityType: "K8SCluster" },
  constraints: [{ leftOperand: "odrl:dayOfWeek", operator: "odrl:lteq", rightOperand: "5" }],
};

/** What JSON-LD compaction does to arrays of one item. */
const compacted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.length === 1
      ? compacted(v[0])
      : v.map(compacted)
    : v && typeof v === "object"
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, compacted(x)]))
      : v;

describe("ODRL drafts", () => {
  it("read back from the policy they write, before and after the PAP's compaction", () => {
    expect(draftOf(odrlOf(draft))).toEqual(draft);
    expect(draftOf(JSON.stringify(compacted(odrlOf(draft))))).toEqual(draft);
    const two = {
      ...draft,
      actions: ["odrl:read", "odrl:modify"],
      target: { kind: "entity" as const, entityId: "urn:x" },
    };
    expect(draftOf(compacted(odrlOf(two)))).toEqual(two);
  });

  it("leave a policy with more than the builder shows to JSON editing, and still read it as statements", () => {
    const odrl = odrlOf(draft) as any;
    odrl["odrl:permission"][0]["odrl:duty"] = { "odrl:action": "odrl:inform" };
    expect(draftOf(odrl)).toBeUndefined();
    const mixed = odrlOf({ ...draft, actions: ["odrl:read", "odrl:delete"] }) as any;
    mixed["odrl:permission"][1]["odrl:assignee"] = "vc:any";
    expect(draftOf(mixed)).toBeUndefined();
    expect(statementsOf(mixed).map((s) => s.assignee.kind)).toEqual(["role", "any"]);
  });
});
