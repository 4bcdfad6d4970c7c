import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contextBrokers } from "@orrery/model";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { rowsOf } from "../src/storage/database.ts";
import { client, driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

const ctx = useEmbeddedWorkspace();

const broker = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  scheme: "http",
  host: "broker.example.org",
  port: 1026,
  multiTenancyEnabled: false,
  paginationMaxLimit: 1000,
  implementationName: "orion-ld",
  implementationVersion: "1.5.1",
  ...extra,
});

/** The trail as an administrator reads it, newest first. */
async function trail(filters: Record<string, string>) {
  const res = await ctx.api("GET", `/api/audit?${new URLSearchParams(filters)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: Array<Record<string, any>>; next: string | null };
}

const count = async () =>
  rowsOf<{ n: number }>(await ctx.t.storage.db.execute(sql`SELECT count(*)::int AS n FROM audit_trail`))[0]!
    .n;

describe(`the audit trail (${driver})`, () => {
  it("records a create, an update with the fields changed (old and new) and a delete, once each", async () => {
    const { api } = ctx;
    const created = await api("POST", "/api/context-brokers", broker("Audited broker"));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const updated = await api("PUT", `/api/context-brokers/${id}`, broker("Audited broker", { port: 1027 }));
    expect(updated.status).toBe(200);
    expect((await api("DELETE", `/api/context-brokers/${id}`)).status).toBe(204);

    const { items } = await trail({ record: id });
    expect(items.map((e) => e.action)).toEqual(["delete", "update", "create"]);
    for (const e of items)
      expect(e).toMatchObject({
        subject: "test",
        username: "test",
        provider: "test",
        kind: "context-brokers",
        recordId: id,
        title: "Audited broker",
        workspaceId: "",
        outcome: "success",
      });
    expect(items[1]!.changes).toEqual([{ field: "port", before: 1026, after: 1027 }]);
    expect(items[2]!.changes).toContainEqual({ field: "host", after: "broker.example.org" });
    // The create's values as they were given, though the record changed since.
    expect(items[2]!.changes).toContainEqual({ field: "port", after: 1026 });
    expect(items[0]!.changes).toContainEqual({ field: "port", before: 1027 });
    expect(Date.now() - Date.parse(items[0]!.at)).toBeLessThan(60_000);
  });

  it("keeps a create's event, its place and its values, through any change of the record, ours or not", async () => {
    const { api, t } = ctx;
    const db = t.storage.db;
    const title = `Kept .*+?(|\\ '"`;
    const first = await api("POST", "/api/context-brokers", broker(title));
    const second = await api("POST", "/api/context-brokers", broker("Made after it"));
    expect([first.status, second.status]).toEqual([201, 201]);
    const id = first.body.id as string;
    const [created] = (await trail({ record: id })).items;
    expect(created).toMatchObject({ action: "create", title, username: "test", recordId: id });
    // Another client changes the row, then deletes it, straight in the database: the create's event
    // stays as it was, in its place among the others.
    await db.execute(sql`UPDATE records SET data = data || '{"port": 9}' WHERE id = ${id}`);
    await db.execute(sql`UPDATE records SET data = data || '{"port": 10}' WHERE id = ${id}`);
    expect((await trail({ record: id })).items).toEqual([created]);
    await db.execute(sql`DELETE FROM records WHERE id = ${id}`);
    expect((await trail({ record: id })).items).toEqual([created]);
    const newest = (await trail({ kind: "context-brokers", limit: "2" })).items;
    expect(newest.map((e) => e.title)).toEqual(["Made after it", title]);
    // A create made by nobody (the demo data, the trail off) has no event.
    const [unrecorded] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::int AS n FROM records r WHERE created_by IS NOT NULL
                             AND NOT EXISTS (SELECT 1 FROM audit_trail a WHERE a.record_id = r.id)`),
    );
    expect(unrecorded!.n).toBe(0);
  });

  it("leaves no audit row for a change that fails, and no change without its audit row", async () => {
    const { api, t } = ctx;
    const before = await count();
    const id = (await api("POST", "/api/context-brokers", broker("In use"))).body.id as string;
    const service = await api("POST", "/api/services", { name: "Uses it", hasContextBroker: id });
    expect(service.status).toBe(201);
    expect(await count()).toBe(before + 2);
    // Refused by the database or the rules: nothing changed, nothing recorded.
    expect((await api("DELETE", `/api/context-brokers/${id}`)).status).toBe(409);
    expect(
      (await api("PUT", `/api/context-brokers/${id}`, broker("In use"), { "if-match": '"9"' })).status,
    ).toBe(412);
    expect((await api("POST", "/api/services", { name: "x", hasContextBroker: "urn:nothing" })).status).toBe(
      400,
    );
    expect(await count()).toBe(before + 2);
    // The audit row cannot be written: the change is undone with it (same transaction). A create's
    // event is kept on its record's row until the record changes, an update's in audit_events.
    await t.storage.db.execute(
      sql`ALTER TABLE audit_events ADD CONSTRAINT audit_test_refuse CHECK (title <> 'Doomed')`,
    );
    await t.storage.db.execute(
      sql`ALTER TABLE records ADD CONSTRAINT audit_test_refuse CHECK (created_by->>'title' <> 'Doomed')`,
    );
    try {
      const token = await t.tokenFor("admin");
      const logged = t.logs.length;
      const doomed = await client(t, token)("POST", "/api/context-brokers", broker("Doomed"));
      expect(doomed.status).toBe(500);
      // The failed statement is logged with the database's reason, without the values it was
      // given (the record's data, its encrypted secrets, who made it), nor the session's token,
      // its hash or its permissions.
      const log = t.logs.slice(logged).join("");
      expect(log).toContain("audit_test_refuse");
      expect(log).toContain("Failed query");
      expect(log).not.toContain("Doomed");
      expect(log).not.toContain(createHash("sha256").update(token).digest("base64url"));
      expect(log).not.toContain(token);
      expect(log).not.toContain("permissions");
      const list = (await api("GET", "/api/context-brokers")).body as Array<{ name: string }>;
      expect(list.map((b) => b.name)).not.toContain("Doomed");
      const renamed = await api("PUT", `/api/context-brokers/${id}`, broker("Doomed"));
      expect(renamed.status).toBe(500);
      expect((await api("GET", `/api/context-brokers/${id}`)).body.name).toBe("In use");
    } finally {
      await t.storage.db.execute(sql`ALTER TABLE audit_events DROP CONSTRAINT audit_test_refuse`);
      await t.storage.db.execute(sql`ALTER TABLE records DROP CONSTRAINT audit_test_refuse`);
    }
    expect(await count()).toBe(before + 2);
  });

  it("writes a sign-in's event in the session's transaction: no session without its event", async () => {
    const { t } = ctx;
    const sessionCount = async () =>
      rowsOf<{ n: number }>(await t.storage.db.execute(sql`SELECT count(*)::int AS n FROM sessions`))[0]!.n;
    const signIn = () =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/dev-token",
        payload: { username: "operator", password: "operator" },
      });
    const before = await sessionCount();
    await t.storage.db.execute(
      sql`ALTER TABLE audit_events ADD CONSTRAINT audit_test_refuse CHECK (action <> 'signIn')`,
    );
    try {
      expect((await signIn()).statusCode).toBe(500);
      expect(await sessionCount()).toBe(before);
    } finally {
      await t.storage.db.execute(sql`ALTER TABLE audit_events DROP CONSTRAINT audit_test_refuse`);
    }
    expect((await signIn()).statusCode).toBe(200);
    expect(await sessionCount()).toBe(before + 1);
  });

  it("gives creates made at the same time (written together) each its answer and its own event", async () => {
    const { api } = ctx;
    const before = await count();
    const names = ["Batch A", "Batch B", "Batch C", "Batch D", "Batch E", "Batch F"];
    const [types, brokers] = await Promise.all([
      // Two of the types clash: only their own creates are refused, the batch's others are written.
      Promise.all(
        ["Alpha", "Twin", "Twin", "Beta"].map((name) => api("POST", `${ctx.path}/types`, { name })),
      ),
      Promise.all(names.map((name) => api("POST", "/api/context-brokers", broker(name)))),
    ]);
    expect(types.map((a) => a.status)).toEqual(expect.arrayContaining([201, 201, 201, 409]));
    expect(types.filter((a) => a.status === 409)[0]!.body.code).toBe("conflict.typeName");
    expect(brokers.map((a) => a.status)).toEqual(names.map(() => 201));
    expect(await count()).toBe(before + 9);
    for (const [i, answer] of brokers.entries()) {
      const { items } = await trail({ record: answer.body.id });
      expect(items).toMatchObject([{ action: "create", title: names[i], username: "test" }]);
      // Its values, listed in the kind's field order as an update's changes are.
      const given = broker(names[i]!) as Record<string, unknown>;
      expect(items[0]!.changes).toEqual(
        contextBrokers.fields
          .filter((f) => f.name in given)
          .map((f) => ({ field: f.name, after: given[f.name] })),
      );
      expect((await api("GET", `/api/context-brokers/${answer.body.id}`)).body.name).toBe(names[i]);
    }
  });

  it("says a secret changed, never its value, its ciphertext or a hash of it", async () => {
    const { api, t } = ctx;
    const idm = await api("POST", "/api/identity-managers", {
      name: "Keyrock for audit",
      scheme: "https",
      host: "idm.example.org",
      port: 443,
      oauth2TokenPath: "/oauth2/token",
      implementationName: "keyrock",
      implementationVersion: "8.4.0",
    });
    expect(idm.status, JSON.stringify(idm.body)).toBe(201);
    const grant = {
      name: "Audited grant",
      hasIdentityManager: idm.body.id,
      grantType: "client_credentials",
      clientId: "console",
      clientSecret: "first-secret-Zq81",
    };
    const created = await api("POST", "/api/identity-manager-grants", grant);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(
      (
        await api("PUT", `/api/identity-manager-grants/${id}`, {
          ...grant,
          clientSecret: "second-secret-Xw42",
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api("PUT", `/api/identity-manager-grants/${id}`, {
          ...grant,
          clientSecret: undefined,
          clientId: "c2",
        })
      ).status,
    ).toBe(200);
    const { items } = await trail({ record: id });
    expect(items.map((e) => e.action)).toEqual(["update", "update", "create"]);
    expect(items[2]!.changes).toContainEqual({ field: "clientSecret", secret: true });
    expect(items[1]!.changes).toEqual([{ field: "clientSecret", secret: true }]);
    expect(items[0]!.changes).toEqual([{ field: "clientId", before: "console", after: "c2" }]);
    const dump = JSON.stringify(
      rowsOf(await t.storage.db.execute(sql`SELECT * FROM audit_trail WHERE record_id = ${id}`)),
    );
    const [stored] = rowsOf<{ secrets: Record<string, string> }>(
      await t.storage.db.execute(sql`SELECT secrets FROM records WHERE id = ${id}`),
    );
    expect(dump).not.toContain("first-secret");
    expect(dump).not.toContain("second-secret");
    expect(dump).not.toContain(stored!.secrets.clientSecret!);
  });

  it("records entity and attribute writes once the broker answered, and not those it refused", async () => {
    const { api, path, workspace } = ctx;
    const created = await api("POST", `${path}/entities`, {
      type: "Building",
      name: { type: "Property", value: "Audited hall" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const entity = `${path}/entities/${encodeURIComponent(id)}`;
    expect((await api("PUT", `${entity}/attrs/name`, { type: "Property", value: "Renamed" })).status).toBe(
      200,
    );
    expect((await api("DELETE", entity)).status).toBe(204);
    // The broker no longer has it: a refused delete is not a change.
    expect((await api("DELETE", entity)).status).toBe(404);
    const { items } = await trail({ record: id });
    expect(items.map((e) => e.action)).toEqual(["entity.delete", "attribute.update", "entity.create"]);
    expect(items[1]).toMatchObject({
      kind: "entities",
      workspaceId: workspace.id,
      detail: { attributes: ["name"] },
    });
    expect(items[2]!.detail).toEqual({ attributes: ["name"] });
  });

  it("records each property an import creates, and the data service a link changes", async () => {
    const { api, path, types, workspace } = ctx;
    const imported = await api("POST", `${path}/properties/import`, {
      typeId: types.Person,
      properties: [
        { name: "age", ngsiLdType: "Property", propertyNgsiLdValueType: "Number" },
        { name: "nickname", ngsiLdType: "Property", propertyNgsiLdValueType: "String" },
      ],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    for (const { id, name } of imported.body.created as Array<{ id: string; name: string }>) {
      const { items } = await trail({ record: id });
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        action: "create",
        kind: "properties",
        title: name,
        workspaceId: workspace.id,
      });
    }
    const action = (await api("POST", "/api/data-actions", { name: `audited-${Date.now()}` })).body
      .id as string;
    const service = await api("POST", `${path}/data-services`, {
      name: "Audited service",
      hasEntityType: types.Person,
    });
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    const linked = await api("POST", `${path}/data-service-actions`, {
      hasDataService: service.body.id,
      hasDataAction: action,
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    const [update] = (await trail({ record: service.body.id, action: "update" })).items;
    expect(update!.changes).toEqual([{ field: "hasDataActions", after: [action] }]);
  });

  it("records a synchronisation with its outcome, sign-in and sign-out", async () => {
    const { api, path, t } = ctx;
    const role = await api("POST", `${path}/roles`, {
      name: "Audited role",
      roleName: "AUDITED_ROLE",
      notBefore: 1700000000,
      notOnOrAfter: 1900000000,
      dataServiceProviderId: "EU.EORI.PROVIDER",
      verifiableCredentialType: "AuditCredential",
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const sync = await api("POST", `${path}/roles/${role.body.id}/synchronize`, { effect: "Permit" });
    expect(sync.status).toBe(400);
    const [event] = (await trail({ record: role.body.id, action: "synchronize" })).items;
    expect(event).toMatchObject({ kind: "roles", outcome: "failure", detail: { status: 400 } });

    const signIn = await t.app.inject({
      method: "POST",
      url: "/api/auth/dev-token",
      payload: { username: "operator", password: "operator" },
    });
    expect(signIn.statusCode).toBe(200);
    const token = JSON.parse(signIn.body).access_token ?? JSON.parse(signIn.body).token;
    expect((await client(t, token)("POST", "/api/auth/logout")).status).toBe(204);
    const { items } = await trail({ user: "operator" });
    // Newest first: this sign-out and the sign-in before it.
    expect(items.slice(0, 2).map((e) => e.action)).toEqual(["signOut", "signIn"]);
    expect(items[0]).toMatchObject({ username: "operator", provider: "dev" });
  });

  it("records a write refused for lack of permission, and lets only administrators read the trail", async () => {
    const { t } = ctx;
    for (const role of ["viewer", "operator"]) {
      const other = client(t, await t.tokenFor(role));
      const res = await other("GET", "/api/audit");
      expect(res.status).toBe(403);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect((await other("GET", "/api/audit?record=x")).status).toBe(403);
    }
    const viewer = client(t, await t.tokenFor("viewer"));
    expect((await viewer("POST", "/api/context-brokers", broker("Not allowed"))).status).toBe(403);
    const [refused] = (await trail({ action: "refused" })).items;
    expect(refused).toMatchObject({
      kind: "context-brokers",
      outcome: "refused",
      detail: { method: "POST", path: "/api/context-brokers" },
    });
    // A route that records events of its own records its refusal once, as a refusal.
    const entities = `${ctx.path}/entities`;
    expect(
      (await viewer("POST", entities, { id: "urn:ngsi-ld:Building:refused", type: "Building" })).status,
    ).toBe(403);
    const refusals = (await trail({ action: "refused" })).items.filter((e) => e.detail?.path === entities);
    expect(refusals).toHaveLength(1);
    expect(
      (await trail({ action: "entity.create" })).items.filter((e) => e.recordId.endsWith(":refused")),
    ).toEqual([]);
  });

  it("filters by user, kind, workspace, action and time, and pages with a cursor", async () => {
    const { api, path, workspace } = ctx;
    for (const name of ["PagedA", "PagedB", "PagedC"])
      expect((await api("POST", `${path}/types`, { name })).status).toBe(201);
    const filters = { kind: "types", workspace: workspace.id, action: "create", user: "test" };
    const all = (await trail(filters)).items;
    expect(all.slice(0, 3).map((e) => e.title)).toEqual(["PagedC", "PagedB", "PagedA"]);
    const first = await trail({ ...filters, limit: "2" });
    expect(first.items.map((e) => e.title)).toEqual(["PagedC", "PagedB"]);
    const second = await trail({ ...filters, limit: "2", cursor: first.next! });
    expect(second.items[0]!.title).toBe("PagedA");
    // Creates whose event is still on their row and events of audit_events, paged together.
    const typeB = (await api("GET", `${path}/types`)).body.find((x: any) => x.name === "PagedB");
    expect((await api("PUT", `${path}/types/${typeB.id}`, { name: "PagedB", scopeName: "b" })).status).toBe(
      200,
    );
    const mixed = { workspace: workspace.id, kind: "types", limit: "1" };
    const seen: string[] = [];
    for (let page = await trail(mixed); seen.length < 4; page = await trail({ ...mixed, cursor: page.next! }))
      seen.push(`${page.items[0]!.action} ${page.items[0]!.title}`);
    expect(seen).toEqual(["update PagedB", "create PagedC", "create PagedB", "create PagedA"]);
    expect((await trail({ ...filters, from: new Date(Date.now() + 60_000).toISOString() })).items).toEqual(
      [],
    );
    expect((await trail({ ...filters, to: new Date(Date.now() - 3_600_000).toISOString() })).items).toEqual(
      [],
    );
    expect((await trail({ ...filters, user: "nobody" })).items).toEqual([]);
    // Filters are values, never patterns.
    for (const hostile of [".*+?(|\\", "%", "_"])
      expect(
        (await trail({ user: hostile, kind: hostile, record: hostile, workspace: hostile })).items,
      ).toEqual([]);
    for (const bad of ["action=explode", "cursor=abc", "from=yesterday", "limit=0", "limit=501", "other=1"]) {
      const res = await api("GET", `/api/audit?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
  });

  it("is append-only: no route changes it", async () => {
    const { api, t } = ctx;
    const routes = t.routes.filter((r) => r.url.startsWith("/api/audit"));
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /api/audit"]);
    const [event] = (await trail({ limit: "1" })).items;
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      for (const url of ["/api/audit", `/api/audit/${event!.id}`])
        expect((await api(method, url, {})).status, `${method} ${url}`).toBe(404);
    expect((await trail({ limit: "1" })).items[0]).toEqual(event);
  });

  it("removes in the background the events older than the retention", async () => {
    const { t } = ctx;
    await t.storage.db.execute(
      sql`INSERT INTO audit_events (at, subject, username, provider, action, title)
          VALUES (now() - interval '40 days', 'old', 'old', 'test', 'create', 'Forty days old'),
                 (now() - interval '10 days', 'old', 'old', 'test', 'create', 'Ten days old')`,
    );
    // A create's event still on its record's row goes the same way.
    const old = (await ctx.api("POST", "/api/context-brokers", broker("Made forty days ago"))).body
      .id as string;
    await t.storage.db.execute(sql`ALTER TABLE records DISABLE TRIGGER records_create_event`);
    await t.storage.db.execute(
      sql`UPDATE records SET created_at = now() - interval '40 days', created_by = created_by || '{"username": "old"}'
           WHERE id = ${old}`,
    );
    await t.storage.db.execute(sql`ALTER TABLE records ENABLE TRIGGER records_create_event`);
    expect((await trail({ user: "old" })).items.map((e) => e.title)).toContain("Made forty days ago");
    const config = loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: "silent", AUDIT_RETENTION_DAYS: "30" }, [
      "--no-demo",
    ]);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: "0" })).toThrow(/AUDIT_RETENTION_DAYS/);
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    const second = await buildApp(config, t.storage);
    await second.app.ready();
    const titles = async () => (await trail({ user: "old" })).items.map((e) => e.title as string);
    // The retention runs in the background, in two statements: wait for both.
    for (let i = 0; i < 250 && (await titles()).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await titles()).toEqual(["Ten days old"]);
    await second.app.close();
  });
});
