import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrokerClientKeys, issueKey } from "../src/pep/broker-clients.ts";
import { rowsOf } from "../src/storage/database.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

// Broker clients (issue 35): machines with a key of their own for the embedded broker, made by an
// admin, shown once, kept hashed, revocable; the policy enforcement point finds a key's grant.

let t: TestApp;
let admin: ReturnType<typeof client>;
/** Every answer's raw body: no key may be in any but the one that issued it. */
const answers: string[] = [];
beforeAll(async () => {
  t = await startTestApp();
  const call = client(t, await t.tokenFor("admin"));
  admin = async (...args: Parameters<typeof call>) => {
    const res = await call(...args);
    answers.push(res.raw);
    return res;
  };
});
afterAll(() => t.close());

let n = 0;
const create = async (patch: Record<string, unknown> = {}) => {
  const res = await admin("POST", "/api/broker-clients", {
    name: `IoT agent ${++n}`,
    tenants: ["", "supermarket"],
    access: "write",
    ...patch,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
};
const stored = async (id: string) =>
  rowsOf<{ key_hash: string }>(
    await t.storage.db.execute(sql`SELECT key_hash FROM broker_client_keys WHERE client_id = ${id}`),
  );

describe(`broker clients (${driver})`, () => {
  it("answers a create with the key, once: no read returns it and only its SHA-256 is stored", async () => {
    const created = await create({ description: "Counts the shelves" });
    const { key, ...item } = created.body;
    expect(key).toMatch(/^obk_[A-Za-z0-9_-]{43}$/);
    expect(item).toMatchObject({
      name: expect.stringMatching(/^IoT agent/),
      tenants: ["", "supermarket"],
      access: "write",
      revoked: false,
      keyIssuedAt: expect.any(Number),
    });
    expect(created.headers.etag).toBe('"1"');

    const shown = await admin("GET", `/api/broker-clients/${item.id}`);
    expect(shown.body).toEqual(item);
    const listed = await admin("GET", "/api/broker-clients");
    expect(listed.body).toContainEqual(item);
    for (const raw of [shown.raw, listed.raw]) expect(raw).not.toContain(key.slice(4));

    const [row] = await stored(item.id);
    expect(row!.key_hash).not.toBe(key);
    expect(row!.key_hash).toBe(createHash("sha256").update(key).digest("base64url"));
    const record = JSON.stringify(
      rowsOf(await t.storage.db.execute(sql`SELECT * FROM records WHERE id = ${item.id}`)),
    );
    expect(record).not.toContain(key.slice(4));
    expect(record).not.toContain(row!.key_hash);
  });

  it("gives the policy enforcement point the grant of a key, and nothing for any other credential", async () => {
    const { key, id, name } = (await create()).body;
    expect(await t.brokerClientKeys.find(key)).toEqual({
      id,
      name,
      tenants: ["", "supermarket"],
      access: "write",
    });
    expect(await t.brokerClientKeys.find(issueKey().key)).toBeUndefined();
    expect(await t.brokerClientKeys.find(`${key}x`)).toBeUndefined();
    expect(await t.brokerClientKeys.find(await t.tokenFor("admin"))).toBeUndefined();
    expect(await t.brokerClientKeys.find("")).toBeUndefined();
  });

  it("applies a changed scope at once, and refuses a replaced or revoked key at once", async () => {
    const created = (await create()).body;
    const { id, key } = created;
    expect(await t.brokerClientKeys.find(key)).toMatchObject({ access: "write" }); // now cached

    const { key: _k, id: _i, ...writable } = created;
    const narrowed = await admin(
      "PUT",
      `/api/broker-clients/${id}`,
      { ...writable, tenants: ["parking"], access: "read" },
      { "if-match": '"1"' },
    );
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(await t.brokerClientKeys.find(key)).toMatchObject({ tenants: ["parking"], access: "read" });

    const renewed = await admin("POST", `/api/broker-clients/${id}/key`, undefined, { "if-match": '"2"' });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.headers.etag).toBe('"3"');
    const fresh = renewed.body.key as string;
    expect(fresh).toMatch(/^obk_/);
    expect(fresh).not.toBe(key);
    expect(await t.brokerClientKeys.find(key)).toBeUndefined();
    expect(await t.brokerClientKeys.find(fresh)).toMatchObject({ id, tenants: ["parking"] });
    // The new key is shown once too.
    expect((await admin("GET", `/api/broker-clients/${id}`)).raw).not.toContain(fresh.slice(4));

    const revoked = await admin("POST", `/api/broker-clients/${id}/revoke`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ id, revoked: true, revokedAt: expect.any(Number) });
    expect(revoked.body).not.toHaveProperty("key");
    expect(await t.brokerClientKeys.find(fresh)).toBeUndefined();
    expect(await stored(id)).toEqual([]);

    // The record stays, for the record; a revoked client gets no key again.
    const kept = await admin("GET", `/api/broker-clients/${id}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ revoked: true });
    for (const action of ["key", "revoke"]) {
      const again = await admin("POST", `/api/broker-clients/${id}/${action}`);
      expect(again.status).toBe(409);
      expect(again.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(again.body.detail).toContain("revoked");
    }
    // An update cannot make it active again.
    const { key: _k2, id: _i2, ...rest } = kept.body;
    const edited = await admin("PUT", `/api/broker-clients/${id}`, { ...rest, revoked: false });
    expect(edited.status).toBe(200);
    expect(edited.body.revoked).toBe(true);
    expect(await stored(id)).toEqual([]);
  });

  it("refuses a stale If-Match with 412, and forgets the key of a deleted client", async () => {
    const { id, key } = (await create()).body;
    const stale = await admin("POST", `/api/broker-clients/${id}/key`, undefined, { "if-match": '"7"' });
    expect(stale.status).toBe(412);
    expect(await t.brokerClientKeys.find(key)).toMatchObject({ id });
    expect(
      (await admin("POST", `/api/broker-clients/${id}/revoke`, undefined, { "if-match": '"7"' })).status,
    ).toBe(412);
    expect((await admin("DELETE", `/api/broker-clients/${id}`)).status).toBe(204);
    expect(await t.brokerClientKeys.find(key)).toBeUndefined();
    expect(await stored(id)).toEqual([]);
    expect((await admin("POST", `/api/broker-clients/${id}/key`)).status).toBe(404);
  });

  it("lets another process see a revocation within its cache time, and never caches an unknown key", async () => {
    const other = new BrokerClientKeys(t.storage.db, { cacheMs: 200 });
    const { id, key } = (await create()).body;
    expect(await other.find(key)).toMatchObject({ id });
    expect((await admin("POST", `/api/broker-clients/${id}/revoke`)).status).toBe(200);
    expect(await other.find(key)).toMatchObject({ id }); // its cache, not yet expired
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await other.find(key)).toBeUndefined();

    // A key asked before it existed is found as soon as it does.
    const later = (await create()).body;
    const { key: next, keyHash } = issueKey();
    expect(await other.find(next)).toBeUndefined();
    await t.storage.db.execute(
      sql`UPDATE broker_client_keys SET key_hash = ${keyHash} WHERE client_id = ${later.id}`,
    );
    expect(await other.find(next)).toMatchObject({ id: later.id });
  });

  it("records create, new key and revoke in the audit trail, the key only as changed", async () => {
    const created = (await create()).body;
    const renewed = (await admin("POST", `/api/broker-clients/${created.id}/key`)).body;
    await admin("POST", `/api/broker-clients/${created.id}/revoke`);
    const trail = await admin("GET", `/api/audit?record=${encodeURIComponent(created.id)}`);
    expect(trail.status).toBe(200);
    const events = [...trail.body.items].reverse();
    expect(events.map((e: { action: string }) => e.action)).toEqual(["create", "update", "update"]);
    expect(events[0].changes).toEqual(
      expect.arrayContaining([
        { field: "name", after: created.name },
        { field: "tenants", after: ["", "supermarket"] },
        { field: "key", secret: true },
      ]),
    );
    // (keyIssuedAt is listed too when the second has changed since the create.)
    expect(events[1].changes).toContainEqual({ field: "key", secret: true });
    expect(events[2].changes).toEqual(
      expect.arrayContaining([{ field: "revoked", before: false, after: true }]),
    );
    for (const key of [created.key, renewed.key]) {
      expect(trail.raw).not.toContain(key.slice(4));
      expect(t.logs.join("\n")).not.toContain(key.slice(4));
    }
    const trailRows = JSON.stringify(
      rowsOf(await t.storage.db.execute(sql`SELECT * FROM audit_trail WHERE record_id = ${created.id}`)),
    );
    for (const key of [created.key, renewed.key]) expect(trailRows).not.toContain(key.slice(4));
  });

  it("answers bad input with 400 problem+json naming each field, and a second name with 409", async () => {
    const bad = await admin("POST", "/api/broker-clients", {
      name: "Bad",
      tenants: ["super market", "parking", "parking"],
      access: "admin",
    });
    expect(bad.status).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const paths = bad.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(["access", "tenants.0", "tenants.2"]);
    expect(bad.body.errors.find((e: { path: string }) => e.path === "tenants.2").message).toBe(
      '"parking" is given twice',
    );

    const french = await client(t, await t.tokenFor("admin"))(
      "POST",
      "/api/broker-clients",
      { name: "Bad", tenants: ["parking", "parking"] },
      { "accept-language": "fr" },
    );
    expect(french.body.errors).toEqual([
      expect.objectContaining({ path: "tenants.1", message: "« parking » est donné deux fois" }),
    ]);

    const empty = await admin("POST", "/api/broker-clients", { name: "No tenant", tenants: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([expect.objectContaining({ path: "tenants", code: "field.required" })]);
    const key = await admin("POST", "/api/broker-clients", {
      name: "Own key",
      tenants: [""],
      key: "obk_mine",
    });
    expect(key.status).toBe(400);

    const first = await create({ name: "Twin" });
    const twin = await admin("POST", "/api/broker-clients", { name: "Twin", tenants: [""] });
    expect(twin.status).toBe(409);
    expect(twin.body.errors).toEqual([
      expect.objectContaining({ path: "name", code: "conflict.brokerClientName" }),
    ]);
    // The refused create left no key behind.
    const keys = rowsOf<{ n: number }>(
      await t.storage.db.execute(sql`SELECT count(*)::int AS n FROM broker_client_keys`),
    );
    const clients = (await admin("GET", "/api/broker-clients")).body.filter(
      (c: { revoked: boolean }) => !c.revoked,
    );
    expect(keys[0]!.n).toBe(clients.length);
    expect(first.body.name).toBe("Twin");
  });

  it.each(["viewer", "operator", "showroom"])(
    "refuses every broker-clients route to the %s (403)",
    async (role) => {
      const { id, key } = (await create()).body;
      const api = client(t, await t.tokenFor(role));
      const routes = t.routes.filter((r) => r.url.startsWith("/api/broker-clients"));
      expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
        "DELETE /api/broker-clients/:id",
        "GET /api/broker-clients",
        "GET /api/broker-clients/:id",
        "GET /api/broker-clients/:id/delete-check",
        "POST /api/broker-clients",
        "POST /api/broker-clients/:id/key",
        "POST /api/broker-clients/:id/revoke",
        "PUT /api/broker-clients/:id",
      ]);
      for (const route of routes) {
        const res = await api(
          route.method,
          route.url.replace(":id", id),
          ["POST", "PUT"].includes(route.method) &&
            !route.url.endsWith("key") &&
            !route.url.endsWith("revoke")
            ? { name: "Taken over", tenants: [""], access: "write" }
            : undefined,
        );
        expect(res.status, `${route.method} ${route.url}`).toBe(403);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      }
      // Nothing changed: the record is at its first version and its key works as it did.
      const after = await admin("GET", `/api/broker-clients/${id}`);
      expect(after.headers.etag).toBe('"1"');
      expect(after.body.revoked).toBe(false);
      expect(await t.brokerClientKeys.find(key)).toMatchObject({ id, access: "write" });
    },
  );
});
