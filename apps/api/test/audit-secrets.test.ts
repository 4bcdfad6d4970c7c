import type { IncomingHttpHeaders } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, sendJson, type Listening } from "../../../test/fakes/http.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { rowsOf } from "../src/storage/database.ts";
import { migrate } from "../src/storage/migrations.ts";
import { client, driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

/** A broker that answers registrations and types, and keeps the headers of each request. */
let fake: Listening;
const seen: IncomingHttpHeaders[] = [];
beforeAll(async () => {
  fake = await listen((req, res) => {
    seen.push(req.headers);
    sendJson(res, 200, [], { "content-type": "application/json" });
  });
});
afterAll(() => fake?.close());

const secret = "Bearer s3cr3t.*+?(|\\";
const broker = (name: string, customHeaders?: Record<string, unknown>) => {
  const url = new URL(fake.url);
  return {
    name,
    scheme: "http",
    host: url.hostname,
    port: Number(url.port),
    multiTenancyEnabled: false,
    paginationMaxLimit: 1000,
    implementationName: "orion-ld",
    implementationVersion: "1.5.1",
    ...(customHeaders ? { customHeaders } : {}),
  };
};

/** The headers the broker received on a call through the API (its registrations). */
async function sentTo(id: string) {
  seen.length = 0;
  const res = await ctx.api("GET", `/api/context-brokers/${id}/registrations`);
  expect(res.status, res.raw).toBe(200);
  return seen.at(-1)!;
}

/** Everything stored about a record, as text: its row and the whole trail about it. */
async function stored(id: string) {
  const rows = await ctx.t.storage.db.execute(
    sql`SELECT (SELECT to_jsonb(r) FROM records r WHERE r.id = ${id})::text AS row,
               (SELECT jsonb_agg(to_jsonb(a)) FROM audit_trail a WHERE a.record_id = ${id})::text AS trail`,
  );
  return rowsOf<{ row: string | null; trail: string | null }>(rows)[0]!;
}

describe(`a broker's custom headers are secrets (${driver})`, () => {
  it("never returns or records their values, keeps them on `{ set: true }`, and sends them to the broker", async () => {
    const made = await ctx.api(
      "POST",
      "/api/context-brokers",
      broker("With a key", { Authorization: secret, "X-Api-Key": "key-1" }),
    );
    expect(made.status, made.raw).toBe(201);
    const id = made.body.id as string;
    const shown = { Authorization: { set: true }, "X-Api-Key": { set: true } };
    expect(made.body.customHeaders).toEqual(shown);
    for (const role of ["admin", "viewer", "showroom"]) {
      const reader = client(ctx.t, await ctx.t.tokenFor(role));
      for (const url of ["/api/context-brokers", `/api/context-brokers/${id}`]) {
        const res = await reader("GET", url);
        if (res.status !== 200) continue;
        expect(res.raw, `${role} ${url}`).not.toContain("s3cr3t");
        expect(res.raw).not.toContain("key-1");
      }
    }
    expect((await ctx.api("GET", `/api/context-brokers/${id}`)).body.customHeaders).toEqual(shown);
    let headers = await sentTo(id);
    expect(headers.authorization).toBe(secret);
    expect(headers["x-api-key"]).toBe("key-1");

    // The console sends back what it read, with one value typed again: the other is kept.
    const item = (await ctx.api("GET", `/api/context-brokers/${id}`)).body;
    const { id: _, ...body } = item;
    const updated = await ctx.api("PUT", `/api/context-brokers/${id}`, {
      ...body,
      customHeaders: { Authorization: { set: true }, "X-Api-Key": "key-2" },
    });
    expect(updated.status, updated.raw).toBe(200);
    expect(updated.body.customHeaders).toEqual(shown);
    headers = await sentTo(id);
    expect(headers.authorization).toBe(secret);
    expect(headers["x-api-key"]).toBe("key-2");
    // Unchanged values: not said to have changed.
    expect((await ctx.api("PUT", `/api/context-brokers/${id}`, { ...body, port: 1 })).status).toBe(200);
    expect((await ctx.api("PUT", `/api/context-brokers/${id}`, body)).status).toBe(200);

    // `{ set: true }` for a header that has no value: a sentence, nothing written.
    const unknown = await ctx.api("PUT", `/api/context-brokers/${id}`, {
      ...body,
      customHeaders: { "X-Other": { set: true } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(unknown.body)).toMatch(/X-Other/);

    const trail = await ctx.api("GET", `/api/audit?record=${encodeURIComponent(id)}`);
    const changes = trail.body.items.map((e: { action: string; changes: unknown }) => [e.action, e.changes]);
    expect(changes[0]).toEqual([
      "update",
      [{ field: "port", before: 1, after: Number(new URL(fake.url).port) }],
    ]);
    expect(changes[2]).toEqual(["update", [{ field: "customHeaders", secret: true }]]);
    expect(changes[3][1]).toContainEqual({ field: "customHeaders", after: shown });
    const all = await stored(id);
    for (const text of [trail.raw, all.row, all.trail]) {
      expect(text).not.toContain("s3cr3t");
      expect(text).not.toMatch(/key-[12]/);
    }

    // The spec's console drops the map when it is emptied: the headers go.
    const { customHeaders: _emptied, ...withoutHeaders } = body;
    const emptied = await ctx.api("PUT", `/api/context-brokers/${id}`, withoutHeaders);
    expect(emptied.status).toBe(200);
    expect(emptied.body.customHeaders).toBeUndefined();
    headers = await sentTo(id);
    expect(headers.authorization).toBeUndefined();
    expect(headers["x-api-key"]).toBeUndefined();
  });

  it("moves the values stored before into the secrets and scrubs them from the past trail (migration 0021)", async () => {
    const db = ctx.t.storage.db;
    const made = await ctx.api("POST", "/api/context-brokers", broker("Stored before"));
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const before = { Authorization: secret, "X-Api-Key": "key-old" };
    // As a database of the version before kept them: values in the data, in the trail verbatim.
    await db.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`);
    try {
      await db.execute(sql`ALTER TABLE records DISABLE TRIGGER records_create_event`);
      await db.execute(
        sql`UPDATE records SET data = data || jsonb_build_object('customHeaders', ${JSON.stringify(before)}::jsonb) WHERE id = ${id}`,
      );
      await db.execute(sql`ALTER TABLE records ENABLE TRIGGER records_create_event`);
      await db.execute(
        sql`INSERT INTO audit_events (subject, username, provider, action, kind, record_id, title, changes, created)
            VALUES ('old', 'old', 'test', 'update', 'context-brokers', ${id}, 'Stored before',
                    ${JSON.stringify([
                      { field: "customHeaders", after: before },
                      { field: "port", before: 1, after: 2 },
                    ])}::jsonb, NULL),
                   ('old', 'old', 'test', 'create', 'context-brokers', ${id}, 'Stored before', NULL,
                    ${JSON.stringify({ name: "Stored before", customHeaders: before })}::jsonb)`,
      );
      expect((await stored(id)).trail).toContain("s3cr3t");
      await db.execute(sql`DELETE FROM orrery_migrations WHERE name = '0021_custom_header_secrets'`);
      await migrate(db);
    } finally {
      await db.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`);
    }
    // An API that starts on it seals the values with its key.
    const config = loadConfig({ DATA_DIR: ctx.t.dataDir, LOG_LEVEL: "silent" }, ["--no-demo"]);
    const second = await buildApp(config, ctx.t.storage);
    await second.app.ready();
    await second.app.close();
    const all = await stored(id);
    for (const text of [all.row, all.trail]) {
      expect(text).not.toContain("s3cr3t");
      expect(text).not.toContain("key-old");
    }
    expect(all.row).toMatch(/"customHeaders": "v1\./);
    const trail = (await ctx.api("GET", `/api/audit?record=${encodeURIComponent(id)}&user=old`)).body.items;
    // (Newest first: the create was inserted last.)
    expect(trail.map((e: { changes: unknown }) => e.changes)).toEqual([
      [
        { field: "name", after: "Stored before" },
        { field: "customHeaders", after: { Authorization: { set: true }, "X-Api-Key": { set: true } } },
      ],
      [
        { field: "customHeaders", after: { Authorization: { set: true }, "X-Api-Key": { set: true } } },
        { field: "port", before: 1, after: 2 },
      ],
    ]);
    expect((await ctx.api("GET", `/api/context-brokers/${id}`)).body.customHeaders).toEqual({
      Authorization: { set: true },
      "X-Api-Key": { set: true },
    });
    const headers = await sentTo(id);
    expect(headers.authorization).toBe(secret);
    expect(headers["x-api-key"]).toBe("key-old");
  });
});
