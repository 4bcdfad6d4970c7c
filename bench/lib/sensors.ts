import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { ngsiLdBroker, type BrokerDatabase } from "@orrery/broker";
import { onCleanup } from "./cleanup.ts";
import { request } from "./http.ts";

/** The sensors the broker benches write (bench/broker.ts, bench/city-broker.ts), and the broker they write to. */
export const pad = (i: number) => String(i).padStart(6, "0");
export const observedAt = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString();
export const entity = (i: number) => ({
  id: `urn:ngsi-ld:Sensor:${pad(i)}`,
  type: "Sensor",
  temperature: { type: "Property", value: i % 40, unitCode: "CEL", observedAt: observedAt(i) },
  status: { type: "Property", value: i % 2 ? "on" : "off" },
  location: {
    type: "GeoProperty",
    value: { type: "Point", coordinates: [2 + (i % 100) / 100, 48 + (i % 77) / 100] },
  },
});

/** The broker plugin alone on Fastify, on 127.0.0.1 and an ephemeral port. */
export async function startBroker(db: BrokerDatabase) {
  {
    const app = Fastify({ logger: { level: "warn" }, bodyLimit: 16 * 1024 * 1024 });
    await app.register(ngsiLdBroker, {
      prefix: "/ngsi-ld/v1",
      db,
      bodyLimit: 16 * 1024 * 1024,
      notifications: { pollIntervalMs: 1000 },
    });
    const close = onCleanup(() => app.close());
    await app.listen({ host: "127.0.0.1", port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/ngsi-ld/v1`;
    const call = async (method: string, path: string, expect: number, body?: unknown, headers = {}) => {
      const json = body === undefined ? undefined : JSON.stringify(body);
      const res = await request(
        base + path,
        method,
        { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...headers },
        json,
      );
      if (res.status !== expect)
        throw new Error(`${method} ${path}: ${res.status} instead of ${expect}: ${res.text.slice(0, 300)}`);
      return res;
    };
    return { call, close };
  }
}
