import { inArray } from "drizzle-orm";
import { recordTitle, titleReferences, type KindDefinition } from "@orrery/model";
import type { Database } from "../storage/database.ts";
import { records } from "../storage/schema.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * The titles of the records that the titles of these rows name (an access's role and data
 * service), read in one query: `(kind, id) => title` for @orrery/model's recordTitle.
 */
export async function namesOf(
  tx: Tx,
  rows: ReadonlyArray<{ kind: string; data: Record<string, unknown> }>,
  kindOf: (name: string) => KindDefinition | undefined,
): Promise<(kind: string, id: string) => string | undefined> {
  const ids = rows.flatMap((row) => {
    const kind = kindOf(row.kind);
    if (!kind || row.data.name) return [];
    return titleReferences(kind).flatMap(({ field }) =>
      typeof row.data[field] === "string" ? [row.data[field] as string] : [],
    );
  });
  if (!ids.length) return () => undefined;
  const found = await tx
    .select({ id: records.id, kind: records.kind, name: records.name, data: records.data })
    .from(records)
    .where(inArray(records.id, [...new Set(ids)]));
  return (kind, id) => {
    const row = found.find((r) => r.id === id && r.kind === kind);
    return row ? recordTitle(kindOf(kind), { ...row.data, id: row.id, name: row.name }) : undefined;
  };
}
