import { eq } from "drizzle-orm";
import {
  isAllowed,
  itemPath,
  referenceFields,
  whenHolds,
  type KindDefinition,
  type Permission,
} from "@orrery/model";
import { asSegment } from "../auth/guard.ts";
import type { Database } from "../storage/database.ts";
import { records } from "../storage/schema.ts";
import { problem } from "../problems.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Row = typeof records.$inferSelect;
type Data = Record<string, unknown>;

/**
 * Who binds, and how the binding is recorded: the repository's catalogue of kinds, the actor of
 * the change (its permissions decide), and the audit of an update in the binding's transaction.
 */
export interface Binder {
  kinds: readonly KindDefinition[];
  actor?: { permissions?: readonly Permission[] };
  audited(tx: Tx, kind: KindDefinition, before: Row, after: Row): Promise<void>;
}

/**
 * Gives a record the value of the field its pairings are checked against (a grant its peer), as
 * an update of its own: a new version (its ETag), and an event in the trail saying who bound it.
 */
export async function bind(tx: Tx, binder: Binder, before: Row, via: string, value: string): Promise<void> {
  const kind = binder.kinds.find((k) => k.kind === before.kind)!;
  // Binding a grant decides where its secrets go: only who may change the grant binds it (an
  // operator may pair grants in a workspace, not choose the peer of a platform grant).
  const permissions = binder.actor?.permissions;
  if (permissions && !isAllowed(permissions, "PUT", `/api${itemPath(kind, asSegment(before.id))}`))
    throw problem(403, "grant.bindForbidden", {
      grant: String(before.data.name ?? before.id),
      field: via,
    });
  const [after] = await tx
    .update(records)
    .set({ data: { ...before.data, [via]: value }, version: before.version + 1, updatedAt: new Date() })
    .where(eq(records.id, before.id))
    .returning();
  await binder.audited(tx, kind, before, after!);
}

/**
 * Binds a platform record to the peer it is first used with (a registry grant chosen in the
 * registry tool with a registry, before any record paired it), unless something bound it
 * meanwhile: the row as it is after, for the caller to check again.
 */
export async function bindFirst(
  db: Database,
  binder: Binder,
  kind: KindDefinition,
  id: string,
  via: string,
  value: string,
): Promise<Row | undefined> {
  const platformRow = async (tx: Tx, lock: boolean) => {
    const query = tx.select().from(records).where(eq(records.id, id));
    const [row] = await (lock ? query.for("update") : query);
    return row?.kind === kind.kind && row.workspaceId === "" ? row : undefined;
  };
  return db.transaction(async (tx) => {
    const row = await platformRow(tx, true);
    if (!row || row.data[via] !== undefined) return row;
    await bind(tx, binder, row, via, value);
    return platformRow(tx, false);
  });
}

/**
 * A grant bound to its peer keeps its secrets for that peer: pointing it at another one needs
 * them typed again in the same update (whoever may edit the grant without knowing them cannot
 * send them elsewhere).
 */
export function keepSecretsWithPeer(
  kinds: readonly KindDefinition[],
  kind: KindDefinition,
  current: Row,
  data: Data,
  input: Data,
): void {
  const peerFields = new Set(
    kinds.flatMap((other) =>
      referenceFields(other)
        .filter((f) => f.kind === kind.kind && f.within)
        .map((f) => f.within!.via),
    ),
  );
  const moved = [...peerFields].filter(
    (via) => current.data[via] !== undefined && current.data[via] !== data[via],
  );
  if (!moved.length) return;
  const untyped = kind.fields
    .filter((f) => f.secret && whenHolds(f.when, data) && typeof input[f.name] !== "string")
    .map((f) => f.name);
  if (untyped.length)
    throw problem(409, "grant.peerNeedsSecrets", {
      grant: String(current.data.name ?? current.id),
      field: moved[0]!,
      fields: untyped,
    });
}
