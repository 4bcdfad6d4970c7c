import type { AuditAction, KindDefinition } from "@orrery/model";
import type { Database } from "../storage/database.ts";
import { auditEvents, type AuditChange } from "../storage/schema.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Data = Record<string, unknown>;

/** Who made a change: the session's user, as the identity manager named them. */
export interface Actor {
  subject: string;
  username: string;
  provider: string;
}

export interface AuditEvent {
  action: AuditAction;
  kind?: string;
  recordId?: string;
  title?: string;
  workspaceId?: string;
  outcome?: "success" | "failure" | "refused";
  changes?: AuditChange[] | null;
  /** A create's values, as the record keeps them (see changesListed). */
  created?: Data | null;
  detail?: Data | null;
}

export function auditRow(by: Actor, event: AuditEvent) {
  return {
    subject: by.subject,
    username: by.username,
    provider: by.provider,
    action: event.action,
    kind: event.kind ?? "",
    recordId: event.recordId ?? "",
    title: event.title ?? "",
    workspaceId: event.workspaceId ?? "",
    outcome: event.outcome ?? "success",
    changes: event.changes ?? null,
    created: event.created ?? null,
    detail: event.detail ?? null,
  };
}

/** Appends events in the caller's transaction (or alone, for events that change nothing of ours). */
export async function writeAudit(db: Database | Tx, by: Actor, events: AuditEvent[]): Promise<void> {
  if (events.length) await db.insert(auditEvents).values(events.map((e) => auditRow(by, e)));
}

/** A record's fields and its encrypted secrets, as stored. */
interface Stored {
  data: Data;
  secrets: Record<string, string>;
}

const none: Stored = { data: {}, secrets: {} };
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
/**
 * A value as the trail tells it: an empty list is no value. Records store their empty lists as `[]`
 * (migration 0026); the trail says what it said before, when they were stored without them.
 */
const told = (value: unknown) => (Array.isArray(value) && !value.length ? undefined : value);

/**
 * The fields that differ between two versions of a record (the first empty for a create, the second
 * for a delete). A secret is said to have changed (its ciphertext differs: it was given again), never
 * with a value, not even its ciphertext or a hash of it. A map of secret values (custom headers) shows
 * the names it had and has, each `{ set: true }`, or only that it changed when its names stayed.
 */
export function changesOf(kind: KindDefinition, before: Stored | undefined, after: Stored | undefined) {
  const b = before ?? none;
  const a = after ?? none;
  const changes: AuditChange[] = [];
  for (const field of kind.fields) {
    const name = field.name;
    if (field.secret) {
      if (b.secrets[name] !== a.secrets[name]) changes.push({ field: name, secret: true });
    } else if (field.secretValues && same(b.data[name], a.data[name])) {
      // Same names (each `{ set: true }`): a value given again only says the map changed.
      if (b.secrets[name] !== a.secrets[name]) changes.push({ field: name, secret: true });
    } else {
      const [was, is] = [told(b.data[name]), told(a.data[name])];
      if (!same(was, is))
        changes.push({
          field: name,
          ...(was !== undefined ? { before: was } : {}),
          ...(is !== undefined ? { after: is } : {}),
        });
    }
  }
  return changes;
}

/** The secrets a new record was given, each only as set; null when none. */
export function secretsSet(kind: KindDefinition, secrets: Record<string, string>): AuditChange[] | null {
  const set = kind.fields.filter((f) => f.secret && secrets[f.name] !== undefined);
  return set.length ? set.map((f) => ({ field: f.name, secret: true })) : null;
}

/**
 * The changes an event shows. A create keeps its values as the record's own data (`created`: the
 * cheapest copy to write in the create's statement); they are listed here, in the kind's field
 * order, with the secrets it was given as set, as changesOf lists an update's.
 */
export function changesListed(
  kind: KindDefinition | undefined,
  event: { created: Data | null; changes: AuditChange[] | null },
): AuditChange[] | null {
  if (!event.created) return event.changes;
  const listed: AuditChange[] = [
    ...Object.entries(event.created).flatMap(([field, after]) =>
      told(after) === undefined ? [] : [{ field, after }],
    ),
    ...(event.changes ?? []),
  ];
  const order = new Map(kind?.fields.map((f, i) => [f.name, i]));
  const at = (c: AuditChange) => order.get(c.field) ?? order.size;
  return listed.sort((a, b) => at(a) - at(b));
}
