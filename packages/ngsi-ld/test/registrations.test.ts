import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NgsiLdClient, NgsiLdError, type BrokerProfile } from "../src/index.ts";
import { RecordingBroker } from "./recording-broker.ts";

/** The client's context source registration calls (5.9-5.10), against a recording fake broker over HTTP. */
let fake: RecordingBroker;
beforeAll(async () => {
  fake = await new RecordingBroker().start();
});
afterAll(() => fake.stop());

const clientFor = (name: BrokerProfile["name"]) =>
  new NgsiLdClient({
    baseUrl: fake.url,
    implementationName: name,
    label: `Broker ${name}`,
    tenant: "farm",
    pageSize: 2,
  });
const registration = (n: number) => ({
  id: `urn:ngsi-ld:ContextSourceRegistration:${n}`,
  type: "ContextSourceRegistration",
  information: [{ entities: [{ type: "Vehicle" }] }],
  endpoint: "http://other.example.org:1026",
});

describe("context source registrations", () => {
  it("lists every page; the embedded broker is asked with local=true, Orion-LD and Stellio without a condition", async () => {
    for (const name of ["orrery", "orion-ld", "stellio"] as const) {
      let page = 0;
      fake.answer(() => ({ body: page++ === 0 ? [registration(1), registration(2)] : [registration(3)] }));
      expect((await clientFor(name).registrations()).map((r) => r.id)).toEqual(
        [1, 2, 3].map((n) => registration(n).id),
      );
      const asked = fake.requests.slice(-2);
      expect(asked.map((r) => r.path)).toEqual([
        "/ngsi-ld/v1/csourceRegistrations",
        "/ngsi-ld/v1/csourceRegistrations",
      ]);
      expect(asked.map((r) => r.query)).toEqual(
        [0, 2].map((offset) => ({
          limit: "2",
          offset: String(offset),
          ...(name === "orrery" ? { local: "true" } : {}),
        })),
      );
      expect(asked[0]!.headers["ngsild-tenant"]).toBe("farm");
    }
  });

  it("asks Scorpio, which refuses a query without a condition, for the types it holds", async () => {
    fake.answer((r) =>
      r.path.endsWith("/types")
        ? {
            body: [
              { id: "Vehicle", type: "EntityType", typeName: "Vehicle", attributeNames: [] },
              { id: "Building", type: "EntityType", typeName: "Building", attributeNames: [] },
            ],
          }
        : { body: [registration(1)] },
    );
    expect((await clientFor("scorpio").registrations()).map((r) => r.id)).toEqual([registration(1).id]);
    expect(fake.last.query).toEqual({ type: "Vehicle,Building", limit: "2", offset: "0" });
    fake.answer(() => ({ body: [] }));
    expect(await clientFor("scorpio").registrations()).toEqual([]);
    expect(fake.requests.map((r) => r.path)).toEqual(["/ngsi-ld/v1/types"]);
  });

  it("creates with POST (the id from Location), reads and deletes by an escaped id", async () => {
    fake.answer(() => ({
      status: 201,
      headers: { location: "/ngsi-ld/v1/csourceRegistrations/urn:ngsi-ld:ContextSourceRegistration:new" },
    }));
    const { id: _id, type: _type, ...body } = registration(0);
    expect(await clientFor("stellio").createRegistration(body)).toBe(
      "urn:ngsi-ld:ContextSourceRegistration:new",
    );
    expect(fake.last.body).toEqual({ ...body, type: "ContextSourceRegistration" });
    fake.answer(() => ({ status: 204 }));
    const odd = "urn:x:.*+?(|\\";
    await clientFor("scorpio").deleteRegistration(odd);
    expect(fake.last.method).toBe("DELETE");
    // The colons of a URN stay as they are (as for entities); everything else is escaped.
    expect(fake.last.path).toBe(
      `/ngsi-ld/v1/csourceRegistrations/${encodeURIComponent(odd).replaceAll("%3A", ":")}`,
    );
  });

  it("a gateway's HTML page instead of a list is an unusable answer naming the broker", async () => {
    fake.answer(() => ({ body: "<html>Bad gateway</html>" }));
    const error = await clientFor("orion-ld")
      .registrations()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NgsiLdError);
    expect((error as NgsiLdError).failure).toMatchObject({ kind: "unusable", expected: "registrations" });
    expect((error as NgsiLdError).message).toContain("Broker orion-ld");
  });
});
