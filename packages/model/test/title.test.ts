import { describe, expect, it } from "vitest";
import {
  contractDetails,
  contracts,
  dataServiceAccesses,
  dataServiceOffers,
  recordTitle,
  routingOperations,
  soleTitleField,
} from "../src/index.ts";

const names: Record<string, string> = { r: "Auditor", s: "Stock API", a: "restock" };
const referenced = (_kind: string, id: string) => names[id];

describe("record titles", () => {
  it("name a record by its name first", () => {
    expect(recordTitle(contracts, { id: "c", name: "Named", stakeholderName: "Acme" })).toBe("Named");
  });

  it("name a record without one by what identifies it, references by their titles", () => {
    expect(recordTitle(dataServiceAccesses, { id: "x", hasRole: "r", hasDataService: "s" }, referenced)).toBe(
      "Auditor → Stock API",
    );
    expect(
      recordTitle(routingOperations, { id: "o", sequenceNumber: 2, hasWoTAction: "a" }, referenced),
    ).toBe("2. restock");
    expect(recordTitle(contracts, { id: "c", stakeholderName: "Acme" })).toBe("Acme");
  });

  it("take the next template when one lacks a field, then the description, then the id", () => {
    expect(
      recordTitle(contractDetails, { id: "d", hasRole: "r", roleScopeName: "acme-auditor" }, referenced),
    ).toBe("acme-auditor");
    expect(recordTitle(contractDetails, { id: "d", hasRole: "r" }, referenced)).toBe("Auditor");
    expect(recordTitle(dataServiceOffers, { id: "o", description: "On the marketplace" })).toBe(
      "On the marketplace",
    );
    expect(recordTitle(dataServiceAccesses, { id: "urn:x" })).toBe("urn:x");
  });

  it("say when a kind goes by one field alone (its list shows it once)", () => {
    expect(soleTitleField(contracts)).toBe("stakeholderName");
    expect(soleTitleField(dataServiceAccesses)).toBeUndefined();
  });
});
