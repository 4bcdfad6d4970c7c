import { describe, expect, it } from "vitest";
import type { StoredEntity } from "../src/model.ts";
import { typeDeltas } from "../src/type-counts.ts";

const at = "2024-01-01T00:00:00.000Z";
const entity = (id: string, types: string[]): StoredEntity => ({
  id,
  types,
  attrs: {},
  createdAt: at,
  modifiedAt: at,
});

describe("typeDeltas: what a write does to the counts by type", () => {
  it("counts a created entity once per type, a deleted one minus once, a retyped one by the types it gained and lost", () => {
    const deltas = typeDeltas([
      { after: entity("urn:a", ["T:Farm", "T:Barn"]) },
      { before: entity("urn:b", ["T:Farm"]) },
      { before: entity("urn:c", ["T:Barn", "T:Farm"]), after: entity("urn:c", ["T:Farm", "T:Silo"]) },
    ]);
    // Farm: +1 (a) -1 (b) -1 +1 (c); Barn: +1 (a) -1 (c); Silo: +1 (c).
    expect([...deltas]).toEqual([["T:Silo", 1]]);
    expect([...typeDeltas([{ after: entity("urn:a", ["T:Farm", "T:Barn"]) }])]).toEqual([
      ["T:Farm", 1],
      ["T:Barn", 1],
    ]);
  });

  it("leaves out types a write does not change, and counts a type listed twice once", () => {
    const same = entity("urn:d", ["T:Farm"]);
    expect(typeDeltas([{ before: same, after: { ...same, attrs: { x: [] } } }]).size).toBe(0);
    expect(Object.fromEntries(typeDeltas([{ after: entity("urn:e", ["T:Farm", "T:Farm"]) }]))).toEqual({
      "T:Farm": 1,
    });
  });
});
