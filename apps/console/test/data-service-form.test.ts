import { describe, expect, it } from "vitest";
import { dataServices, roles } from "@orrery/model";
import { writeSchema } from "@orrery/model/schema";
import { instantToLocal, localToInstant } from "../src/resources/FieldInput.tsx";
import { directionOf } from "../src/workspaces/direction.tsx";

const type = "urn:ngsi-ld:Type:1";
const bare = { hasEntityType: type, isOffer: true };

describe("data service and role form rules", () => {
  it("asks the form for properties and actions, which the API lets call-by-call clients leave out", () => {
    const form = writeSchema(dataServices, "create", "form").safeParse(bare);
    expect(form.success).toBe(false);
    expect(form.error!.issues.map((i) => i.path.join(".")).sort()).toEqual([
      "hasDataActions",
      "hasProperties",
    ]);
    expect(writeSchema(dataServices, "create").safeParse(bare).success).toBe(true);
    // An emptied list is no list: the form asks again.
    expect(
      writeSchema(dataServices, "create", "form").safeParse({ ...bare, hasProperties: [] }).success,
    ).toBe(false);
  });

  it("turns date-time inputs into whole seconds and back, in the browser's time zone", () => {
    const seconds = localToInstant("2027-03-04T05:06")!;
    expect(Number.isInteger(seconds)).toBe(true);
    expect(instantToLocal(seconds)).toBe("2027-03-04T05:06");
    expect(localToInstant("")).toBeUndefined();
    expect(instantToLocal(undefined)).toBe("");
    const role = writeSchema(roles, "create", "form").safeParse({
      name: "Auditor",
      notBefore: seconds,
      notOnOrAfter: seconds + 0.5,
      dataServiceProviderId: "did:web:a.example.org",
      verifiableCredentialType: "AuditCredential",
    });
    expect(role.error?.issues.map((i) => i.path.join("."))).toEqual(["notOnOrAfter"]);
  });

  it("marks demand and offer, demand, offer or neither, and nothing without services", () => {
    expect(directionOf([{ isDemand: true }, { isOffer: true }])).toBe("both");
    expect(directionOf([{ isDemand: true, isOffer: false }])).toBe("demand");
    expect(directionOf([{ isOffer: true }])).toBe("offer");
    expect(directionOf([{ isDemand: false, isOffer: false }])).toBe("neither");
    expect(directionOf([])).toBeUndefined();
  });
});
