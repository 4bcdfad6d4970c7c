import { describe, expect, it } from "vitest";
import { WriteBatch } from "../src/storage/write-batch.ts";

describe("writes made at the same time (WriteBatch)", () => {
  it("writes one alone at once, those that arrive together in one batch, those that arrive meanwhile in the next", async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const batch = new WriteBatch<number>(async (items) => {
      batches.push(items);
      if (batches.length === 2) await new Promise<void>((r) => (release = r));
    });
    await batch.add(1);
    expect(batches).toEqual([[1]]);
    const together = [2, 3, 4].map((n) => batch.add(n));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1], [2, 3, 4]]);
    // Arriving while [2, 3, 4] is in the database: the next batch, once it is written.
    const meanwhile = [5, 6].map((n) => batch.add(n));
    await new Promise((r) => setImmediate(r));
    expect(batches).toHaveLength(2);
    release();
    await Promise.all([...together, ...meanwhile]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it("writes a failed batch again one by one, so that only the faulty write fails, with its own error", async () => {
    const written: number[] = [];
    const batch = new WriteBatch<number>(async (items) => {
      if (items.includes(13)) throw new Error(`unlucky ${items.join(",")}`);
      written.push(...items);
    });
    const answers = await Promise.allSettled([11, 12, 13, 14].map((n) => batch.add(n)));
    expect(answers.map((a) => a.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((answers[2] as PromiseRejectedResult).reason.message).toBe("unlucky 13");
    expect(written).toEqual([11, 12, 14]);
  });

  it("sends the next batch while one is in the database when it has two lanes, not a third", async () => {
    const batches: number[][] = [];
    const releases: Array<() => void> = [];
    const batch = new WriteBatch<number>(async (items) => {
      batches.push(items);
      await new Promise<void>((r) => releases.push(r));
    }, 2);
    const first = batch.add(1);
    await new Promise((r) => setImmediate(r));
    const second = batch.add(2);
    await new Promise((r) => setImmediate(r));
    const third = [3, 4].map((n) => batch.add(n));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1], [2]]);
    releases.shift()!();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1], [2], [3, 4]]);
    while (releases.length) releases.shift()!();
    await Promise.all([second, ...third]);
  });

  it("keeps batches to their maximum size", async () => {
    const sizes: number[] = [];
    const batch = new WriteBatch<number>(async (items) => void sizes.push(items.length), 1, 3);
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => batch.add(n)));
    expect(sizes).toEqual([3, 3, 1]);
  });
});
