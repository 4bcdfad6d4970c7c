import { describe, expect, it } from "vitest";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// Issue 25, "Records read by what they are": a record without a name is named by what identifies
// it, and a server sentence names fields by their labels, in the reader's language and quotation marks.

const ctx = useEmbeddedWorkspace();
const fr = { "accept-language": "fr" };

const role = (extra: Record<string, unknown> = {}) => ({
  name: "Auditor",
  notBefore: 1_767_225_600,
  notOnOrAfter: 1_798_761_600,
  dataServiceProviderId: "did:web:provider.example.org",
  verifiableCredentialType: "AuditCredential",
  ...extra,
});

describe(`record titles and field labels in the API's sentences (${driver})`, () => {
  it("names an access that keeps a data service from deletion by its role and data service, never by its URN", async () => {
    const auditor = (await ctx.api("POST", `${ctx.path}/roles`, role())).body;
    const service = (
      await ctx.api("POST", `${ctx.path}/data-services`, {
        name: "Stock API",
        hasEntityType: ctx.types.Building,
        hasProperties: [ctx.properties["Building.name"]],
      })
    ).body;
    const access = await ctx.api("POST", `${ctx.path}/data-service-accesses`, {
      hasRole: auditor.id,
      hasDataService: service.id,
    });
    expect(access.status, JSON.stringify(access.body)).toBe(201);
    const refused = await ctx.api("DELETE", `${ctx.path}/data-services/${service.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.referrers).toEqual([
      expect.objectContaining({
        id: access.body.id,
        kind: "data-service-accesses",
        name: "Auditor → Stock API",
      }),
    ]);
    expect(refused.body.detail).toBe(
      "It cannot be deleted while these records refer to it: “Auditor → Stock API”.",
    );
    expect(refused.body.detail).not.toContain("urn:");
    const enFrançais = await ctx.api("DELETE", `${ctx.path}/data-services/${service.id}`, undefined, fr);
    expect(enFrançais.body.detail).toBe(
      "Il ne peut être supprimé tant que ces enregistrements y font référence\u00a0: « Auditor → Stock API ».",
    );
  });

  it("names the fields of a validation failure by their labels, quoted as the language quotes", async () => {
    const backwards = role({ name: "Backwards", notOnOrAfter: 1_767_225_600 });
    const en = await ctx.api("POST", `${ctx.path}/roles`, backwards);
    expect(en.status).toBe(400);
    expect(en.body.detail).toBe("“Not on or after” must come after “Not before”");
    // The machine-readable parts keep the fields' names.
    expect(en.body.errors[0]).toMatchObject({
      path: "notOnOrAfter",
      code: "field.afterField",
      params: { field: "notBefore" },
    });
    const french = await ctx.api("POST", `${ctx.path}/roles`, backwards, fr);
    expect(french.body.detail).toBe("« Pas à partir de » doit venir après « Pas avant »");
    expect(french.body.details).toEqual(["« Pas à partir de » doit venir après « Pas avant »"]);
    const long = await ctx.api("POST", `${ctx.path}/roles`, role({ name: "x".repeat(101) }), fr);
    expect(long.body.detail).toBe("« Nom » doit contenir au plus 100 caractères");
  });

  it("names the kind a dangling reference should be by its label", async () => {
    const res = await ctx.api("POST", `${ctx.path}/data-service-accesses`, {
      hasRole: "urn:ngsi-ld:Role:missing",
      hasDataService: "urn:ngsi-ld:DataService:missing",
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toContain("“Role” refers to no role in this workspace");
  });
});
