import { and, asc, eq, inArray, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import {
  missingRequired,
  newId,
  recordTitle,
  referenceFields,
  whenHolds,
  type Field,
  type KindDefinition,
  type Within,
} from "@orrery/model";
import { changesOf, secretsSet, writeAudit, type Actor, type AuditEvent } from "../audit/trail.ts";
import type { Cipher } from "../cipher.ts";
import { fieldError, invalid, notFound, problem, type FieldError } from "../problems.ts";
import { rowsOf, type Database } from "../storage/database.ts";
import { records, type AuditChange } from "../storage/schema.ts";
import { ReadBatch } from "../storage/read-batch.ts";
import { WriteBatch } from "../storage/write-batch.ts";
import { openValues, PLAIN, writeValues } from "./secret-values.ts";
import { uniquely } from "./unique-names.ts";
import { namesOf } from "./titles.ts";
import { ListCache } from "./list-cache.ts";
import {
  blockerColumns,
  blockersOf,
  deleteBlockers,
  deleteCheck,
  type DeleteCheck,
} from "./delete-blockers.ts";
import { bind, bindFirst, keepSecretsWithPeer, type Binder } from "./grant-binding.ts";

export type { Blocker, DeleteCheck } from "./delete-blockers.ts";

type Data = Record<string, unknown>;
/** Field values a list is narrowed to: [field name from the kind's definition, value]. */
type Where = ReadonlyArray<readonly [string, string]>;
export type Row = typeof records.$inferSelect;
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * What a check of an update's dependents reads and writes, inside the update's transaction (the
 * records it names are those of the updated record's workspace).
 */
export interface InTransaction {
  find(kind: KindDefinition, id: unknown): Promise<Row | undefined>;
  /** Records of a kind whose reference field names this id. */
  referring(kind: KindDefinition, field: string, id: unknown): Promise<Row[]>;
  /** Carries a dependent along (a value it copies from the updated record), in the same transaction. */
  carry(kind: KindDefinition, id: string, patch: Data): Promise<void>;
}

/** Records an update would leave invalid, and the field of the updated record whose change breaks them. */
export interface Broken {
  field: string;
  rows: Row[];
}

/** An update as the check of its dependents sees it: the record before and after, in its workspace. */
export interface Change {
  id: string;
  workspaceId?: string;
  before: Data;
  after: Data;
}

/** The records an update would break, asked of the updated kind's rules inside its transaction. */
export type DependentsCheck = (change: Change, tx: InTransaction) => Promise<Broken[]>;

export interface Item {
  id: string;
  [field: string]: unknown;
}

/**
 * What else a create writes in its transaction (a broker client's key hash, apps/api/src/broker-clients),
 * and the changes its audit event adds for it (`{ field: "key", secret: true }`: said, never shown).
 */
export interface Alongside {
  write(tx: Tx, id: string): Promise<void>;
  changes?: AuditChange[];
}

/** A record action's change (a revocation, a new key): the fields only the server sets, and what else the trail says (a key changed). */
export interface ActionChange {
  patch: Data;
  changes?: AuditChange[];
}

/**
 * A record as the API shows it: its data, with `{ set }` in place of each secret that applies, and
 * the workspace it belongs to (`hasWorkspace`) for the kinds that live in one.
 */
export function toItem(
  kind: KindDefinition,
  row: Pick<Row, "id" | "data" | "secrets"> & { workspaceId?: string },
): Item {
  const item: Item = { id: row.id };
  for (const field of kind.fields) {
    if (field.secret) {
      if (whenHolds(field.when, row.data)) item[field.name] = { set: row.secrets[field.name] !== undefined };
    } else if (row.data[field.name] !== undefined) {
      // Lists are stored `[]` when empty (withEmptyLists): nothing to fill in on the way out.
      item[field.name] = row.data[field.name];
    }
  }
  if (kind.scope === "workspace" && row.workspaceId) item.hasWorkspace = row.workspaceId;
  return item;
}

/** A field whose value is a list a client may read empty (ids, strings); a point is no list. */
const isList = (field: Field) => field.input === "references" || field.input === "strings";

/**
 * The data as stored: every list field of the kind present, `[]` when empty (normalize drops empty
 * values), even where the list does not apply (a property that is not temporal has no temporal
 * services). A client reads `[]`, never a missing member (the original console reads a
 * workspace's `temporalServices.length`), and the reads pass the stored data through as it is
 * (a list of 10,000 built by the database, see listJson). Migration 0026 wrote the rows before it.
 */
function withEmptyLists(kind: KindDefinition, data: Data): Data {
  for (const field of kind.fields) if (!field.secret && isList(field)) data[field.name] ??= [];
  return data;
}

/**
 * A record as a list shows it, built by the database: its id, its data, and the workspace it is in
 * (hasWorkspace) for the kinds that live in one (the platform's records have none).
 */
const listItemOf = (id: SQLWrapper, data: SQLWrapper, workspaceId: SQLWrapper) =>
  sql`jsonb_build_object('id', ${id}) || ${data} || CASE WHEN ${workspaceId} <> '' THEN jsonb_build_object('hasWorkspace', ${workspaceId}) ELSE '{}'::jsonb END`;

/** A reference to a record outside its field's `within` (a grant of another identity manager). */
interface Outside {
  path: string;
  target: { data: Data };
  within: Within;
}

export const etagOf = (version: number) => `"${version}"`;

/**
 * The statements of every create and read, built once with placeholders: drizzle built each of
 * them anew on every request (a fifth of a create's CPU time on PGlite), and PostgreSQL parses a
 * named statement once per connection.
 */
function preparedStatements(db: Database) {
  const p = sql.placeholder;
  return {
    recordsVersion: db._.session.prepareQuery(
      new PgDialect().sqlToQuery(sql`SELECT version::text AS version FROM records_version`),
      undefined,
      "records_version",
      false,
    ),
    // The records of the ids asked together (see ReadBatch), given as one JSON array; ARRAY(...)
    // keeps it a lookup of the primary key (as `IN (SELECT ...)` PostgreSQL read the whole table).
    byIds: db
      .select()
      .from(records)
      .where(sql`${records.id} = ANY(ARRAY(SELECT jsonb_array_elements_text(${p("ids")}::jsonb)))`)
      .prepare("records_by_ids"),
    // Creates and their audit events in one statement (see WriteBatch): atomic without
    // BEGIN/COMMIT, one round trip, the rows given as one JSON array. A create's event is kept on
    // its record's row (migration 0018: its id in the trail's order, who made it, the title, the
    // secrets set; the values are the record's own data until a trigger moves the event to
    // audit_events when the record first changes): one row written instead of two. A create made by
    // nobody (the trail off, the demo data) has no event.
    insertBatch: db._.session.prepareQuery(
      new PgDialect().sqlToQuery(sql`
        INSERT INTO records (id, kind, workspace_id, name, data, secrets, version, created_event, created_by)
        SELECT id, kind, "workspaceId", name, data, secrets, 1,
               CASE WHEN event IS NOT NULL THEN nextval('audit_events_id_seq') END, event
          FROM ROWS FROM (jsonb_to_recordset(${p("rows")}::jsonb) AS (
            id text, kind text, "workspaceId" text, name text, data jsonb, secrets jsonb, event jsonb))
          WITH ORDINALITY AS g ORDER BY g.ordinality`),
      undefined,
      "records_insert_batch",
      false,
    ),
  };
}

/**
 * The one repository behind every kind's CRUD routes. `kinds` is the whole catalogue: it is needed
 * to find, before a delete, the records of any kind that refer to the one being deleted.
 */
export class Records {
  /** The rules of each kind that say which records an update of it would break (see keepDependents). */
  private readonly dependents = new Map<string, DependentsCheck>();
  private prepared?: ReturnType<typeof preparedStatements>;
  private get statements() {
    return (this.prepared ??= preparedStatements(this.db));
  }
  /** Lists of the kinds without secrets, kept while the records stay the same (shared by every view). */
  private readonly lists = new ListCache(async () => {
    const [row] = rowsOf<{ version: string }>(await this.statements.recordsVersion.execute());
    return row!.version;
  });
  /** Records asked for by id at the same time, read together (built once, shared by every view, see as()). */
  private reads?: ReadBatch<string, Row>;
  private get byId() {
    return (this.reads ??= new ReadBatch<string, Row>(async (ids) => {
      const rows = await this.statements.byIds.execute({ ids: JSON.stringify(ids) });
      return new Map(rows.map((row) => [row.id, row]));
    }));
  }
  /** Creates made at the same time, written together (built once, shared by every view, see as()). */
  private batch?: WriteBatch<Data>;
  private get creates() {
    return (this.batch ??= new WriteBatch<Data>(async (rows) => {
      await this.statements.insertBatch.execute({ rows: JSON.stringify(rows) });
    }, this.writeLanes));
  }

  constructor(
    private readonly db: Database,
    private readonly cipher: Cipher,
    private readonly kinds: readonly KindDefinition[],
    /** Batches of creates in the database at once (see WriteBatch): 1 on PGlite, more with a pool. */
    private readonly writeLanes = 1,
  ) {}

  /** Who the changes made through this repository are recorded as made by (see as()). */
  private actor?: Actor;
  private trail = true;

  /** Off, nothing is recorded (AUDIT_TRAIL=off: only to measure what the trail costs). */
  keepTrail(on: boolean): void {
    this.trail = on;
  }

  /**
   * This repository, its changes recorded in the audit trail, in their own transactions, as made
   * by this user (the session of the request that makes them). Passed, not looked up from the
   * request's async context: AsyncLocalStorage slows every promise of the process on Node 20, a
   * third of what the trail may cost a create.
   */
  as(by: Actor | undefined): Records {
    if (!by || !this.trail) return this;
    void this.statements; // built once, on this object: every view shares them
    void this.creates;
    void this.byId;
    const view = Object.create(this) as Records;
    view.actor = by;
    return view;
  }

  /** Every update of this kind, whatever route makes it, is checked against its dependents. */
  watchDependents(kind: KindDefinition, check: DependentsCheck): void {
    this.dependents.set(kind.kind, check);
  }

  /** A kind's records in a workspace (or the platform's), with these field values (compared as text). */
  private scope(kind: KindDefinition, workspaceId?: string, where: Where = []): SQL {
    return and(
      eq(records.kind, kind.kind),
      eq(records.workspaceId, workspaceId ?? ""),
      ...where.map(([field, value]) => sql`${records.data}->>${field} = ${value}`),
    )!;
  }

  async list(kind: KindDefinition, workspaceId?: string, where: Where = []): Promise<Item[]> {
    // A kind without secret fields has nothing to show from `secrets`: not fetching it spares the
    // decoding of one more jsonb per row (about a quarter of a 10,000-record list on PGlite).
    const withSecrets = kind.fields.some((f) => f.secret);
    const rows = await this.db
      .select({
        id: records.id,
        data: records.data,
        secrets: withSecrets ? records.secrets : sql<Record<string, string> | null>`NULL`,
      })
      .from(records)
      .where(this.scope(kind, workspaceId, where))
      .orderBy(asc(sql`lower(${records.name})`), asc(records.id));
    return rows.map((row) =>
      toItem(kind, {
        id: row.id,
        data: row.data,
        secrets: row.secrets ?? {},
        workspaceId: workspaceId ?? "",
      }),
    );
  }

  /**
   * The list as a JSON array (UTF-8), built by the database when the kind has no secrets: rows arrive as
   * text and are joined, which spares decoding and re-encoding every record (most of the time of a
   * list of 10,000 on PGlite).
   */
  async listJson(kind: KindDefinition, workspaceId?: string, where: Where = []): Promise<Buffer> {
    if (kind.fields.some((f) => f.secret))
      return Buffer.from(JSON.stringify(await this.list(kind, workspaceId, where)));
    // Each record's text built by the database, joined by the database too: one
    // value to receive instead of a row per record to parse and map (half of a 100-record list's
    // time on PGlite went in reading rows). A record a workspace holds carries it as hasWorkspace.
    const item = sql`(${listItemOf(records.id, records.data, records.workspaceId)})::text`;
    // Kept while no record changes (ListCache): a list asked again costs one read of the version.
    return this.lists.get(JSON.stringify([kind.kind, workspaceId ?? "", where]), async () => {
      const [list] = await this.db
        .select({
          json: sql<string>`'[' || coalesce(string_agg(${item}, ',' ORDER BY lower(${records.name}), ${records.id}), '') || ']'`,
        })
        .from(records)
        .where(this.scope(kind, workspaceId, where));
      return list?.json ?? "[]";
    });
  }

  /** Records of these kinds in a workspace with exactly this name (the list index finds them by lower(name)). */
  async findByName(kinds: readonly KindDefinition[], workspaceId: string, name: string): Promise<Item[]> {
    const rows = await this.db
      .select({ id: records.id, data: records.data })
      .from(records)
      .where(
        and(
          inArray(
            records.kind,
            kinds.map((k) => k.kind),
          ),
          eq(records.workspaceId, workspaceId),
          sql`lower(${records.name}) = lower(${name})`,
          eq(records.name, name),
        ),
      );
    return rows.map((r) => ({ id: r.id, ...r.data }));
  }

  /** For operations that span several tables in one transaction (data-model generation). */
  get database(): Database {
    return this.db;
  }

  /**
   * The row with this id if it is of this kind and in this workspace, found by the primary key
   * alone. Asked with kind and workspace as well, PostgreSQL chose the list index, where the id
   * comes last, and read every record of the kind: 0.75 ms a read with 10,000 of them. Outside a
   * transaction, with the ids other requests ask for at the same time (ReadBatch).
   */
  private async row(
    db: Tx | Database,
    kind: string,
    id: string,
    workspaceId = "",
    lock?: "update",
  ): Promise<Row | undefined> {
    let row: Row | undefined;
    if (lock || db !== this.db) {
      const query = db.select().from(records).where(eq(records.id, id));
      [row] = await (lock ? query.for(lock) : query);
    } else row = await this.byId.load(id);
    return row?.kind === kind && row.workspaceId === workspaceId ? row : undefined;
  }

  /** The workspace row, locked until the transaction ends. */
  async lockWorkspace(tx: Tx, workspaceId: string): Promise<Row> {
    const row = await this.row(tx, "workspaces", workspaceId, "", "update");
    if (!row) throw notFound(workspaceId, "workspace");
    return row;
  }

  /** 404 unless the workspace exists. */
  async requireWorkspace(workspaceId: string): Promise<Row> {
    const row = await this.row(this.db, "workspaces", workspaceId);
    if (!row) throw notFound(workspaceId, "workspace");
    return row;
  }

  /** A record by its id alone, whatever its workspace (a public thing description is named by its id). */
  async findById(kind: KindDefinition, id: string): Promise<Row | undefined> {
    const [row] = await this.db
      .select()
      .from(records)
      .where(and(eq(records.id, id), eq(records.kind, kind.kind)));
    return row;
  }

  find(kind: KindDefinition, id: string, workspaceId?: string): Promise<Row | undefined> {
    return this.row(this.db, kind.kind, id, workspaceId);
  }

  async get(
    kind: KindDefinition,
    id: string,
    workspaceId?: string,
  ): Promise<{ item: Item; version: number }> {
    const row = await this.find(kind, id, workspaceId);
    if (!row) throw notFound(id);
    return { item: toItem(kind, row), version: row.version };
  }

  /**
   * Merges server-computed values (dataModelUpToDate, positionInChart) into a record without a new
   * version: they are not part of what a user edits, and update() keeps them. The caller has found
   * the record in its workspace; the kind is checked again here.
   */
  async patchData(kind: KindDefinition, id: string, patch: Data, tx: Tx | Database = this.db): Promise<void> {
    await tx
      .update(records)
      .set({ data: sql`${records.data} || ${JSON.stringify(patch)}::jsonb` })
      .where(and(eq(records.id, id), eq(records.kind, kind.kind)));
  }

  /** The plain values of a map of secret values (a broker's custom headers), for the server's own calls to peers. */
  secretValues(row: Pick<Row, "secrets">, field: string): Record<string, string> | undefined {
    const values = openValues(this.cipher, row.secrets[field]);
    return Object.keys(values).length ? values : undefined;
  }

  /** Seals the values migration 0021 moved as they were (at start, before any request). */
  async sealPlainValues(): Promise<void> {
    for (const kind of this.kinds)
      for (const field of kind.fields.filter((f) => f.secretValues)) {
        const rows = await this.db
          .select({ id: records.id, secrets: records.secrets })
          .from(records)
          .where(
            and(eq(records.kind, kind.kind), sql`${records.secrets}->>${field.name} LIKE ${`${PLAIN}%`}`),
          );
        for (const row of rows) {
          const plain = row.secrets[field.name]!;
          const sealed = this.cipher.encrypt(JSON.stringify(openValues(this.cipher, plain)));
          await this.db.execute(
            sql`UPDATE records SET secrets = jsonb_set(secrets, ${`{${field.name}}`}::text[], to_jsonb(${sealed}::text))
                 WHERE id = ${row.id} AND secrets->>${field.name} = ${plain}`,
          );
        }
      }
  }

  /** The plain value of a secret, for the server's own calls to peers. Never sent to a client. */
  async secret(kind: KindDefinition, id: string, field: string): Promise<string | undefined> {
    const row = await this.find(kind, id);
    const stored = row?.secrets[field];
    return stored === undefined ? undefined : this.cipher.decrypt(stored);
  }

  async create(
    kind: KindDefinition,
    input: Data,
    workspaceId?: string,
    alongside?: Alongside,
  ): Promise<{ item: Item; version: number }> {
    const row = this.newRow(kind, input, workspaceId);
    const { data } = row;
    const by = this.actor;
    const event = by && this.created(kind, row, await this.titleOf(this.db, kind, row), alongside?.changes);
    // Everything the answer shows is known here: no RETURNING to read back and decode.
    const insert = async (db: Database) => {
      if (db === this.db)
        // One shape for every create, with or without its event (spreading the optional parts cost
        // a create 4 µs of CPU).
        await this.creates.add({
          id: row.id,
          kind: row.kind,
          workspaceId: row.workspaceId ?? "",
          name: row.name,
          data: row.data,
          secrets: row.secrets,
          // Who, and nothing else of the session (its permissions, its token's hash).
          event: by
            ? {
                subject: by.subject,
                username: by.username,
                provider: by.provider,
                title: event!.title,
                changes: event!.changes,
              }
            : null,
        });
      else {
        await db.insert(records).values(row);
        if (by) await writeAudit(db, by, [event!]);
      }
      return { item: toItem(kind, row), version: row.version };
    };
    // Without references there is nothing to check or lock: the INSERT alone is atomic, and
    // BEGIN/COMMIT would triple the round trips of the create.
    if (!alongside && !referenceFields(kind).some((f) => data[f.name] !== undefined))
      return uniquely(data, () => insert(this.db));
    return uniquely(data, () =>
      this.db.transaction(async (tx) => {
        await this.checkReferences(tx, kind, data, workspaceId);
        const created = await insert(tx);
        await alongside?.write(tx, row.id);
        return created;
      }),
    );
  }

  /**
   * The title an audit event gives a record (a nameless access reads "role → data service"). A
   * named record is its own title, known without waiting for anything.
   */
  private titleOf(
    db: Tx | Database,
    kind: KindDefinition,
    row: Pick<Row, "id" | "name" | "data">,
  ): string | Promise<string> {
    return row.name || this.titleFromReferences(db, kind, row);
  }

  private async titleFromReferences(
    db: Tx | Database,
    kind: KindDefinition,
    row: Pick<Row, "id" | "name" | "data">,
  ) {
    const referenced = await namesOf(db as Tx, [{ kind: kind.kind, data: row.data }], (name) =>
      this.kinds.find((k) => k.kind === name),
    );
    return recordTitle(kind, { ...row.data, id: row.id, name: row.name }, referenced);
  }

  /** The audit event of a new record: its values as given (listed when the trail is read), its secrets only as set. */
  private created(
    kind: KindDefinition,
    row: ReturnType<Records["newRow"]>,
    title: string,
    also: AuditChange[] = [],
  ): AuditEvent {
    const secrets = [...(secretsSet(kind, row.secrets) ?? []), ...also];
    return {
      action: "create",
      kind: kind.kind,
      recordId: row.id,
      title,
      workspaceId: row.workspaceId ?? "",
      created: row.data,
      changes: secrets.length ? secrets : null,
    };
  }

  /** The row of a new record: a fresh URN, secrets encrypted, version 1. */
  private newRow(kind: KindDefinition, input: Data, workspaceId?: string) {
    const { data, secrets } = this.split(kind, input, {});
    withEmptyLists(kind, data);
    return {
      id: newId(kind),
      kind: kind.kind,
      workspaceId,
      name: String(data.name ?? ""),
      data,
      secrets,
      version: 1,
    };
  }

  /** Creates several records in one transaction: all of them, or none. */
  async createMany(kind: KindDefinition, inputs: Data[], workspaceId?: string): Promise<Item[]> {
    const by = this.actor;
    return this.db.transaction(async (tx) => {
      const items: Item[] = [];
      const events: AuditEvent[] = [];
      for (const input of inputs) {
        const row = this.newRow(kind, input, workspaceId);
        await this.checkReferences(tx, kind, row.data, workspaceId);
        await uniquely(row.data, () => tx.insert(records).values(row));
        items.push(toItem(kind, row));
        if (by) events.push(this.created(kind, row, await this.titleOf(tx, kind, row)));
      }
      if (by) await writeAudit(tx, by, events);
      return items;
    });
  }

  async update(
    kind: KindDefinition,
    id: string,
    input: Data,
    options: { ifMatch?: string; workspaceId?: string } = {},
  ): Promise<{ item: Item; version: number }> {
    const by = this.actor;
    return this.db.transaction(async (tx) => {
      const current = await this.current(tx, kind, id, options);
      const changed = kind.fields
        .filter(
          (f) => f.createOnly && current.data[f.name] !== undefined && input[f.name] !== current.data[f.name],
        )
        .map((f) => fieldError(f.name, "field.createOnly"));
      if (changed.length) throw invalid(changed);
      const { data, secrets } = this.split(kind, input, current.secrets);
      // Fields only the server sets (dataModelVersion, positionInChart, ...) survive a client's update,
      // and so do links an update leaves out (a data service's, for clients that link call by call).
      for (const f of kind.fields) {
        if ((f.readOnly || f.linked) && data[f.name] === undefined && current.data[f.name] !== undefined)
          data[f.name] = current.data[f.name];
      }
      withEmptyLists(kind, data);
      await this.checkReferences(tx, kind, data, options.workspaceId);
      await this.keepPairings(tx, kind, id, current.data, data);
      keepSecretsWithPeer(this.kinds, kind, current, data, input);
      const dependents = this.dependents.get(kind.kind);
      if (dependents)
        await this.keepDependents(tx, dependents, {
          id,
          workspaceId: options.workspaceId,
          before: current.data,
          after: data,
        });
      const [row] = await uniquely(data, () =>
        tx
          .update(records)
          .set({
            data,
            secrets,
            name: String(data.name ?? ""),
            version: current.version + 1,
            updatedAt: new Date(),
          })
          .where(eq(records.id, id))
          .returning(),
      );
      if (by) await this.audit(tx, by, "update", kind, row!, changesOf(kind, current, row!));
      return { item: toItem(kind, row!), version: row!.version };
    });
  }

  /** The row an update or an action changes, locked, if the ETag the client read (If-Match) is still its. */
  private async current(
    tx: Tx,
    kind: KindDefinition,
    id: string,
    options: { ifMatch?: string; workspaceId?: string },
  ): Promise<Row> {
    const current = await this.row(tx, kind.kind, id, options.workspaceId, "update");
    if (!current) throw notFound(id);
    if (
      options.ifMatch &&
      options.ifMatch !== "*" &&
      !options.ifMatch
        .split(",")
        .map((t) => t.trim())
        .includes(etagOf(current.version))
    ) {
      throw problem(412, "record.stale", undefined, { currentETag: etagOf(current.version) });
    }
    return current;
  }

  /**
   * A record action (a broker client's revocation or new key): `change` decides, in the action's
   * transaction and on the locked row, the fields only the server sets and writes what else goes
   * with them; the record gets a new version (its ETag), and the trail an update listing the fields
   * changed and the action's own `changes`.
   */
  async act(
    kind: KindDefinition,
    id: string,
    options: { ifMatch?: string; workspaceId?: string },
    change: (current: Row, tx: Tx) => Promise<ActionChange>,
  ): Promise<{ item: Item; version: number }> {
    const by = this.actor;
    return this.db.transaction(async (tx) => {
      const current = await this.current(tx, kind, id, options);
      const { patch, changes = [] } = await change(current, tx);
      const [row] = await tx
        .update(records)
        .set({
          data: { ...current.data, ...patch },
          version: current.version + 1,
          updatedAt: new Date(),
        })
        .where(eq(records.id, id))
        .returning();
      if (by) await this.audit(tx, by, "update", kind, row!, [...changesOf(kind, current, row!), ...changes]);
      return { item: toItem(kind, row!), version: row!.version };
    });
  }

  async delete(kind: KindDefinition, id: string, workspaceId?: string): Promise<void> {
    const by = this.actor;
    await this.db.transaction(async (tx) => {
      const row = await this.row(tx, kind.kind, id, workspaceId, "update");
      if (!row) throw notFound(id);
      const { found: referrers, total } = await deleteBlockers(tx, this.kinds, kind, id);
      if (referrers.length) {
        const names = referrers.map((r) => r.name);
        throw problem(409, "record.inUse", { names }, { referrers, referrersTotal: total });
      }
      await tx.delete(records).where(eq(records.id, id));
      if (by) await this.audit(tx, by, "delete", kind, row, changesOf(kind, row, undefined));
    });
  }

  /**
   * What a delete of this record would meet, without deleting it (see deleteCheck in
   * delete-blockers.ts). 404 when the record is not of this kind in this workspace.
   */
  async deleteCheck(kind: KindDefinition, id: string, workspaceId?: string): Promise<DeleteCheck> {
    return this.db.transaction(async (tx) => {
      const row = await this.row(tx, kind.kind, id, workspaceId);
      if (!row) throw notFound(id);
      return deleteCheck(tx, this.kinds, kind, row);
    });
  }

  /** A grant bound to the peer it is first used with (see bindFirst in grant-binding.ts). */
  bindFirst(kind: KindDefinition, id: string, via: string, value: string): Promise<Row | undefined> {
    return bindFirst(this.db, this.binder, kind, id, via, value);
  }

  /** Who binds a grant (this view's actor) and how the binding is recorded (an update in the trail). */
  private get binder(): Binder {
    return {
      kinds: this.kinds,
      actor: this.actor as Binder["actor"],
      audited: async (tx, kind, before, after) => {
        if (this.actor)
          await this.audit(tx, this.actor, "update", kind, after, changesOf(kind, before, after));
      },
    };
  }

  /** The audit event of an update or a delete, in its transaction. */
  private async audit(
    tx: Tx,
    by: Actor,
    action: "update" | "delete",
    kind: KindDefinition,
    row: Row,
    changes: AuditEvent["changes"],
  ) {
    const title = await this.titleOf(tx, kind, row);
    await writeAudit(tx, by, [
      { action, kind: kind.kind, recordId: row.id, title, workspaceId: row.workspaceId, changes },
    ]);
  }

  /**
   * Every reference must name an existing record of the right kind (in the same workspace for
   * workspace-level kinds); FOR SHARE keeps it from being deleted meanwhile.
   */
  private async checkReferences(tx: Tx, kind: KindDefinition, data: Data, workspaceId = ""): Promise<void> {
    const wanted = referenceFields(kind).flatMap((f) =>
      [data[f.name] ?? []].flat().map((id, i) => ({ f, id: String(id), i })),
    );
    if (!wanted.length) return;
    // A record named through a `within` field may be bound to this record's choice (a grant without
    // its peer yet, see bindings below): locked for update at once, so that two records pairing it
    // with two peers at the same time wait for each other instead of deadlocking.
    const bindable = new Set(wanted.filter((w) => w.f.within).map((w) => w.id));
    const shared = [...new Set(wanted.map((w) => w.id))].filter((id) => !bindable.has(id));
    const found = [
      ...(bindable.size
        ? await tx
            .select()
            .from(records)
            .where(inArray(records.id, [...bindable]))
            .for("update")
        : []),
      ...(shared.length
        ? await tx
            .select({
              id: records.id,
              kind: records.kind,
              workspaceId: records.workspaceId,
              data: records.data,
            })
            .from(records)
            .where(inArray(records.id, shared))
            .for("share")
        : []),
    ];
    const bindings = new Map<string, { target: (typeof found)[number]; via: string; value: string }>();
    const scopeOf = (target: string) =>
      this.kinds.find((k) => k.kind === target)?.scope === "workspace" ? workspaceId : "";
    const errors = wanted.flatMap(({ f, id, i }): Array<FieldError | Outside> => {
      const path = f.input === "references" ? `${f.name}.${i}` : f.name;
      const target = found.find((r) => r.id === id && r.kind === f.kind && r.workspaceId === scopeOf(f.kind));
      if (!target)
        return [
          fieldError(path, scopeOf(f.kind) ? "field.unknownReferenceHere" : "field.unknownReference", {
            kind: f.kind,
          }),
        ];
      // A property offered by a data service must be one of its entity type's; a grant, the chosen peer's.
      if (f.within && target.data[f.within.via] !== data[f.within.field]) {
        const value = data[f.within.field];
        // A grant made without its peer (the spec's shape) takes the first one it is paired with.
        if (target.data[f.within.via] === undefined && typeof value === "string") {
          const bound = bindings.get(id);
          if (!bound || bound.value === value) {
            bindings.set(id, { target, via: f.within.via, value });
            return [];
          }
        }
        return [{ path, target, within: f.within }];
      }
      return [];
    });
    if (errors.length) throw invalid(await Promise.all(errors.map((e) => this.outside(tx, e))));
    for (const { target, via, value } of bindings.values())
      await bind(tx, this.binder, target as Row, via, value);
  }

  /** The error of a reference outside its `within`: it names the record and the one it belongs to. */
  private async outside(tx: Tx, error: FieldError | Outside): Promise<FieldError> {
    if (!("target" in error)) return error;
    const { path, target, within } = error;
    const name = String(target.data.name ?? "");
    const ownerId = target.data[within.via];
    if (typeof ownerId !== "string") return fieldError(path, "field.ofNone", { name, field: within.field });
    const [owner] = await tx.select({ name: records.name }).from(records).where(eq(records.id, ownerId));
    return fieldError(path, "field.ofAnother", { name, owner: owner?.name ?? ownerId, field: within.field });
  }

  /**
   * Records naming this one through a `within` reference must still be able to once it is changed
   * (a grant moved to another identity manager while workspaces pair it with the first): the records
   * that would stop matching, as a 409 names them.
   */
  private async keepPairings(tx: Tx, kind: KindDefinition, id: string, before: Data, after: Data) {
    const pairings = this.kinds.flatMap((other) =>
      referenceFields(other)
        .filter((f) => f.kind === kind.kind && f.within && before[f.within.via] !== after[f.within.via])
        .map((f) => ({ other, f, within: f.within! })),
    );
    if (!pairings.length) return;
    const rows = await tx
      .select(blockerColumns)
      .from(records)
      .where(
        or(
          ...pairings.map(({ other, f, within }) =>
            and(
              eq(records.kind, other.kind),
              sql`${records.data} @> ${JSON.stringify({ [f.name]: f.input === "references" ? [id] : id })}::jsonb`,
              sql`${records.data}->>${within.field} IS DISTINCT FROM ${after[within.via] ?? null}`,
            ),
          ),
        ),
      )
      .orderBy(asc(records.kind), asc(sql`lower(${records.name})`));
    if (!rows.length) return;
    const referrers = await blockersOf(tx, this.kinds, rows);
    const names = referrers.map((r) => r.name);
    const fields = [...new Set(pairings.map((p) => p.within.via))];
    throw problem(409, "record.dependents", { fields, names }, { referrers });
  }

  /**
   * Refuses an update that would leave records relying on this one invalid (a thing description
   * moved to another type under its WoT properties), with a 409 that names them as a delete's does.
   */
  private async keepDependents(tx: Tx, dependents: DependentsCheck, change: Change) {
    const scopeOf = (kind: KindDefinition) => (kind.scope === "workspace" ? (change.workspaceId ?? "") : "");
    const broken = (
      await dependents(change, {
        find: (kind, id) =>
          typeof id === "string" ? this.row(tx, kind.kind, id, scopeOf(kind)) : Promise.resolve(undefined),
        referring: async (kind, field, id) => {
          if (typeof id !== "string") return [];
          const many = kind.fields.find((f) => f.name === field)?.input === "references";
          return tx
            .select()
            .from(records)
            .where(
              and(
                eq(records.kind, kind.kind),
                eq(records.workspaceId, scopeOf(kind)),
                sql`${records.data} @> ${JSON.stringify({ [field]: many ? [id] : id })}::jsonb`,
              ),
            )
            .orderBy(asc(sql`lower(${records.name})`), asc(records.id));
        },
        carry: (kind, id, patch) => this.patchData(kind, id, patch, tx),
      })
    ).filter((b) => b.rows.length);
    if (!broken.length) return;
    const rows = [...new Map(broken.flatMap((b) => b.rows).map((r) => [r.id, r])).values()];
    const fields = [...new Set(broken.map((b) => b.field))];
    const referrers = await blockersOf(tx, this.kinds, rows);
    const names = referrers.map((r) => r.name);
    throw problem(409, "record.dependents", { fields, names }, { referrers });
  }

  /** Separates secret fields (encrypted) from the stored data; keeps stored secrets an update omits, if they still apply. */
  private split(kind: KindDefinition, input: Data, stored: Record<string, string>) {
    const data: Data = {};
    const secrets: Record<string, string> = {};
    const errors: FieldError[] = [];
    for (const field of kind.fields) {
      const value = input[field.name];
      if (field.secretValues) {
        const written = writeValues(this.cipher, field.name, value, stored[field.name]);
        errors.push(...written.errors);
        if (written.names) data[field.name] = written.names;
        if (written.sealed !== undefined) secrets[field.name] = written.sealed;
      } else if (!field.secret) {
        if (value !== undefined) data[field.name] = value;
      } else if (typeof value === "string") {
        secrets[field.name] = this.cipher.encrypt(value);
      }
    }
    for (const field of kind.fields) {
      if (
        field.secret &&
        secrets[field.name] === undefined &&
        stored[field.name] !== undefined &&
        whenHolds(field.when, data)
      ) {
        secrets[field.name] = stored[field.name]!;
      }
    }
    const missing = missingRequired(kind, { ...data, ...secrets }, "create").map((f) =>
      fieldError(f.name, "field.required"),
    );
    if (missing.length || errors.length) throw invalid([...missing, ...errors]);
    return { data, secrets };
  }
}
