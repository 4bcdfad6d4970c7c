import "reflect-metadata";
import { webcrypto } from "node:crypto";
import { createRequire } from "node:module";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import * as x509 from "@peculiar/x509";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/fakes/browser.ts";
import { listen, sendJson, type Listening } from "../../../test/fakes/http.ts";
import { startFakeCredentialsConfig } from "../../../test/fakes/credentials-config.ts";
import { startFakeRegistry, type FakeRegistry } from "../../../test/fakes/ishare-registry.ts";
import { startFakeKeyrock, type FakeKeyrock } from "../../../test/fakes/keyrock.ts";
import { startFakePap } from "../../../test/fakes/odrl-pap.ts";
import { partyCredentials, type PartyCredentials } from "../../../test/fakes/pki.ts";
import { startFakeTrustedIssuersList } from "../../../test/fakes/trusted-issuers-list.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { claimDue } from "../src/health/store.ts";
import { contextBrokers } from "@orrery/model";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { client, driver, openTestStorage, startTestApp, type TestApp } from "./support/harness.ts";

// Fake peers that hang, refuse, answer slowly, answer an HTML page, or present an expired
// certificate, each registered as a platform component and checked through the API as the
// console's "Check connection" and Status page do.

/** Orrery's version: the repository's root package.json. */
const rootVersion = (createRequire(import.meta.url)("../../../package.json") as { version?: string }).version;

let t: TestApp;
let base: string;
let api: ReturnType<typeof client>;
const closers: Array<() => Promise<void>> = [];

/** An Orion-LD that answers after `delayMs`: its types list and its /version document. */
async function slowOrionLd(delayMs: number): Promise<Listening> {
  return listen(async (_req, res, url) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (url.pathname === "/version")
      return sendJson(res, 200, { "Orion-LD version": "1.10.0", "based on orion": "1.15.0-next" });
    if (url.pathname === "/ngsi-ld/v1/types")
      return sendJson(res, 200, { id: "urn:ngsi-ld:EntityTypeList:1", type: "EntityTypeList", typeList: [] });
    return sendJson(res, 404, {
      type: "https://uri.etsi.org/ngsi-ld/errors/ResourceNotFound",
      title: "Not found",
    });
  });
}

