import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { workspaceBroker, workspaceContextUrl } from "../src/context-data/broker-access.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";
import { driver } from "./support/harness.ts";

// The API's lists go through its embedded broker, which asks the registered context sources: a
// source that never answers must not make every user's list fail (issue 35: a registration with
// management.timeout 120 s made the entity list answer 504).

const ctx = useEmbeddedWorkspace();

describe(`a slow context source and the API's lists (${driver})`, () => {
  it("a registered source that never answers, with management.timeout 120 s, leaves the entity list answering the local entities", async () => {
    const { api, path, t, workspace } = ctx;
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const row = await t.records.requireWorkspace(workspace.id);
    const broker = await workspaceBroker(t.records, row, { context: workspaceContextUrl(t.config, row) });
    const created = await api("POST", `${path}/entities`, {
      id: "urn:ngsi-ld:Building:here",
      type: "Building",
      floors: { type: "Property", value: 3 },
    });
    expect(created.status).toBe(201);
    const registration = await broker.createRegistration({
      information: [{ entities: [{ type: "Building" }] }],
      endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      management: { timeout: 120_000 },
    });
    try {
      const started = Date.now();
      const list = await api("GET", `${path}/entities?type=Building`);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(JSON.stringify(list.body)).toContain("urn:ngsi-ld:Building:here");
      // Within the broker's federation timeout (5 s), well before the API's own 10 s.
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await broker.deleteRegistration(registration);
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);
});
