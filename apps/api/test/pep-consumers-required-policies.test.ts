import { describe, expect, it } from "vitest";
import { describePolicy, requiredPolicies, type ConsumerRequest } from "../src/pep/required-policies.ts";

// What a data-space consumer must hold for an NGSI-LD request, as ngsi-ishare-policies derives it:
// the entity type (the stored one for an entity named by id), the ids, the attributes, and the
// method with :Subscription or :Batch. No database: the stored types are given.

const stored: Record<string, string> = {
  "urn:ngsi-ld:Shelf:1": "Shelf",
  "urn:ngsi-ld:Shelf:2": "Shelf",
  "urn:ngsi-ld:Product:9": "Product",
  // An id whose URN names another type than the stored one: the stored one counts.
  "urn:ngsi-ld:Shelf:disguised": "Secret",
};
const typeOf = async (id: string) => stored[id];

const request = (
  method: string,
  routePattern: string,
  extra: Partial<ConsumerRequest> = {},
): ConsumerRequest => ({
  method,
  path: routePattern,
  routePattern,
  params: {},
  query: {},
  body: undefined,
  ...extra,
});

async function asked(r: ConsumerRequest): Promise<string[] | string> {
  const derived = await requiredPolicies(r, typeOf);
  return "refused" in derived ? derived.refused : derived.policies.map(describePolicy);
}

