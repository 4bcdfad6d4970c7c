import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/storage/database.ts";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

/** The database's refusal (drizzle wraps it: its cause says why). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (err) {
    const e = err as { message: string; cause?: { message?: string } };
    return `${e.message} ${e.cause?.message ?? ""}`;
  }
  return "done";
}

const broker = (name: string) => ({
  name,
  scheme: "http",
  host: "broker.example.org",
  port: 1026,
  multiTenancyEnabled: false,
  paginationMaxLimit: 1000,
  implementationName: "orion-ld",
  implementationVersion: "1.5.1",
});

describe(`the database keeps the audit trail append-only (${driver})`, () => {
  it("refuses UPDATE, DELETE and TRUNCATE of audit_events, except the retention's deletes of old events", async () => {
    const db = ctx.t.storage.db;
    const made = await ctx.api("POST", "/api/context-brokers", broker("Append-only"));
    expect(made.status).toBe(201);
    // Its update moves the create's event from the row to audit_events: two events there.
    expect((await ctx.api("DELETE", `/api/context-brokers/${made.body.id}`)).status).toBe(204);
    const ids = async () =>
      rowsOf<{ id: string; title: string }>(
        await db.execute(
          sql`SELECT id::text, title FROM audit_events WHERE record_id = ${made.body.id} ORDER BY id`,
        ),
      );
    const before = await ids();
    expect(before.map((e) => e.title)).toEqual(["Append-only", "Append-only"]);
    const refused = /append-only/;
    expect(
      await refusal(
        db.execute(sql`UPDATE audit_events SET title = 'rewritten' WHERE record_id = ${made.body.id}`),
      ),
    ).toMatch(refused);
    expect(
      await refusal(db.execute(sql`DELETE FROM audit_events WHERE record_id = ${made.body.id}`)),
    ).toMatch(refused);
    expect(await refusal(db.execute(sql`TRUNCATE audit_events`))).toMatch(refused);
    // The retention's setting lets only events older than its cutoff and than a day go.
    expect(
      await refusal(
        db.transaction(async (tx) => {
          await tx.execute(
            sql`SELECT set_config('orrery.audit_prune_before', ${new Date(Date.now() + 60_000).toISOString()}, true)`,
          );
          await tx.execute(sql`DELETE FROM audit_events WHERE record_id = ${made.body.id}`);
        }),
      ),
    ).toMatch(refused);
    expect(await ids()).toEqual(before);

    await db.execute(
      sql`INSERT INTO audit_events (at, subject, username, provider, action, title)
          VALUES (now() - interval '40 days', 'old', 'old', 'test', 'create', 'Old .*+?(|\\')`,
    );
    const old = sql`DELETE FROM audit_events WHERE username = 'old' AND title = 'Old .*+?(|\\'`;
    expect(await refusal(db.execute(old))).toMatch(refused);
    await db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT set_config('orrery.audit_prune_before', ${new Date(Date.now() - 30 * 86_400_000).toISOString()}, true)`,
      );
      await tx.execute(old);
    });
    const left = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::int AS n FROM audit_events WHERE username = 'old'`),
    );
    expect(left[0]!.n).toBe(0);
  });

  it("keeps a create's event kept on its record's row when someone clears it there", async () => {
    const db = ctx.t.storage.db;
    const made = await ctx.api("POST", "/api/context-brokers", broker("Kept on its row"));
    expect(made.status).toBe(201);
    await db.execute(
      sql`UPDATE records SET created_event = NULL, created_by = NULL WHERE id = ${made.body.id}`,
    );
    const trail = await ctx.api("GET", `/api/audit?record=${encodeURIComponent(made.body.id)}`);
    expect(trail.body.items.map((e: { action: string; title: string }) => `${e.action} ${e.title}`)).toEqual([
      "create Kept on its row",
    ]);
  });
});
