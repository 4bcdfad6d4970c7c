import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { itemPath, recordTitle, referenceFields, type KindDefinition } from "@orrery/model";
import type { Database } from "../storage/database.ts";
import { records } from "../storage/schema.ts";
import { namesOf } from "./titles.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Row = typeof records.$inferSelect;
type Kinds = readonly KindDefinition[];

/** A record a delete would meet, as a delete's 409 names it (`referrers`). */
export interface Blocker {
  id: string;
  kind: string;
  /** Its title (an access reads "role → data service"). */
  name: string;
  workspaceId?: string;
  /** The records it refers to, by field: the console's page of it may sit under one. */
  refs?: Record<string, unknown>;
}

/**
 * What a delete would meet, answered without deleting: the records that keep it from deletion
 * (the 409's `referrers`), and the records whose links to it go with it; each with its API address.
 */
export interface DeleteCheck {
  blockers: Array<Blocker & { href?: string }>;
  /** How many records keep it: more than `blockers` names when a workspace holds more than it lists. */
  blockersTotal: number;
  cascades: Array<Blocker & { href?: string }>;
}

/** The columns a blocker is named from. */
export const blockerColumns = {
  id: records.id,
  kind: records.kind,
  name: records.name,
  workspaceId: records.workspaceId,
  data: records.data,
};

/** How many of what a workspace holds a delete check or a refused delete lists (it says how many more). */
const CONTENTS_LISTED = 50;

/**
 * The records that keep another from deletion, as a 409 names them: kind, id, title (see
 * @orrery/model's recordTitle: an access reads "role → data service"), its workspace and the
 * records it refers to (the console links it to its page, which may sit under a parent).
 */
export async function blockersOf(
  tx: Tx,
  kinds: Kinds,
  rows: Array<Pick<Row, "id" | "kind" | "name" | "workspaceId" | "data">>,
): Promise<Blocker[]> {
  const kindOf = (name: string) => kinds.find((k) => k.kind === name);
  const referenced = await namesOf(tx, rows, kindOf);
  return rows.map((row) => {
    const kind = kindOf(row.kind);
    const refs = Object.fromEntries(
      (kind ? referenceFields(kind) : [])
        .filter((f) => f.input === "reference" && typeof row.data[f.name] === "string")
        .map((f) => [f.name, row.data[f.name]]),
    );
    return {
      id: row.id,
      kind: row.kind,
      name: recordTitle(kind, { ...row.data, id: row.id, name: row.name }, referenced),
      ...(row.workspaceId ? { workspaceId: row.workspaceId } : {}),
      ...(Object.keys(refs).length ? { refs } : {}),
    };
  });
}

/**
 * The records a delete waits for: those that refer to it, and what a workspace holds (the first
 * CONTENTS_LISTED of it); `total` counts them all.
 */
export async function deleteBlockers(tx: Tx, kinds: Kinds, kind: KindDefinition, id: string) {
  const found = await referrers(tx, kinds, kind, id);
  const { listed, total } = await contents(tx, kinds, kind, id);
  return { found: [...found, ...listed], total: found.length + total };
}

/** What a workspace holds (types, properties, ...): it cannot be deleted before them. */
async function contents(tx: Tx, kinds: Kinds, kind: KindDefinition, id: string) {
  if (kind.kind !== "workspaces") return { listed: [], total: 0 };
  const rows = await tx
    .select(blockerColumns)
    .from(records)
    .where(eq(records.workspaceId, id))
    .orderBy(asc(records.kind), asc(sql`lower(${records.name})`))
    .limit(CONTENTS_LISTED);
  let total = rows.length;
  if (total === CONTENTS_LISTED) {
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(records)
      .where(eq(records.workspaceId, id));
    total = counted!.n;
  }
  return { listed: await blockersOf(tx, kinds, rows), total };
}

