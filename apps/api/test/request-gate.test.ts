import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RequestGate } from "../src/health/request-gate.ts";

// The background health checks give way to users' requests: a check waits while a request is in
// flight, for a bounded time, so that 10,000 components checked all the time do not starve a list.

describe("the background checks' request gate", () => {
  const held: ServerResponse[] = [];
  let close: () => Promise<void> = async () => {};
  afterEach(async () => {
    for (const response of held.splice(0)) response.end();
    await close();
  });

  async function server(gate: RequestGate) {
    const srv = createServer((_request, response) => held.push(response));
    gate.watch(srv);
    await new Promise<void>((ok) => srv.listen(0, "127.0.0.1", ok));
    close = () =>
      new Promise<void>((ok) => {
        srv.closeAllConnections();
        srv.close(() => ok());
      });
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/`;
    return {
      /** Sends a request the server holds until the test ends it; resolves once it arrived. */
      async hold(headers: Record<string, string> = {}) {
        const before = held.length;
        const answered = fetch(url, { headers }).then((r) => r.text());
        while (held.length === before) await new Promise((r) => setTimeout(r, 5));
        return { response: held.at(-1)!, answered };
      },
    };
  }

  const elapsed = async (work: Promise<void>) => {
    const start = performance.now();
    await work;
    return performance.now() - start;
  };

  it("lets a check go at once when no request is in flight", async () => {
    const gate = new RequestGate();
    await server(gate);
    expect(await elapsed(gate.quiet(20_000))).toBeLessThan(5_000);
  });

  it("holds a check while a request is served, and lets it go when the response ends", async () => {
    const gate = new RequestGate();
    const { hold } = await server(gate);
    const { response, answered } = await hold();
    let released = false;
    const waiting = gate.quiet(10_000).then(() => (released = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(released).toBe(false);
    response.end("done");
    await answered;
    await waiting;
    expect(released).toBe(true);
  });

  it("lets a check go at once beside an open event stream (a console watching live), which is no request waiting", async () => {
    const gate = new RequestGate();
    const { hold } = await server(gate);
    await hold({ accept: "text/event-stream" });
    expect(await elapsed(gate.quiet(20_000))).toBeLessThan(5_000);
  });

  it("lets a check go after its longest wait when requests never stop", async () => {
    const gate = new RequestGate();
    const { hold } = await server(gate);
    await hold();
    const waited = await elapsed(gate.quiet(300));
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(10_000);
  });

  it("lets one check through at a time while requests never stop, so that checks cannot crowd the users out", async () => {
    const gate = new RequestGate();
    const { hold } = await server(gate);
    await hold();
    const start = performance.now();
    const passed: number[] = [];
    await Promise.all(
      [0, 1, 2].map(() => gate.quiet(200).then(() => passed.push(performance.now() - start))),
    );
    expect(passed[0]).toBeGreaterThanOrEqual(190);
    expect(passed[2]).toBeGreaterThanOrEqual(590);
  });

  it("counts clients asking one request after another as busy, though none is in flight between them", async () => {
    // Quiet is no request for 500 ms here: the requests below follow each other closer than that.
    const gate = new RequestGate(500);
    const { hold } = await server(gate);
    let asking = true;
    const client = (async () => {
      while (asking) {
        const { response, answered } = await hold();
        response.end("done");
        await answered;
      }
    })();
    try {
      await new Promise((r) => setTimeout(r, 100));
      const start = performance.now();
      const passed: number[] = [];
      await Promise.all(
        [0, 1, 2].map(() => gate.quiet(200).then(() => passed.push(performance.now() - start))),
      );
      // Each check waited its longest: none slipped through a gap between two requests.
      expect(passed[0]).toBeGreaterThanOrEqual(190);
      expect(passed[2]).toBeGreaterThanOrEqual(590);
    } finally {
      asking = false;
      await client;
    }
    // Once the client stops, the server is quiet again after 500 ms.
    await new Promise((r) => setTimeout(r, 600));
    expect(await elapsed(gate.quiet(20_000))).toBeLessThan(5_000);
  });

  it("lets every check through at once when the server is quiet", async () => {
    const gate = new RequestGate();
    await server(gate);
    const waited = await elapsed(Promise.all([0, 1, 2, 3].map(() => gate.quiet(20_000))).then(() => {}));
    expect(waited).toBeLessThan(5_000);
  });
});
