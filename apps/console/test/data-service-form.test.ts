import { describe, expect, it } from "vitest";
import { dataServices, roles } from "@orrery/model";
import { writeSchema } from "@orrery/model/schema";
import i18n from "../src/i18n/index.ts";
import { instantToLocal, localToInstant } from "../src/resources/FieldInput.tsx";
import { serverFieldText } from "../src/resources/fieldErrors.ts";
import { directionOf } from "../src/data-services/direction.tsx";

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

  it("words the server's field errors with the console's labels, in French too", async () => {
    await i18n.changeLanguage("fr");
    const t = i18n.t.bind(i18n);
    const after = {
      message: "doit venir après notBefore",
      code: "field.afterField",
      params: { field: "notBefore" },
    };
    expect(serverFieldText(after, t)).toBe(`Doit venir après « ${t("fields.notBefore")} ».`);
    const outside = {
      message: "…",
      code: "field.outsideOf",
      params: { kind: "properties", field: "hasEntityType" },
    };
    expect(serverFieldText(outside, t)).toContain(t("kinds.properties.one"));
    expect(serverFieldText(outside, t)).toContain(t("fields.hasEntityType"));
    expect(serverFieldText(outside, t)).not.toMatch(/hasEntityType|properties/);
    // A code the console does not word itself: the server's sentence, already in the reader's language.
    expect(serverFieldText({ message: "déjà pris", code: "conflict.name" }, t)).toBe("déjà pris");
    await i18n.changeLanguage("en");
  });
});
