import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStorage } from "../../src/storage/database.ts";
import { eventually, freshDatabase, Receiver, startPluginBroker } from "./receiver.ts";

/**
 * TP/NGSI-LD/CB/RESTART: what the broker keeps across a restart of its process on the same
 * database (PGlite DATA_DIR, or the same PostgreSQL database): pending notifications in the outbox
 * are delivered by the next process, and the temporal history is still there.
 */
describe("TP/NGSI-LD/CB/RESTART pending notifications and history survive a restart", () => {
  it("RESTART/001 a notification for a receiver that is down is delivered after the restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "orrery-broker-restart-"));
    const database = await freshDatabase();
    const receiver = new Receiver();
    const notifications = { retryBaseMs: 100, retryMaxMs: 300, maxAttempts: 1000, pollIntervalMs: 100 };
    try {
      // A free port that nothing listens on yet.
      await receiver.start();
      const port = receiver.port;
      await receiver.stop();

      const firstStorage = await openStorage({ dataDir, databaseUrl: database.databaseUrl });
      const first = await startPluginBroker({ notifications }, { storage: firstStorage, dataDir });
      const id = "urn:ngsi-ld:Building:restart-1";
      const sub = "urn:ngsi-ld:Subscription:restart-1";
      expect(
        (
          await first.call("POST", "/subscriptions", {
            id: sub,
            type: "Subscription",
            entities: [{ type: "Building" }],
            notification: { endpoint: { uri: `http://127.0.0.1:${port}/notify` } },
          })
        ).status,
      ).toBe(201);
      const temperature = (value: number, minute: number) => ({
        type: "Property",
        value,
        observedAt: `2024-05-01T08:0${minute}:00Z`,
      });
      expect(
        (await first.call("POST", "/entities", { id, type: "Building", temperature: temperature(20, 1) }))
          .status,
      ).toBe(201);
      expect(
        (await first.call("PATCH", `/entities/${id}/attrs`, { temperature: temperature(21, 2) })).status,
      ).toBe(204);
      // The receiver is down: the deliveries fail and stay in the outbox.
      await eventually(
        async () => (await first.call("GET", `/subscriptions/${sub}`)).body.notification.timesFailed >= 1,
      );
      await first.close();
      await firstStorage.close();

      const secondStorage = await openStorage({ dataDir, databaseUrl: database.databaseUrl });
      const second = await startPluginBroker({ notifications }, { storage: secondStorage, dataDir });
      try {
        await receiver.start(port);
        const delivered = await receiver.next(2);
        expect(delivered.body.subscriptionId).toBe(sub);
        const values = receiver.received.map((r) => r.body.data[0].temperature.value).sort();
        expect(values).toEqual([20, 21]);
        const status = await eventually(async () => {
          const s = (await second.call("GET", `/subscriptions/${sub}`)).body.notification;
          return s.status === "ok" ? s : undefined;
        });
        expect(status.timesFailed).toBeGreaterThanOrEqual(1);
        const history = await second.call("GET", `/temporal/entities/${id}`);
        expect(history.status).toBe(200);
        expect(history.body.temperature.map((i: { value: number }) => i.value)).toEqual([20, 21]);
      } finally {
        await second.close();
        await secondStorage.close();
      }
    } finally {
      await receiver.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
