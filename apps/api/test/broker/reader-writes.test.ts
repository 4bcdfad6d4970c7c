import { describe, expect, it } from "vitest";
import type { EntityReader } from "@orrery/broker";
import { startPluginBroker } from "./receiver.ts";

/**
 * The host reads how far a tenant's entities have changed through the broker's in-process reader
 * (EntityReader.writes), not from the broker's tables: what it keeps of a tenant's entities (a list
 * in name order) holds while the count is the same.
 */
describe("the embedded broker's reader: entity writes of each tenant", () => {
  it("counts every committed entity write of a tenant, and no other tenant's; names never written to, whatever their bytes, have none", async () => {
    let reader: EntityReader | undefined;
    const broker = await startPluginBroker({ reader: (r) => (reader = r) });
    try {
      const tenant = "city.north:b/c-d_e";
      const other = "city.south";
      const hostile = [`.*+?(|\\"'`, "city.%", "city.north:b/c-d_%", "{a,b}", "NULL"];
      expect(await reader!.writes([tenant, other, ...hostile])).toEqual(new Map());

      const post = (at: string, id: string) =>
        broker.call("POST", "/entities", { id, type: "Building" }, { "NGSILD-Tenant": at });
      expect((await post(tenant, "urn:ngsi-ld:Building:w1")).status).toBe(201);
      expect((await post(other, "urn:ngsi-ld:Building:w1")).status).toBe(201);
      const first = await reader!.writes([tenant, other, ...hostile]);
      expect([...first.keys()].sort()).toEqual([other, tenant].sort());

      expect((await post(tenant, "urn:ngsi-ld:Building:w2")).status).toBe(201);
      expect(
        (
          await broker.call("DELETE", "/entities/urn:ngsi-ld:Building:w1", undefined, {
            "NGSILD-Tenant": tenant,
          })
        ).status,
      ).toBe(204);
      const then = await reader!.writes([tenant, other]);
      expect(Number(then.get(tenant))).toBe(Number(first.get(tenant)) + 2);
      expect(then.get(other)).toBe(first.get(other));
      expect(await reader!.writes([])).toEqual(new Map());
    } finally {
      await broker.close();
    }
  });
});
