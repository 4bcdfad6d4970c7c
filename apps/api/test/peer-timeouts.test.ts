import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NgsiLdClient, NgsiLdError } from "@orrery/ngsi-ld";
import { keyrockFetch, KeyrockFailure } from "../src/auth/keyrock-management.ts";
import { BodyTooLarge, fetchWithin } from "../src/peers.ts";
import { linkHeader, ngsi } from "./broker/ngsi.ts";
import { driver, useTestApp } from "./support/harness.ts";

// A peer that accepts connections and never answers: once a call gives up (the API's 502 or 504),
// none of its connections stays open. (undici, under fetch, closes an aborted request's socket and
// then opens another one for it that nothing closes: nodejs/undici#5845.)

/**
 * A TCP server that accepts and never writes a byte, or only an answer's head (`headOnly`), or an
 * answer whose body never ends (`endless`).
 */
async function silentPeer(options: { headOnly?: boolean; endless?: boolean } = {}) {
  const open = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => undefined);
    // Reads what comes, so that a connection the caller closes ends here too.
    socket.resume();
    if (options.headOnly)
      socket.once("data", () =>
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"),
      );
    if (options.endless)
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n");
        const chunk = `4000\r\n${"x".repeat(0x4000)}\r\n`;
        const more = () => socket.writable && socket.write(chunk, more);
        more();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    open: () => open.size,
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type SilentPeer = Awaited<ReturnType<typeof silentPeer>>;

