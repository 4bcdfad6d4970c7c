import { describe, expect, it } from "vitest";
import { NgsiLdClient, type Entity } from "@orrery/ngsi-ld";
import { pageByName } from "../../src/context-data/entity-order.ts";

/** A broker of `count` buildings over real NGSI-LD answers (a fetch that counts what it is asked). */
function broker(entities: () => Entity[]) {
  const asked: string[] = [];
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    asked.push(url.searchParams.toString());
    await new Promise((r) => setTimeout(r, 20)); // a broker takes a while: callers overlap
    const q = url.searchParams.get("q");
    const attrs = url.searchParams.get("attrs");
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const matching = entities().filter((e) => (q === "!name" ? !e.name : attrs === "name" ? !!e.name : true));
    return new Response(JSON.stringify(matching.slice(offset, offset + limit)), {
      headers: { "content-type": "application/json", "ngsild-results-count": String(matching.length) },
    });
  }) as typeof globalThis.fetch;
  const client = (bearer: string) =>
    new NgsiLdClient({ baseUrl: "http://broker.test", implementationName: "orion-ld", bearer, fetch });
  return { asked, client };
}

const building = (i: number, named = true): Entity => ({
  id: `urn:ngsi-ld:Building:${i}`,
  type: "Building",
  ...(named ? { name: { type: "Property", value: `Building ${String(i).padStart(3, "0")}` } } : {}),
});

describe("a list in name order", () => {
  it("is read once for users who open it at the same time, and again by one who comes later", async () => {
    let stored = Array.from({ length: 30 }, (_, i) => building(i, i % 7 !== 0));
    const { asked, client } = broker(() => stored);
    const reads = () => asked.filter((q) => q.includes("attrs=name") || q.includes("q=%21name")).length;
    const pages = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        pageByName(client("same"), { type: "Building" }, { limit: 5, offset: i }),
      ),
    );
    expect(pages.every((p) => p.order === "name" && p.count === 30)).toBe(true);
    // Each its own page of the one sorted list.
    for (let i = 1; i < 5; i++) expect(pages[i]!.entities[0]).toEqual(pages[0]!.entities[i]);
    expect(reads()).toBe(2); // the named ones, then those without a name: once for all ten

    // A building added before the next request is in its answer.
    stored = [...stored, building(999)];
    const later = await pageByName(client("same"), { type: "Building" }, { limit: 50, offset: 0 });
    expect(later.count).toBe(31);
    expect(later.entities.map((e) => e.id)).toContain("urn:ngsi-ld:Building:999");
    expect(reads()).toBe(4);

    // Another caller (another token: the broker may answer it otherwise) reads for itself.
    await Promise.all([
      pageByName(client("one"), { type: "Building" }, { limit: 5, offset: 0 }),
      pageByName(client("other"), { type: "Building" }, { limit: 5, offset: 0 }),
    ]);
    expect(reads()).toBe(8);
  });
});
