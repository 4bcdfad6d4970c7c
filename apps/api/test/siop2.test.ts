import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/fakes/browser.ts";
import { startFakeVerifier, type FakeVerifier } from "../../../test/fakes/vc-verifier.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

// SIOP-2 login to a workspace over real HTTP: a fake FIWARE VC verifier shows the login page of a
// state, calls the API back server to server with a code, and exchanges the code for a token when
// the console's poll asks for it.

let t: TestApp;
let base: string;
let verifier: FakeVerifier;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: base });
  await t.app.listen({ port, host: "127.0.0.1" });
  verifier = await startFakeVerifier();
  const api = client(t, await t.tokenFor("admin"));
  const ok = async (path: string, body: unknown) => {
    const res = await api("POST", path, body);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const broker = await ok(
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const vc = await ok("/api/vc-verifiers", {
    ...samplePayload("vc-verifiers", () => ""),
    scheme: "http",
    host: "127.0.0.1",
    port: Number(new URL(verifier.url).port),
  });
  const til = await ok(
    "/api/trusted-issuers-lists",
    samplePayload("trusted-issuers-lists", () => ""),
  );
  const siop2 = await ok("/api/services", {
    name: "Gateway",
    hasContextBroker: broker,
    authorizationRequired: true,
    authorizationMode: "siop2",
    hasVCVerifier: vc,
    hasTrustedIssuersList: til,
    clientId: "market-gateway",
  });
  const open = await ok("/api/services", { name: "Open", hasContextBroker: broker });
  ids.siop2 = await ok("/api/workspaces", { name: "Gated", dataModelName: "gated", hasService: siop2 });
  ids.open = await ok("/api/workspaces", { name: "Open", dataModelName: "open", hasService: open });
});

afterAll(async () => {
  await verifier?.close();
  await t?.close();
});

const poll = (state: string, workspaceId = ids.siop2!) =>
  fetch(`${base}/api/siop2/poll?${new URLSearchParams({ state, workspaceId })}`);

describe(`SIOP-2 login (${driver})`, () => {
  it("answers 503 until the verifier calls back, then the access token once, without a login", async () => {
    const state = randomBytes(16).toString("hex");
    expect((await poll(state)).status).toBe(503);
    // The console's popup: the verifier's login page for this state, the callback being Orrery's.
    const page = await fetch(
      `${verifier.url}/api/v1/loginQR?${new URLSearchParams({ state, client_id: "market-gateway", client_callback: `${base}/api/siop2/callback` })}`,
    );
    expect(page.status).toBe(200);
    expect((await poll(state)).status).toBe(503);
    expect(await verifier.present(state)).toBe(204);
    const answer = await poll(state);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await answer.text()).toBe(verifier.issued[0]);
    // Single use.
    expect((await poll(state)).status).toBe(503);
    expect(JSON.stringify(t.logs)).not.toContain(verifier.issued[0]);
  });

  it("refuses a workspace that is not in SIOP-2 mode, and a callback without a code", async () => {
    const open = await poll("abc", ids.open);
    expect(open.status).toBe(400);
    expect(((await open.json()) as { code: string }).code).toBe("siop2.notSiop2");
    expect((await fetch(`${base}/api/siop2/callback?state=abc`)).status).toBe(400);
    expect((await poll("abc", "urn:ngsi-ld:Workspace:none")).status).toBe(404);
  });

  it("says when the verifier refuses the code", async () => {
    const state = randomBytes(16).toString("hex");
    // A code the verifier never issued, sent to the callback by someone who knows the state.
    expect((await fetch(`${base}/api/siop2/callback?state=${state}&code=forged`)).status).toBe(204);
    const refused = await poll(state);
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { code: string }).code).toBe("siop2.refused");
  });
});