/** How many connections are still open a moment (at most `ms`) after the calls gave up. */
async function openAfter(peer: SilentPeer, ms = 1_500): Promise<number> {
  const until = Date.now() + ms;
  while (peer.open() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return peer.open();
}

const peers: SilentPeer[] = [];
const peer = async (options?: { headOnly?: boolean; endless?: boolean }) => {
  const made = await silentPeer(options);
  peers.push(made);
  return made;
};
afterAll(() => Promise.all(peers.map((p) => p.close())));

describe("calls that give up on a silent peer", () => {
  it("leave no connection open: peers, Keyrock, context brokers", async () => {
    const silent = await peer();
    const broker = new NgsiLdClient({ baseUrl: silent.url, implementationName: "orion-ld", timeoutMs: 300 });
    const outcomes = await Promise.all([
      ...Array.from({ length: 26 }, () =>
        fetchWithin(`${silent.url}/token`, { method: "POST", body: "{}" }, 300).catch((e: Error) => e.name),
      ),
      ...Array.from({ length: 5 }, () =>
        keyrockFetch(`${silent.url}/v1/auth/tokens`, { method: "POST" }, "sign-in", 300).catch(
          (e: unknown) => e,
        ),
      ),
      ...Array.from({ length: 5 }, () => broker.subscriptions().catch((e: unknown) => e)),
    ]);
    expect(outcomes.slice(0, 26)).toEqual(Array(26).fill("TimeoutError"));
    for (const failure of outcomes.slice(26, 31)) expect(failure).toBeInstanceOf(KeyrockFailure);
    for (const failure of outcomes.slice(31))
      expect((failure as NgsiLdError).failure).toEqual({ kind: "timeout" });
    expect(silent.accepted()).toBeGreaterThanOrEqual(36);
    expect(await openAfter(silent)).toBe(0);
  });

  it("give up on a peer that sends an answer's head and stalls its body, and close that connection too", async () => {
    const stalling = await peer({ headOnly: true });
    const started = Date.now();
    await expect(fetchWithin(`${stalling.url}/token`, {}, 300)).rejects.toMatchObject({
      name: "TimeoutError",
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await openAfter(stalling)).toBe(0);
  });

  it("stop reading a body past the size a call accepts, and close that connection", async () => {
    const endless = await peer({ endless: true });
    await expect(fetchWithin(`${endless.url}/model.yaml`, {}, 5_000, 100_000)).rejects.toBeInstanceOf(
      BodyTooLarge,
    );
    expect(await openAfter(endless)).toBe(0);
  });
});

describe(`the API's calls to a silent peer (${driver})`, () => {
  const ctx = useTestApp();
  let silent: SilentPeer;
  const paths: Record<string, string> = {};

  async function ok(method: string, path: string, body?: unknown) {
    const res = await ctx.api(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  beforeAll(async () => {
    silent = await peer();
    const at = { scheme: "http", host: "127.0.0.1", port: silent.port };
    const broker = await ok("POST", "/api/context-brokers", {
      name: "Silent broker",
      ...at,
      paginationMaxLimit: 1000,
      implementationName: "orion-ld",
      implementationVersion: "1.5.1",
    });
    const idm = await ok("POST", "/api/identity-managers", {
      name: "Silent Keyrock",
      ...at,
      oauth2TokenPath: "/oauth2/token",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    });
    const grant = await ok("POST", "/api/identity-manager-grants", {
      name: "Silent grant",
      hasIdentityManager: idm.id,
      grantType: "password",
      clientId: "market-app",
      clientSecret: "client-secret-91f2",
      username: "admin@test.com",
      password: "admin-password-5d1c",
    });
    const plain = await ok("POST", "/api/services", { name: "Plain", hasContextBroker: broker.id });
    const guarded = await ok("POST", "/api/services", {
      name: "Guarded",
      hasContextBroker: broker.id,
      authorizationRequired: true,
      authorizationMode: "oauth2",
      hasIdentityManager: idm.id,
      hasIdentityManagerGrant: grant.id,
    });
    for (const [key, service] of [
      ["plain", plain],
      ["guarded", guarded],
    ] as const) {
      const workspace = await ok("POST", "/api/workspaces", {
        name: `Silent ${key}`,
        dataModelName: `silent-${key}`,
        hasService: service.id,
        hasIdentityManager: idm.id,
        hasIdentityManagerGrant: grant.id,
      });
      await ok("POST", `/api/workspace/${workspace.id}/data-model/generate`);
      paths[key] = `/api/workspace/${workspace.id}`;
    }
  });

  it("answers 504 or 502 when the broker, the identity manager's token or Keyrock's management API never answers, and leaves no connection open", async () => {
    const [brokerCall, tokenCall, usersCall] = await Promise.all([
      ctx.api("GET", `${paths.plain}/subscriptions`),
      ctx.api("GET", `${paths.guarded}/subscriptions`),
      ctx.api("GET", `${paths.plain}/users`),
    ]);
    expect([brokerCall.status, brokerCall.body.code]).toEqual([504, "broker.timeout"]);
    expect([tokenCall.status, tokenCall.body.code]).toEqual([502, "idm.unreachable"]);
    expect([usersCall.status, usersCall.body.code]).toEqual([502, "users.unreachable"]);
    expect(silent.accepted()).toBeGreaterThanOrEqual(3);
    expect(await openAfter(silent)).toBe(0);
  });
});

describe(`the embedded broker's calls to a silent peer (${driver})`, () => {
  const ctx = useTestApp();

  it("leave no connection open: a remote @context and a context source that never answer", async () => {
    const silent = await peer();
    const call = ngsi(ctx.t);
    const type = `Silent${Date.now().toString(36)}`;
    const registered = await call("POST", "/csourceRegistrations", {
      type: "ContextSourceRegistration",
      information: [{ entities: [{ type }] }],
      endpoint: silent.url,
    });
    expect(registered.status, registered.raw).toBe(201);
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        call("GET", `/entities?type=Shop${i}`, undefined, {
          link: linkHeader(`${silent.url}/context-${i}.jsonld`),
        }),
      ),
      ...Array.from({ length: 10 }, () => call("GET", `/entities?type=${type}`)),
    ]);
    // The @context cannot be loaded: 503 LdContextNotAvailable; the source's silence is a warning.
    for (const answer of answers.slice(0, 10)) expect(answer.status, answer.raw).toBe(503);
    for (const answer of answers.slice(10)) {
      expect(answer.status, answer.raw).toBe(200);
      expect(String(answer.headers["ngsild-warning"])).toMatch(/no answer in time/);
    }
    expect(silent.accepted()).toBeGreaterThanOrEqual(20);
    expect(await openAfter(silent)).toBe(0);
  }, 60_000);
});