describe("required policies of an NGSI-LD request", () => {
  it("reads entities of the queried types, ids and attributes", async () => {
    expect(await asked(request("GET", "/entities", { query: { type: "Shelf" } }))).toEqual([
      "GET Shelf [*] [*]",
    ]);
    expect(
      await asked(
        request("HEAD", "/entities", {
          query: { type: "Shelf,Product", id: "urn:ngsi-ld:Shelf:1", attrs: "name,numberOfItems" },
        }),
      ),
    ).toEqual([
      "GET Shelf [urn:ngsi-ld:Shelf:1] [name, numberOfItems]",
      "GET Product [urn:ngsi-ld:Shelf:1] [name, numberOfItems]",
    ]);
    // A type expression selects every type it names.
    expect(await asked(request("GET", "/entities", { query: { type: "(Shelf;Product)|Store" } }))).toEqual([
      "GET Shelf [*] [*]",
      "GET Product [*] [*]",
      "GET Store [*] [*]",
    ]);
  });

  it("takes the stored type of an entity named by id, never its URN's", async () => {
    const r = request("GET", "/entities/:entityId", {
      params: { entityId: "urn:ngsi-ld:Shelf:disguised" },
      query: { attrs: "secret" },
    });
    expect(await asked(r)).toEqual(["GET Secret [urn:ngsi-ld:Shelf:disguised] [secret]"]);
    // NGSI-LD 1.8's pick names the attributes read as attrs does.
    expect(await asked({ ...r, query: { pick: "name" } })).toEqual([
      "GET Secret [urn:ngsi-ld:Shelf:disguised] [name]",
    ]);
    expect(
      await asked(
        request("GET", "/entities", { query: { id: "urn:ngsi-ld:Shelf:1,urn:ngsi-ld:Product:9" } }),
      ),
    ).toEqual(["GET Shelf [urn:ngsi-ld:Shelf:1] [*]", "GET Product [urn:ngsi-ld:Product:9] [*]"]);
    expect(
      await asked(request("DELETE", "/entities/:entityId", { params: { entityId: "urn:x:unknown" } })),
    ).toMatch(/urn:x:unknown is not known here/);
  });

  it("names the attributes written", async () => {
    const id = { entityId: "urn:ngsi-ld:Shelf:1" };
    expect(
      await asked(
        request("PATCH", "/entities/:entityId/attrs", {
          params: id,
          body: { numberOfItems: { value: 3 }, "@context": "x" },
        }),
      ),
    ).toEqual(["PATCH Shelf [urn:ngsi-ld:Shelf:1] [numberOfItems]"]);
    expect(
      await asked(
        request("PATCH", "/entities/:entityId/attrs/:attrId", { params: { ...id, attrId: "name" } }),
      ),
    ).toEqual(["PATCH Shelf [urn:ngsi-ld:Shelf:1] [name]"]);
    expect(await asked(request("DELETE", "/entities/:entityId", { params: id }))).toEqual([
      "DELETE Shelf [urn:ngsi-ld:Shelf:1] [*]",
    ]);
    expect(
      await asked(
        request("POST", "/entities", { body: { id: "urn:ngsi-ld:Shelf:3", type: "Shelf", name: {} } }),
      ),
    ).toEqual(["POST Shelf [urn:ngsi-ld:Shelf:3] [*]"]);
    // The temporal API is the same data.
    expect(
      await asked(
        request("DELETE", "/temporal/entities/:entityId/attrs/:attrId", {
          params: { ...id, attrId: "name" },
        }),
      ),
    ).toEqual(["DELETE Shelf [urn:ngsi-ld:Shelf:1] [name]"]);
  });

  it("asks :Batch once per entity type of a batch, and a batch query as a read", async () => {
    const body = [
      { id: "urn:ngsi-ld:Shelf:1", type: "Shelf", name: {} },
      { id: "urn:ngsi-ld:Shelf:2", type: "Shelf", location: {} },
      { id: "urn:ngsi-ld:Product:9", type: "Product", price: {} },
    ];
    expect(await asked(request("POST", "/entityOperations/update", { body }))).toEqual([
      "POST:Batch Shelf [urn:ngsi-ld:Shelf:1, urn:ngsi-ld:Shelf:2] [name, location]",
      "POST:Batch Product [urn:ngsi-ld:Product:9] [price]",
    ]);
    expect(await asked(request("POST", "/entityOperations/upsert", { body }))).toEqual([
      "POST:Batch Shelf [urn:ngsi-ld:Shelf:1, urn:ngsi-ld:Shelf:2] [*]",
      "POST:Batch Product [urn:ngsi-ld:Product:9] [*]",
    ]);
    expect(
      await asked(
        request("POST", "/entityOperations/delete", {
          body: ["urn:ngsi-ld:Shelf:1", "urn:ngsi-ld:Shelf:disguised"],
        }),
      ),
    ).toEqual([
      "POST:Batch Shelf [urn:ngsi-ld:Shelf:1] [*]",
      "POST:Batch Secret [urn:ngsi-ld:Shelf:disguised] [*]",
    ]);
    expect(
      await asked(
        request("POST", "/entityOperations/query", {
          body: { entities: [{ type: "Shelf" }], attrs: ["name"] },
        }),
      ),
    ).toEqual(["GET Shelf [*] [name]"]);
  });

  it("asks :Subscription with the watched types and notified attributes", async () => {
    expect(
      await asked(
        request("POST", "/subscriptions", {
          body: {
            id: "urn:ngsi-ld:Subscription:s1",
            entities: [{ type: "Shelf" }],
            notification: { attributes: ["numberOfItems"], endpoint: { uri: "http://x" } },
          },
        }),
      ),
    ).toEqual(["POST:Subscription Shelf [urn:ngsi-ld:Subscription:s1] [numberOfItems]"]);
  });

  it("refuses what names no entity type a registry can be asked about", async () => {
    for (const r of [
      request("GET", "/entities"),
      request("GET", "/entities", { query: { type: "*" } }),
      request("GET", "/subscriptions"),
      request("DELETE", "/subscriptions/:subscriptionId", { params: { subscriptionId: "s1" } }),
      request("POST", "/subscriptions", { body: { watchedAttributes: ["x"] } }),
      request("POST", "/csourceRegistrations", { body: {} }),
      request("GET", "/types"),
      request("POST", "/entities", { body: { id: "urn:x:1" } }),
      request("POST", "/entityOperations/create", { body: [{ id: "urn:x:1" }] }),
    ])
      expect(typeof (await asked(r)), `${r.method} ${r.routePattern}`).toBe("string");
  });
});