/** A TCP peer that accepts connections and never answers. */
async function hangingPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const open = new Set<Socket>();
  const server = createTcpServer((socket) => {
    open.add(socket);
    socket.on("error", () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of open) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A reverse proxy whose upstream is gone: nginx's 502 page on every path. */
async function deadUpstream(): Promise<Listening> {
  return listen((_req, res) => {
    res.writeHead(502, { "content-type": "text/html" });
    res.end(
      "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n",
    );
  });
}

/**
 * An identity manager whose token endpoint counts the sign-ins it is sent and refuses them (the
 * stored password is wrong: a real one would lock the account after a few).
 */
async function countingIdentityManager(): Promise<Listening & { signIns: () => number }> {
  let signIns = 0;
  const server = await listen(async (req, res, url) => {
    if (url.pathname === "/oauth2/token" && req.method === "POST") {
      signIns++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return sendJson(res, 401, { error: "invalid_grant", error_description: "Invalid user credentials" });
    }
    sendJson(res, 404, { error: "not_found" });
  });
  return { ...server, signIns: () => signIns };
}

const rsa = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const pem = (der: ArrayBuffer, label: string) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString("base64")
    .replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;

/** An HTTPS peer whose self-signed certificate for 127.0.0.1 expired on `expired`. */
async function expiredCertificatePeer(expired: Date): Promise<{ port: number; close(): Promise<void> }> {
  (x509.cryptoProvider as unknown as { set(crypto: unknown): void }).set(webcrypto);
  const keys = (await webcrypto.subtle.generateKey(rsa, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "0a",
    name: "CN=broker.test",
    notBefore: new Date(expired.getTime() - 365 * 24 * 3600_000),
    notAfter: expired,
    keys,
    signingAlgorithm: rsa,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: "ip", value: "127.0.0.1" }])],
  });
  const server = createHttpsServer(
    {
      key: pem(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY"),
      cert: cert.toString("pem"),
    },
    (_req, res) => sendJson(res, 200, { typeList: [] }),
  );
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const brokerFields = (name: string, port: number, extra: Record<string, unknown> = {}) => ({
  name,
  scheme: "http",
  host: "127.0.0.1",
  port,
  paginationMaxLimit: 100,
  implementationName: "orion-ld",
  implementationVersion: "1.10.0",
  ...extra,
});

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await api("POST", `/api/${path}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const check = (kind: string, id: string, headers: Record<string, string> = {}) =>
  api("POST", `/api/health/${kind}/${encodeURIComponent(id)}`, undefined, headers);

let keyrock: FakeKeyrock;
let registry: FakeRegistry;
let registryParty: PartyCredentials;
let orrery: PartyCredentials;
let stranger: PartyCredentials;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: base, HEALTH_CHECK_TIMEOUT_SECONDS: "1" });
  await t.app.listen({ port, host: "127.0.0.1" });
  api = client(t, await t.tokenFor("admin"));
  keyrock = await startFakeKeyrock({
    clientId: "orrery-app",
    clientSecret: "app-secret",
    admin: { email: "admin@test.com", password: "admin-pass" },
    users: [],
    roles: [],
  });
  [registryParty, orrery, stranger] = await Promise.all([
    partyCredentials("EU.EORI.NLREGISTRY", "Registry"),
    partyCredentials("EU.EORI.NLORRERY", "Orrery"),
    partyCredentials("EU.EORI.NLSTRANGER", "Stranger"),
  ]);
  registry = await startFakeRegistry({
    credentials: registryParty,
    trustedRoots: [registryParty.root, orrery.root],
  });
  closers.push(
    () => keyrock.close(),
    () => registry.close(),
  );
});

afterAll(async () => {
  for (const close of closers) await close();
  await t.close();
});

describe(`health of the registered components (${driver})`, () => {
  it("shows the embedded broker up, with its round trip and the version it reports", async () => {
    const id = await create(
      "context-brokers",
      brokerFields("Embedded", Number(new URL(base).port), { implementationName: "orrery" }),
    );
    const res = await check("context-brokers", id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: "context-brokers",
      id,
      name: "Embedded",
      state: "up",
      reasons: [],
    });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+ \(NGSI-LD 1\.8\)$/);
    // Orrery's own version (the root package.json), not its broker package's 0.0.0.
    expect(res.body.version).toBe(`${rootVersion} (NGSI-LD 1.8)`);
    expect(rootVersion).not.toBe("0.0.0");
    expect(res.body.roundTripMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(res.body.checkedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("says a broker at a closed port refused the connection, in English and in French", async () => {
    const port = await freePort();
    const id = await create("context-brokers", brokerFields("Closed", port));
    const en = await check("context-brokers", id);
    expect(en.body.state).toBe("down");
    expect(en.body.reasons).toEqual([
      expect.objectContaining({
        code: "health.refused",
        message: `The connection was refused: nothing listens at 127.0.0.1:${port}.`,
      }),
    ]);
    const fr = await check("context-brokers", id, { "accept-language": "fr" });
    expect(fr.body.reasons[0].message).toBe(
      `La connexion a été refusée\u00a0: rien n’écoute à 127.0.0.1:${port}.`,
    );
  });

  it("says a broker that never answers timed out, after the configured timeout", async () => {
    const peer = await hangingPeer();
    closers.push(() => peer.close());
    const id = await create("context-brokers", brokerFields("Hanging", peer.port));
    const res = await check("context-brokers", id);
    expect(res.body).toMatchObject({
      state: "down",
      reasons: [{ code: "health.timedOut", message: "No answer within 1 s." }],
    });
    expect(res.body.roundTripMs).toBeGreaterThanOrEqual(900);
  });

  it("shows a slow Orion-LD up with its round trip and its version", async () => {
    const peer = await slowOrionLd(300);
    closers.push(() => peer.close());
    const id = await create("context-brokers", brokerFields("Slow Orion-LD", Number(new URL(peer.url).port)));
    const res = await check("context-brokers", id);
    expect(res.body).toMatchObject({ state: "up", version: "1.10.0" });
    expect(res.body.roundTripMs).toBeGreaterThanOrEqual(290);
  });

  it("says an identity manager behind a proxy answers an HTML page, naming the page", async () => {
    const peer = await deadUpstream();
    closers.push(() => peer.close());
    const id = await create("identity-managers", {
      name: "Proxied Keyrock",
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(peer.url).port),
      oauth2TokenPath: "/oauth2/token",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    });
    const res = await check("identity-managers", id);
    expect(res.body.state).toBe("down");
    expect(res.body.reasons[0]).toMatchObject({
      code: "health.htmlPage",
      params: { status: 502, path: "/version" },
    });
    expect(res.body.reasons[0].message).toContain("502 Bad Gateway");
    expect(res.body.reasons[0].message).not.toContain("<");
  });

  it("says what is wrong with an expired certificate", async () => {
    const peer = await expiredCertificatePeer(new Date("2026-01-31T12:00:00Z"));
    closers.push(() => peer.close());
    const id = await create("context-brokers", brokerFields("Expired TLS", peer.port, { scheme: "https" }));
    const res = await check("context-brokers", id);
    expect(res.body.state).toBe("down");
    const codes = res.body.reasons.map((r: { code: string }) => r.code);
    expect(codes).toEqual(["health.tls", "health.certificate.expired", "health.certificate.selfSigned"]);
    expect(res.body.reasons[1].message).toBe("Its certificate expired on 2026-01-31.");
    const fr = await check("context-brokers", id, { "accept-language": "fr" });
    expect(fr.body.reasons[1].message).toBe("Son certificat a expiré le 2026-01-31.");
  });

  it("says a plain HTTP peer registered as https does not speak TLS", async () => {
    const peer = await slowOrionLd(0);
    closers.push(() => peer.close());
    const id = await create(
      "context-brokers",
      brokerFields("Wrong scheme", Number(new URL(peer.url).port), { scheme: "https" }),
    );
    const res = await check("context-brokers", id);
    expect(res.body).toMatchObject({ state: "down", reasons: [{ code: "health.notTls" }] });
  });

  it("shows Keyrock up with its version, and whether each grant still obtains a token, never the token", async () => {
    const idm = await create("identity-managers", {
      name: "Keyrock",
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(keyrock.url).port),
      oauth2TokenPath: "/oauth2/token",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    });
    expect((await check("identity-managers", idm)).body).toMatchObject({ state: "up", version: "8.3.0" });
    const grant = (name: string, clientSecret: string) =>
      create("identity-manager-grants", {
        name,
        hasIdentityManager: idm,
        grantType: "client_credentials",
        clientId: "orrery-app",
        clientSecret,
      });
    const good = await check("identity-manager-grants", await grant("Good grant", "app-secret"));
    expect(good.body).toMatchObject({ state: "up", reasons: [{ code: "health.tokenObtained" }] });
    expect(keyrock.issuedTokens.length).toBeGreaterThan(0);
    for (const token of keyrock.issuedTokens) {
      expect(good.raw).not.toContain(token);
      expect(t.logs.join("\n")).not.toContain(token);
    }
    const bad = await check("identity-manager-grants", await grant("Revoked grant", "old-secret"));
    expect(bad.body.state).toBe("down");
    expect(bad.body.reasons[0]).toMatchObject({ code: "health.tokenRefused" });
    expect(bad.body.reasons[0].message).toBe(
      "The credentials no longer obtain a token: 401, Invalid client: client is invalid",
    );
    expect(bad.raw).not.toContain("old-secret");
    expect(t.logs.join("\n")).not.toContain("app-secret");
    expect(t.logs.join("\n")).not.toContain("old-secret");
  });

  it("shows an iSHARE registry up, and which of its grants the registry still gives a token", async () => {
    const registryId = await create("authorization-registries", {
      name: "Registry",
      identifier: registryParty.identifier,
      certificates: registryParty.certificates,
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(registry.url).port),
      oauth2TokenPath: "/oauth2/token",
      delegationPath: "/ar/delegation",
      policyPath: "/ar/policy",
      implementationName: "ishare",
      implementationVersion: "2.0",
    });
    expect((await check("authorization-registries", registryId)).body).toMatchObject({ state: "up" });
    const grant = (party: PartyCredentials) =>
      create("authorization-registry-grants", {
        name: `Grant of ${party.identifier}`,
        hasAuthorizationRegistry: registryId,
        identifier: party.identifier,
        certificates: party.certificates,
        privateKey: party.privateKey,
      });
    const trusted = await check("authorization-registry-grants", await grant(orrery));
    expect(trusted.body).toMatchObject({ state: "up", reasons: [{ code: "health.tokenObtained" }] });
    const untrusted = await check("authorization-registry-grants", await grant(stranger));
    expect(untrusted.body.state).toBe("down");
    expect(untrusted.body.reasons[0].message).toBe(
      "The credentials no longer obtain a token: 400, client is not a trusted participant",
    );
  });

  it("checks the FIWARE Data Space Connector's components: PAP, both CCS variants, a trusted issuers list that answers an unknown issuer with an empty 404", async () => {
    const [pap, ccs, verifierCcs, til, gone, proxy] = await Promise.all([
      startFakePap(),
      startFakeCredentialsConfig({ variant: "ccs" }),
      startFakeCredentialsConfig({ variant: "verifier" }),
      startFakeTrustedIssuersList(),
      freePort(),
      deadUpstream(),
    ]);
    closers.push(
      () => pap.close(),
      () => ccs.close(),
      () => verifierCcs.close(),
      () => til.close(),
      () => proxy.close(),
    );
    const at = (url: string) => ({ scheme: "http", host: "127.0.0.1", port: Number(new URL(url).port) });
    const papFields = (name: string, url: string) => ({
      ...samplePayload("policy-administration-points", () => ""),
      name,
      ...at(url),
    });
    const ccsFields = (name: string, url: string, implementationName: string) => ({
      ...samplePayload("credentials-config-services", () => ""),
      name,
      ...at(url),
      implementationName,
    });
    const tilFields = (name: string, url: string) => ({
      ...samplePayload("trusted-issuers-lists", () => ""),
      name,
      ...at(url),
    });
    const up = {
      "policy-administration-points": await create("policy-administration-points", papFields("PAP", pap.url)),
      "credentials-config-services": await create(
        "credentials-config-services",
        ccsFields("CCS", ccs.url, "fiware-credentials-config-service"),
      ),
      "trusted-issuers-lists": await create("trusted-issuers-lists", tilFields("TIL", til.url)),
    };
    const verifierId = await create(
      "credentials-config-services",
      ccsFields("Verifier's CCS", verifierCcs.url, "fiware-vc-verifier"),
    );
    for (const [kind, id] of [...Object.entries(up), ["credentials-config-services", verifierId]]) {
      const res = await check(kind!, id!);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body, kind).toMatchObject({ kind, id, state: "up", reasons: [] });
      expect(res.body.roundTripMs).toBeGreaterThanOrEqual(0);
    }
    // The TIL was asked for an issuer it does not hold: its answer is an empty 404.
    const tilAnswer = await fetch(`${til.url}/issuer/${encodeURIComponent("did:web:nobody.example")}`);
    expect([tilAnswer.status, await tilAnswer.text()]).toEqual([404, ""]);

    // Down: nothing listens, or a proxy's 502 page where the API was due.
    const closed = `http://127.0.0.1:${gone}`;
    const down = [
      [
        "policy-administration-points",
        await create("policy-administration-points", papFields("Closed PAP", closed)),
      ],
      [
        "credentials-config-services",
        await create(
          "credentials-config-services",
          ccsFields("Proxied CCS", proxy.url, "fiware-vc-verifier"),
        ),
      ],
      ["trusted-issuers-lists", await create("trusted-issuers-lists", tilFields("Proxied TIL", proxy.url))],
    ] as const;
    for (const [kind, id] of down) {
      const res = await check(kind, id, { "accept-language": "fr" });
      expect(res.body.state, kind).toBe("down");
      expect(res.body.reasons[0].message).toEqual(expect.any(String));
    }

    // All of them are on the Status page's list.
    const list = (await api("GET", "/api/health/components")).body.components as Array<{
      id: string;
      kind: string;
      state: string;
    }>;
    const upIds = new Set(Object.values(up));
    for (const [kind, id] of [...Object.entries(up), ...down])
      expect(list.find((c) => c.id === id)).toMatchObject({ kind, state: upIds.has(id) ? "up" : "down" });
  });

  it("tries a grant's credentials once however often it is checked, until the grant changes: then 429 with Retry-After", async () => {
    const idm = await countingIdentityManager();
    closers.push(() => idm.close());
    const idmId = await create("identity-managers", {
      name: "Locking Keyrock",
      scheme: "http",
      host: "127.0.0.1",
      port: Number(new URL(idm.url).port),
      oauth2TokenPath: "/oauth2/token",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    });
    const grantFields = {
      name: "Admin's password",
      hasIdentityManager: idmId,
      grantType: "password",
      clientId: "orrery-app",
      clientSecret: "app-secret",
      username: "admin@test.com",
      password: "wrong-password",
    };
    const grant = await create("identity-manager-grants", grantFields);
    // Twenty clicks at once (an operator, a script): one sign-in.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => check("identity-manager-grants", grant, { "accept-language": "fr" })),
    );
    expect(idm.signIns()).toBe(1);
    const checked = answers.filter((a) => a.status === 200);
    expect(checked).toHaveLength(1);
    expect(checked[0]!.body.state).toBe("down");
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers["retry-after"])).toBeLessThanOrEqual(30);
      expect(r.body.code).toBe("health.grantCheckTooSoon");
      expect(r.body.detail).toContain(
        "Les identifiants de Admin's password ont été essayés il y a moins de 30\u00a0s",
      );
    }
    const english = await check("identity-manager-grants", grant);
    expect(english.status).toBe(429);
    expect(english.body.detail).toMatch(
      /^The credentials of Admin's password were tried less than 30 s ago: to spare its account, they are tried again in \d+ s at the earliest\./,
    );
    // "Check all" keeps the grant's last result rather than signing in again.
    const all = await api("POST", "/api/health/components");
    expect(all.status).toBe(200);
    expect(all.body.components.find((c: { id: string }) => c.id === grant)).toMatchObject({
      state: "down",
      checkedAt: checked[0]!.body.checkedAt,
    });
    expect(idm.signIns()).toBe(1);
    // The password typed again: its check runs at once.
    const edited = await api("PUT", `/api/identity-manager-grants/${encodeURIComponent(grant)}`, {
      ...grantFields,
      password: "new-password",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await check("identity-manager-grants", grant)).status).toBe(200);
    expect(idm.signIns()).toBe(2);
  });

  it("lists every registered component with its last result, and checks them all on demand", async () => {
    const viewer = client(t, await t.tokenFor("viewer"));
    const before = await viewer("GET", "/api/health/components");
    expect(before.status).toBe(200);
    expect(before.body.intervalSeconds).toBe(0);
    const names = before.body.components.map((c: { name: string }) => c.name);
    expect(names).toEqual(
      expect.arrayContaining(["Embedded", "Closed", "Keyrock", "Registry", "Good grant"]),
    );
    const temporal = await create("temporal-services", {
      name: "Broker history",
      temporalServiceType: "ngsi-ld",
    });
    const all = await api("POST", "/api/health/components");
    expect(all.status).toBe(200);
    const byName = (name: string) => all.body.components.find((c: { name: string }) => c.name === name);
    expect(byName("Embedded").state).toBe("up");
    expect(byName("Closed").state).toBe("down");
    expect(byName("Broker history")).toMatchObject({ id: temporal, state: "notApplicable" });
    const one = await viewer("GET", `/api/health/context-brokers/${encodeURIComponent(byName("Closed").id)}`);
    expect(one.body).toMatchObject({ state: "down", checkedAt: byName("Closed").checkedAt });
  });

  it("pages the components down first with their total, and counts each kind's states in a summary", async () => {
    // Two brokers down whose names hold regular expression bytes, one never checked.
    const downIds = [
      await create("context-brokers", brokerFields("Down .*+?(|\\ one", await freePort())),
      await create("context-brokers", brokerFields("Down .*+?(|\\ two", await freePort())),
    ];
    for (const id of downIds) expect((await check("context-brokers", id)).body.state).toBe("down");
    const unchecked = await create("context-brokers", brokerFields("Never checked", await freePort()));
    const viewer = client(t, await t.tokenFor("viewer"));
    const whole = (await viewer("GET", "/api/health/components")).body.components as Array<{
      id: string;
      kind: string;
      state: string;
    }>;
    const rank = ["down", "unchecked", "up", "notApplicable"];

    const pages: typeof whole = [];
    for (let offset = 0; ; offset += 2) {
      const page = await viewer("GET", `/api/health/components?limit=2&offset=${offset}`, undefined, {
        "accept-language": "fr",
      });
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ intervalSeconds: 0, timeoutSeconds: 1, total: whole.length });
      expect(page.body.components.length).toBeLessThanOrEqual(2);
      if (!page.body.components.length) break;
      pages.push(...page.body.components);
    }
    // Every component once, the same as in the whole list, down first.
    expect(pages.map((c) => c.id).sort()).toEqual(whole.map((c) => c.id).sort());
    const ranks = pages.map((c) => rank.indexOf(c.state));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const down = pages.filter((c) => c.state === "down");
    expect(down.map((c) => c.id)).toEqual(expect.arrayContaining(downIds));
    // Reasons in the reader's language, as the whole list writes them.
    expect(pages.find((c) => c.id === downIds[0])).toMatchObject({
      name: "Down .*+?(|\\ one",
      reasons: [{ code: "health.refused", message: expect.stringMatching(/^La connexion a été refusée/) }],
    });
    expect(pages.find((c) => c.id === unchecked)).toMatchObject({ state: "unchecked", checkedAt: null });
    // The first page holds the first down ones: what the Status page shows at once.
    const first = await viewer("GET", "/api/health/components?limit=1");
    expect(first.body.components[0].state).toBe("down");

    const summary = await viewer("GET", "/api/health/summary");
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({
      intervalSeconds: 0,
      timeoutSeconds: 1,
      total: whole.length,
      down: down.length,
    });
    const counted = (kind: string, state: string) =>
      whole.filter((c) => c.kind === kind && c.state === state).length;
    for (const row of summary.body.kinds)
      for (const state of rank) expect(row[state], `${row.kind} ${state}`).toBe(counted(row.kind, state));
    // Kinds in the API's order, those with components only.
    expect(summary.body.kinds.map((k: { kind: string }) => k.kind).sort()).toEqual(
      [...new Set(whole.map((c) => c.kind))].sort(),
    );
    expect(summary.body.kinds[0].kind).toBe("context-brokers");

    for (const bad of ["limit=0", "limit=abc", "limit=100000", "offset=-1", "limit=.*%2B%3F(%7C%5C"]) {
      const refused = await viewer("GET", `/api/health/components?${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
  });

  it("lets operators and admins check, viewers only read; answers problem+json on a bad target", async () => {
    const viewer = client(t, await t.tokenFor("viewer"));
    expect((await viewer("POST", "/api/health/components")).status).toBe(403);
    const operator = client(t, await t.tokenFor("operator"));
    const list = (await operator("GET", "/api/health/components")).body.components;
    const embedded = list.find((c: { name: string }) => c.name === "Embedded");
    expect((await operator("POST", `/api/health/context-brokers/${embedded.id}`)).status).toBe(200);
    const unknown = await api(
      "POST",
      "/api/health/context-brokers/urn:ngsi-ld:ContextBroker:nope",
      undefined,
      {
        "accept-language": "fr",
      },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const hostile = await api("POST", `/api/health/context-brokers/${encodeURIComponent("urn:x:.*+?(|\\")}`);
    expect(hostile.status).toBe(404);
    expect(hostile.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const badKind = await api("POST", "/api/health/services/urn:ngsi-ld:Service:1");
    expect(badKind.status).toBe(400);
    expect(badKind.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("forgets the result of a broker's old address once the address is edited, on its page and the Status page", async () => {
    const closed = await freePort();
    const id = await create("context-brokers", brokerFields("Moved", closed));
    expect((await check("context-brokers", id)).body.state).toBe("down");
    const read = async () => (await api("GET", `/api/health/context-brokers/${encodeURIComponent(id)}`)).body;
    expect(await read()).toMatchObject({ state: "down", reasons: [{ code: "health.refused" }] });
    const moved = await api(
      "PUT",
      `/api/context-brokers/${id}`,
      brokerFields("Moved", Number(new URL(base).port), { implementationName: "orrery" }),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const unchecked = { state: "unchecked", reasons: [], roundTripMs: null, version: null, checkedAt: null };
    expect(await read()).toMatchObject(unchecked);
    const listed = (await api("GET", "/api/health/components")).body.components;
    expect(listed.find((c: { id: string }) => c.id === id)).toMatchObject(unchecked);
    // The next check is of the new address.
    expect((await check("context-brokers", id)).body.state).toBe("up");
    expect(await read()).toMatchObject({ state: "up", reasons: [] });
  });

  it("forgets a removed component", async () => {
    const id = await create("context-brokers", brokerFields("Short-lived", await freePort()));
    await check("context-brokers", id);
    expect((await api("DELETE", `/api/context-brokers/${id}`)).status).toBe(204);
    const list = (await api("GET", "/api/health/components")).body.components;
    expect(list.find((c: { id: string }) => c.id === id)).toBeUndefined();
  });

  it("lets one process among several take a component's background check", async () => {
    const db = t.storage.db;
    const id = await create("context-brokers", brokerFields("Claimed", await freePort()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const first = await claimDue(db, ["context-brokers"], 0.01);
    expect(first.map((c) => c.id)).toContain(id);
    // Another process asking within the interval gets nothing to do.
    expect(await claimDue(db, ["context-brokers"], 60)).toEqual([]);
  });
});

describe(`background checks (${driver})`, () => {
  it("shows a component that goes down within one interval", async () => {
    const port = await freePort();
    const bg = await startTestApp({
      PORT: String(port),
      HEALTH_CHECK_INTERVAL_SECONDS: "1",
      HEALTH_CHECK_TIMEOUT_SECONDS: "1",
    });
    const admin = client(bg, await bg.tokenFor("admin"));
    try {
      const peer = await slowOrionLd(0);
      const made = await admin(
        "POST",
        "/api/context-brokers",
        brokerFields("Watched", Number(new URL(peer.url).port)),
      );
      const stateNow = async () =>
        (await admin("GET", "/api/health/components")).body.components.find(
          (c: { id: string }) => c.id === made.body.id,
        );
      const until = async (state: string, ms: number) => {
        const deadline = Date.now() + ms;
        for (;;) {
          const current = await stateNow();
          if (current?.state === state || Date.now() > deadline) return current;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      expect((await until("up", 5_000))?.state).toBe("up");
      await peer.close();
      // The interval is 1 s: the page shows it down within a few seconds, without any request to check.
      const down = await until("down", 5_000);
      expect(down?.state).toBe("down");
      expect(down.reasons[0].code).toBe("health.refused");
    } finally {
      await bg.close();
    }
  });

  it("keeps the results of many background checks in a few statements, not one per check", async () => {
    const bg = await startTestApp({
      HEALTH_CHECK_INTERVAL_SECONDS: "60",
      HEALTH_CHECK_TIMEOUT_SECONDS: "1",
    });
    const admin = client(bg, await bg.tokenFor("admin"));
    try {
      // Registered before the first tick (the app checks once it listens): brokers at closed ports.
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const made = await admin(
          "POST",
          "/api/context-brokers",
          brokerFields(`Closed ${i} .*+?(|\\`, await freePort()),
        );
        expect(made.status).toBe(201);
        ids.push(made.body.id);
      }
      const db = bg.storage.db;
      const execute = db.execute.bind(db);
      let resultWrites = 0;
      db.execute = ((query: Parameters<typeof execute>[0]) => {
        const text = JSON.stringify(query);
        if (/INSERT INTO component_health/.test(text) && /checked_at/.test(text)) resultWrites++;
        return execute(query);
      }) as typeof db.execute;
      await bg.app.listen({ port: 0, host: "127.0.0.1" });
      const deadline = Date.now() + 20_000;
      let listed: Array<{ id: string; state: string; reasons: Array<{ code: string }> }> = [];
      while (Date.now() < deadline) {
        listed = (await admin("GET", "/api/health/components")).body.components;
        if (ids.every((id) => listed.find((c) => c.id === id)?.state === "down")) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (const id of ids)
        expect(listed.find((c) => c.id === id)).toMatchObject({
          state: "down",
          reasons: [{ code: "health.refused" }],
        });
      // 40 results (and the embedded broker's) in at most a statement a second.
      expect(resultWrites).toBeGreaterThanOrEqual(1);
      expect(resultWrites).toBeLessThanOrEqual(5);
    } finally {
      await bg.close();
    }
  }, 60_000);

  it("signs a grant in at most once per 30 s, however short the interval", async () => {
    const idm = await countingIdentityManager();
    const bg = await startTestApp({
      HEALTH_CHECK_INTERVAL_SECONDS: "1",
      HEALTH_CHECK_TIMEOUT_SECONDS: "1",
    });
    const admin = client(bg, await bg.tokenFor("admin"));
    try {
      const idmId = (
        await admin("POST", "/api/identity-managers", {
          name: "Locking Keyrock",
          scheme: "http",
          host: "127.0.0.1",
          port: Number(new URL(idm.url).port),
          oauth2TokenPath: "/oauth2/token",
          implementationName: "keyrock",
          implementationVersion: "8.4.0",
        })
      ).body.id;
      const grant = await admin("POST", "/api/identity-manager-grants", {
        name: "Background password",
        hasIdentityManager: idmId,
        grantType: "password",
        clientId: "orrery-app",
        clientSecret: "app-secret",
        username: "admin@test.com",
        password: "wrong-password",
      });
      expect(grant.status).toBe(201);
      // Four background ticks of a 1 s interval.
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      const state = (await admin("GET", "/api/health/components")).body.components.find(
        (c: { id: string }) => c.id === grant.body.id,
      );
      expect(state.state).toBe("down");
      expect(idm.signIns()).toBe(1);
    } finally {
      await bg.close();
      await idm.close();
    }
  }, 60_000);

  it("shares the checks between two API processes on one database instead of doubling them", async () => {
    let asked = 0;
    const peer = await listen((_req, res, url) => {
      if (url.pathname === "/ngsi-ld/v1/types") asked++;
      sendJson(res, 200, []);
    });
    const dataDir = mkdtempSync(join(tmpdir(), "orrery-health-"));
    const { storage, drop } = await openTestStorage(dataDir);
    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        PORT: "0",
        LOG_LEVEL: "warn",
        HEALTH_CHECK_INTERVAL_SECONDS: "4",
        HEALTH_CHECK_TIMEOUT_SECONDS: "1",
      },
      ["--no-demo"],
    );
    const processes = [await buildApp(config, storage), await buildApp(config, storage)];
    try {
      await processes[0]!.records.create(
        contextBrokers,
        brokerFields("Shared", Number(new URL(peer.url).port)),
      );
      await Promise.all(processes.map((p) => p.app.ready()));
      // About six seconds: each process ticks every second; one process alone checks at 0 s and
      // between 3 and 4 s, two uncoordinated ones would check twice as often.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(asked).toBeLessThanOrEqual(3);
    } finally {
      for (const p of processes) await p.app.close();
      await storage.close();
      await drop();
      await peer.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
