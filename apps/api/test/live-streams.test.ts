import { request } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { eventStream } from "../src/live/streams.ts";

// The Server-Sent Events stream of the live channel, on its own (no storage): when an event leaves.

describe("the live channel's event stream", () => {
  it("hands an event to the network as it is written, even by a promise callback that more work follows", async () => {
    const app = Fastify();
    // What the socket still held of the event once the callback that wrote it had gone on with
    // other promise callbacks (the embedded broker's delivery goes on with its queries).
    const held: number[] = [];
    app.get("/events", async (_request, reply) => {
      const stream = eventStream(reply, () => undefined);
      const socket = reply.raw.socket!;
      // Past the opening comment, in a promise callback as the broker's delivery is.
      await new Promise((resolve) => setTimeout(resolve, 10));
      await Promise.resolve();
      stream.send({ id: "urn:ngsi-ld:Building:.*+?(|\\", name: { type: "Property", value: "Mairie" } });
      for (let i = 0; i < 3; i++) await Promise.resolve();
      held.push(socket.writableLength);
      stream.end();
      return reply;
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const { port } = app.server.address() as AddressInfo;
      const text = await new Promise<string>((resolve, reject) => {
        request({ host: "127.0.0.1", port, path: "/events" }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve(body));
        })
          .on("error", reject)
          .end();
      });
      expect(text).toContain('data: {"id":"urn:ngsi-ld:Building:.*+?(|\\\\","name":');
      // Nothing waited in the socket's buffer for the next tick (which comes only after every
      // queued promise callback): the event was already on its way to the console.
      expect(held).toEqual([0]);
    } finally {
      await app.close();
    }
  });
});
