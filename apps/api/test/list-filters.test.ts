import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { createWorkspace } from "../../../test/samples/platform.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

let t: TestApp;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestApp();
  api = client(t, await t.tokenFor("admin"));
});
afterAll(() => t?.close());

describe(`lists narrowed by a field (${driver})`, () => {
  it("answers only the records with the values asked for, and ignores what cannot narrow", async () => {
    const { workspace } = await createWorkspace(api, platformKinds);
    const base = `/api/workspace/${workspace.id}`;
    const room = (await api("POST", `${base}/types`, { name: "Room" })).body;
    const building = (await api("POST", `${base}/types`, { name: "Building" })).body;
    const property = (name: string, hasType: string, extra: Record<string, unknown>) =>
      api("POST", `${base}/properties`, { name, hasType, ...extra });
    await property("temperature", room.id, { ngsiLdType: "Property", propertyNgsiLdValueType: "Number" });
    await property("refBuilding", room.id, { ngsiLdType: "Relationship", relationshipType: building.id });
    await property("height", building.id, { ngsiLdType: "Property", propertyNgsiLdValueType: "Number" });

    const names = async (query: string) => {
      const res = await api("GET", `${base}/properties${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as Array<{ name: string }>).map((p) => p.name);
    };
    expect(await names("")).toEqual(["height", "refBuilding", "temperature"]);
    expect(await names("?ngsiLdType=Relationship")).toEqual(["refBuilding"]);
    expect(await names(`?hasType=${encodeURIComponent(room.id)}`)).toEqual(["refBuilding", "temperature"]);
    expect(await names(`?hasType=${encodeURIComponent(room.id)}&ngsiLdType=Property`)).toEqual([
      "temperature",
    ]);
    // A value is a value, never a pattern: hostile bytes match nothing.
    expect(await names(`?ngsiLdType=${encodeURIComponent(".*+?(|\\%_'")}`)).toEqual([]);
    // A free-text field does not narrow a list (only choices do): the whole list.
    expect(await names("?name=height")).toEqual(["height", "refBuilding", "temperature"]);
  });

  it("does not narrow by a secret, so a list cannot be used to guess one", async () => {
    const grants = platformKinds.find((k) => k.kind === "identity-manager-grants")!;
    const secret = grants.fields.find((f) => f.secret)!;
    const all = await api("GET", "/api/identity-manager-grants");
    const narrowed = await api("GET", `/api/identity-manager-grants?${secret.name}=nothing-like-it`);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body).toEqual(all.body);
  });
});