/** Records of any kind whose reference fields point at this id. */
async function referrers(tx: Tx, kinds: Kinds, target: KindDefinition, id: string) {
  const conditions = kinds.flatMap((kind) =>
    referenceFields(kind)
      .filter((f) => f.kind === target.kind)
      .map((f) =>
        and(
          eq(records.kind, kind.kind),
          sql`${records.data} @> ${JSON.stringify({ [f.name]: f.input === "references" ? [id] : id })}::jsonb`,
        )!,
      ),
  );
  if (!conditions.length) return [];
  const rows = await tx
    .select(blockerColumns)
    .from(records)
    .where(or(...conditions))
    .orderBy(asc(records.kind), asc(sql`lower(${records.name})`));
  return blockersOf(tx, kinds, rows);
}

/**
 * What a delete of this record would meet, without deleting it (GET .../delete-check): the
 * records that keep it from deletion, found by the same code as the delete's 409, and what goes
 * with it (the links a record holds in its own row: a data service's to its properties and data
 * actions). `row` is the record, found by the caller in its kind and workspace.
 */
export async function deleteCheck(
  tx: Tx,
  kinds: Kinds,
  kind: KindDefinition,
  row: Row,
): Promise<DeleteCheck> {
  const { found: blockers, total } = await deleteBlockers(tx, kinds, kind, row.id);
  const links = referenceFields(kind).flatMap((f) =>
    f.linked ? [row.data[f.name] ?? []].flat().map((target) => ({ kind: f.kind, id: String(target) })) : [],
  );
  const found = links.length
    ? await tx
        .select(blockerColumns)
        .from(records)
        .where(inArray(records.id, [...new Set(links.map((l) => l.id))]))
        .orderBy(asc(records.kind), asc(sql`lower(${records.name})`))
    : [];
  const scopeOf = (target: string) =>
    kinds.find((k) => k.kind === target)?.scope === "workspace" ? row.workspaceId : "";
  const cascades = await blockersOf(
    tx,
    kinds,
    found.filter(
      (r) => links.some((l) => l.id === r.id && l.kind === r.kind) && r.workspaceId === scopeOf(r.kind),
    ),
  );
  const placed = await withFurtherRefs(tx, kinds, [...blockers, ...cascades]);
  const withHref = (found: Blocker): Blocker & { href?: string } => {
    const kind = kinds.find((k) => k.kind === found.kind);
    return kind
      ? {
          ...found,
          href: `/api${itemPath(kind, encodeURIComponent(found.id), encodeURIComponent(found.workspaceId ?? ""))}`,
        }
      : found;
  };
  return {
    blockers: placed.slice(0, blockers.length).map(withHref),
    blockersTotal: total,
    cascades: placed.slice(blockers.length).map(withHref),
  };
}

/**
 * Records named with the references of the records they refer to as well, a few levels up (a
 * routing operation's routing's thing description): the console's page of a record may sit
 * under all of them. A reference of the record's own is never replaced.
 */
async function withFurtherRefs(tx: Tx, kinds: Kinds, found: Blocker[], levels = 3): Promise<Blocker[]> {
  let named = found;
  for (let level = 0; level < levels; level++) {
    const ids = [
      ...new Set(named.flatMap((b) => Object.values(b.refs ?? {}).filter((v) => typeof v === "string"))),
    ] as string[];
    if (!ids.length) break;
    const rows = await tx
      .select({ id: records.id, kind: records.kind, data: records.data })
      .from(records)
      .where(inArray(records.id, ids));
    const refsOf = new Map(
      rows.map((row) => {
        const kind = kinds.find((k) => k.kind === row.kind);
        const fields = kind ? referenceFields(kind).filter((f) => f.input === "reference") : [];
        return [
          row.id,
          Object.fromEntries(
            fields.filter((f) => typeof row.data[f.name] === "string").map((f) => [f.name, row.data[f.name]]),
          ),
        ];
      }),
    );
    let grew = false;
    named = named.map((b) => {
      const further = Object.values(b.refs ?? {}).map((id) => refsOf.get(id as string) ?? {});
      const refs = Object.assign({}, ...further.reverse(), b.refs) as Record<string, unknown>;
      if (Object.keys(refs).length === Object.keys(b.refs ?? {}).length) return b;
      grew = true;
      return { ...b, refs };
    });
    if (!grew) break;
  }
  return named;
}
