import { describe, expect, it, vi } from "vitest";
import { loadPolicy } from "../src/auth/policy.ts";
import { workspaceBroker, workspaceContextUrl } from "../src/context-data/broker-access.ts";
import { LIVE_MARK } from "../src/live/channels.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";
import { driver } from "./support/harness.ts";

// What one user may make the live channel hold (issue 35: one viewer opened 200 broker
// subscriptions with 200 HEAD requests on made-up types, and held 500 streams on one token).
// Small limits here, so that the caps show in a short test.

const ctx = useEmbeddedWorkspace({ LIVE_MAX_STREAMS_PER_USER: "4", LIVE_MAX_CHANNELS_PER_USER: "3" });

/** A token of a user of its own (the test harness's tokens all belong to one user). */
async function tokenOf(username: string, role = "viewer") {
  const policy = loadPolicy(ctx.t.config.permissionsFile);
  const session = await ctx.t.sessions.create({
    subject: username,
    username,
    provider: "test",
    permissions: policy.permissionsFor([role]),
    expiresAt: new Date(Date.now() + 3600_000),
  });
  return session.token;
}

async function marked() {
  const row = await ctx.t.records.requireWorkspace(ctx.workspace.id);
  const client = await workspaceBroker(ctx.t.records, row, {
    context: workspaceContextUrl(ctx.t.config, row),
  });
  // A tenant the broker has never written to has no subscriptions (404 NonexistentTenant).
  const all = await client.subscriptions().catch((err: { status?: number }) => {
    if (err.status === 404) return [];
    throw err;
  });
  return all.filter((s) => String(s.description ?? "").startsWith(LIVE_MARK));
}

const url = (query: string) => `${ctx.base}${ctx.path}/live/entities?${query}`;

/** Opens a Server-Sent Events stream; `close` ends it from the client's side. */
async function open(token: string, query = "type=Building", language = "en") {
  const stop = new AbortController();
  const res = await fetch(url(query), {
    headers: { accept: "text/event-stream", authorization: `Bearer ${token}`, "accept-language": language },
    signal: stop.signal,
  });
  if (res.status === 200) {
    const reader = res.body!.getReader();
    void reader.read().catch(() => undefined);
  }
  return { res, close: () => stop.abort() };
}

const head = (token: string, query: string) =>
  fetch(url(query), { method: "HEAD", headers: { authorization: `Bearer ${token}` } });

describe(`live channel bounds (${driver})`, () => {
  it("refuses a type the workspace's data model does not know, before any broker subscription is made", async () => {
    const token = await tokenOf("curious");
    const before = (await marked()).length;
    for (let i = 0; i < 20; i++) {
      const refused = await head(token, `type=MadeUp${i}`);
      expect(refused.status).toBe(404);
    }
    const told = await fetch(url("type=Invented"), {
      headers: { authorization: `Bearer ${token}`, "accept-language": "fr" },
    });
    expect(told.status).toBe(404);
    expect(told.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await told.json()).detail).toBe(
      "Le modèle de données de cet espace de travail n’a pas de type Invented\u00a0: il n’y a rien à écouter.",
    );
    expect((await marked()).length).toBe(before);
  });

  it("lets the listeners of one workspace and type share one broker subscription, whoever they are", async () => {
    const streams = [
      await open(await tokenOf("ann")),
      await open(await tokenOf("bob")),
      await open(await tokenOf("bob")),
    ];
    for (const s of streams) expect(s.res.status).toBe(200);
    const building = (await marked()).filter((s) =>
      JSON.stringify(s.entities).includes('"type":"Building"}'),
    );
    expect(building).toHaveLength(1);
    for (const s of streams) s.close();
  });

  it("caps a user's open streams, whatever the tokens: 429 with the cap in the sentence, and room again once one is closed", async () => {
    const tokens = [await tokenOf("eager"), await tokenOf("eager")];
    const held = [];
    for (let i = 0; i < 4; i++) {
      const s = await open(tokens[i % 2]!);
      expect(s.res.status).toBe(200);
      held.push(s);
    }
    const refused = await open(tokens[0]!);
    expect(refused.res.status).toBe(429);
    expect(refused.res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await refused.res.json()).detail).toBe(
      "You already hold 4 live streams, the most one user may: close one (a page or a long poll left open) before opening another.",
    );
    const inFrench = await open(tokens[1]!, "type=Building", "fr");
    expect(inFrench.res.status).toBe(429);
    expect((await inFrench.res.json()).detail).toContain("Vous tenez déjà 4 flux en direct");
    // Another user is not held back by this one.
    const other = await open(await tokenOf("patient"));
    expect(other.res.status).toBe(200);
    other.close();

    held.pop()!.close();
    await vi.waitFor(
      async () => {
        const again = await open(tokens[0]!);
        expect(again.res.status).toBe(200);
        held.push(again);
      },
      { timeout: 3_000 },
    );
    for (const s of held) s.close();
  });

  it("caps the distinct channels a user listens to: a long poll's HEAD handshake on one more is 429, no broker subscription made", async () => {
    const token = await tokenOf("collector");
    const before = (await marked()).length;
    for (const n of [1, 2, 3])
      expect((await head(token, `type=Building&id=urn:ngsi-ld:Building:c${n}`)).status).toBe(200);
    // The same channel again holds nothing more.
    expect((await head(token, "type=Building&id=urn:ngsi-ld:Building:c1")).status).toBe(200);
    expect((await head(token, "type=Building&id=urn:ngsi-ld:Building:c4")).status).toBe(429);
    const told = await fetch(url("type=Building&id=urn:ngsi-ld:Building:c5"), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(told.status).toBe(429);
    expect((await told.json()).detail).toBe(
      "You already listen to 3 different live channels, the most one user may: leave one before listening to another.",
    );
    expect((await marked()).length).toBe(before + 3);
  });
});
