import { describe, expect, it } from "vitest";
import { draftOf } from "../src/context-data/attributeDraft.ts";
import type { PropertyRecord } from "../src/context-data/entityModel.ts";

/**
 * Brokers give a Property's array of one element back as the element (JSON-LD compaction, as
 * Orion-LD and the embedded broker answer, issue 27): an Array property is still edited as an array.
 */
const tags: PropertyRecord = {
  id: "urn:ngsi-ld:Property:tags",
  name: "tags",
  hasType: "urn:ngsi-ld:Type:building",
  ngsiLdType: "Property",
  propertyNgsiLdValueType: "Array",
};

describe("an Array property whose value a broker compacted", () => {
  it("is edited as an array of that element", () => {
    expect(JSON.parse(draftOf(tags, { type: "Property", value: "red" }).value)).toEqual(["red"]);
    expect(JSON.parse(draftOf(tags, { type: "Property", value: ["red", "blue"] }).value)).toEqual([
      "red",
      "blue",
    ]);
    // Another value type is left as it is.
    expect(
      draftOf({ ...tags, propertyNgsiLdValueType: "String" }, { type: "Property", value: "red" }).value,
    ).toBe("red");
  });
});
