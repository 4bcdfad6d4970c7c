import { describe, expect, it } from "vitest";
import type { BatchResult, Entity, NgsiLdClient } from "@orrery/ngsi-ld";
import { importRows, type ImportRow } from "../../src/context-data/entity-table.ts";

/**
 * The import writes several chunks at a time (entity-table.ts): a broker that finishes them out of
 * order must not change what the user sees: progress counts rows in file order, the preview is the
 * file's first rows, created and updated are counted per row, the rejected rows come by row number.
 */
const columns = [{ name: "name", ngsiLdType: "Property" as const, valueType: "String" as const }];
const rowsOf = (n: number): ImportRow[] =>
  Array.from({ length: n }, (_, i) => ({
    row: i + 2,
    // The names carry the bytes a regular expression fears.
    cells: { id: `urn:ngsi-ld:Lamp:${i}`, type: "Lamp", name: `.*+?(|\\ ${i}` },
  }));

/** A broker whose first batch answers last, that refuses one entity and knows the even ids. */
function slowFirstBroker(refused: string) {
  const written: string[][] = [];
  let calls = 0;
  const client = {
    async batchUpsert(entities: Entity[]): Promise<BatchResult> {
      const call = calls++;
      await new Promise((resolve) => setTimeout(resolve, call === 0 ? 150 : 10));
      written.push(entities.map((e) => e.id));
      const errors = entities
        .filter((e) => e.id === refused)
        .map((e) => ({ entityId: e.id, error: { type: "x", title: "Refused", detail: "no lamps here" } }));
      return { success: entities.filter((e) => e.id !== refused).map((e) => e.id), errors } as BatchResult;
    },
  } as unknown as NgsiLdClient;
  const existing = async (ids: string[]) =>
    new Set(ids.filter((id) => Number(/(\d+)$/.exec(id)![1]) % 2 === 0));
  return { client, existing, written };
}

describe("CSV import in chunks written side by side", () => {
  it("tells progress, preview, counts and rejected rows in file order when the broker answers out of order", async () => {
    const rows = rowsOf(1200);
    const refused = rows[698]!.cells.id!;
    const { client, existing, written } = slowFirstBroker(refused);
    const progress: number[] = [];
    const report = await importRows(client, "Lamp", columns, rows, {
      existing,
      onProgress: (done) => progress.push(done),
    });
    // The first chunk was written last, yet progress goes by the file.
    expect(written.map((ids) => ids.length)).toEqual([500, 200, 500]);
    expect(progress).toEqual([500, 1000, 1200]);
    expect(report).toMatchObject({ total: 1200, created: 600, updated: 599 });
    expect(report.rejected).toEqual([{ row: 700, id: refused, reason: "no lamps here" }]);

    const dry = await importRows(client, "Lamp", columns, rows, { existing, dryRun: true });
    expect(dry.preview).toHaveLength(100);
    expect(dry.preview!.map((p) => p.row)).toEqual(rows.slice(0, 100).map((r) => r.row));
    expect(dry.preview![1]).toEqual({ row: 3, id: rows[1]!.cells.id, action: "create" });
  });
});
