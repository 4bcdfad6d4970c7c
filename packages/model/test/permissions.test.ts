import { describe, expect, it } from "vitest";
import { escapeRegex, isAllowed, isShowroom } from "../src/index.ts";

describe("permission matcher", () => {
  const perms = [
    { action: "get", resource: "^/api/context-brokers(/.*)?$" },
    { action: "POST", resource: "^/api/context-brokers$" },
    { action: "GET", resource: "[" }, // broken pattern: grants nothing, throws nothing
  ];
  it("matches the upper-cased action and the path pattern", () => {
    expect(isAllowed(perms, "GET", "/api/context-brokers")).toBe(true);
    expect(isAllowed(perms, "get", "/api/context-brokers/urn:ngsi-ld:ContextBroker:1")).toBe(true);
    expect(isAllowed(perms, "POST", "/api/context-brokers")).toBe(true);
    expect(isAllowed(perms, "POST", "/api/context-brokers/urn:x")).toBe(false);
    expect(isAllowed(perms, "DELETE", "/api/context-brokers/urn:x")).toBe(false);
    expect(isAllowed(perms, "GET", "/api/services")).toBe(false);
  });
  it("detects showroom mode from a GET on /showroom, the spec's literal path included", () => {
    expect(isShowroom(perms)).toBe(false);
    expect(isShowroom([{ action: "GET", resource: "^/showroom$" }])).toBe(true);
    expect(isShowroom([{ action: "GET", resource: "/showroom", exact: true }])).toBe(true);
    expect(isShowroom([{ action: "POST", resource: "^/showroom$" }])).toBe(false);
    expect(isShowroom([{ action: "GET", resource: "/showroom/", exact: true }])).toBe(false);
  });

  it("compares an exact permission with the path as written, case included, as Keyrock's PDP does", () => {
    const broker = "/api/context-brokers/urn:ngsi-ld:ContextBroker:1";
    const exact = [{ action: "PUT", resource: broker, exact: true }];
    expect(isAllowed(exact, "put", broker)).toBe(true);
    expect(isAllowed(exact, "PUT", "/api/context-brokers/URN:NGSI-LD:CONTEXTBROKER:1")).toBe(false);
    expect(isAllowed(exact, "PUT", `${broker}0`)).toBe(false);
    expect(isAllowed(exact, "PUT", "/api/context-brokers")).toBe(false);
    // Not a pattern: its dots and stars are characters.
    expect(isAllowed([{ action: "GET", resource: "^/api/.*", exact: true }], "GET", "/api/x")).toBe(false);
    // The shape stored before `exact` existed stays a case-insensitive regular expression.
    expect(isAllowed([{ action: "PUT", resource: `^${broker}$` }], "PUT", broker.toUpperCase())).toBe(true);
  });

  it("escapes a value placed in a generated expression so that it matches itself only", () => {
    const base = "/api/workspace/w/shelf";
    for (const id of ["urn:ngsi-ld:Shelf:.*", "a+b", "a(b", "a|b", "a?b", "a\\b", "[x]", "a$b^{2}"]) {
      // Keyrock's decision point reads a regex permission with new RegExp(resource, "i").
      const generated = [{ action: "PATCH", resource: `^${base}/${escapeRegex(id)}/(.*)$` }];
      expect(isAllowed(generated, "PATCH", `${base}/${id}/items`), id).toBe(true);
      expect(isAllowed(generated, "PATCH", `${base}/${id.toUpperCase()}/items`), id).toBe(true);
      for (const sibling of ["urn:ngsi-ld:Shelf:2", "aab", "ab", "a", "b", "a\\\\b", "x", "a$b^{22}"])
        if (sibling !== id)
          expect(isAllowed(generated, "PATCH", `${base}/${sibling}/items`), `${id} ${sibling}`).toBe(false);
    }
  });
});
