import { describe, expect, it } from "vitest";
import { isAllowed, isShowroom } from "../src/index.ts";

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
  it("detects showroom mode from a GET on /showroom", () => {
    expect(isShowroom(perms)).toBe(false);
    expect(isShowroom([{ action: "GET", resource: "^/showroom$" }])).toBe(true);
    expect(isShowroom([{ action: "POST", resource: "^/showroom$" }])).toBe(false);
  });
});
