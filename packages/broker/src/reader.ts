import { sql } from "drizzle-orm";
import type { Broker } from "./broker.ts";
import { inForce, matchingInfo, offers } from "./registration-model.ts";
import { contextSourcesOf } from "./registration-store.ts";
import { renderEntity } from "./representation.ts";
import { toPgArray, type BrokerDatabase, type Row } from "./storage.ts";
import { typeCondition } from "./type-query.ts";

/**
 * The embedded broker read in the host's process, for reads that go through a whole type (the CSV
 * export of a million entities): what GET /entities?type=T would answer page after page, without
 * the HTTP round trip, the JSON text and the offset of each page. Entities come in id order from a
 * keyset cursor (`id > last ORDER BY id LIMIT n` on the primary key), each chunk read only when the
 * consumer asks for it, so that a slow reader holds one chunk in memory and no transaction.
 *
 * The host gets it from the plugin (BrokerOptions.reader) and uses it only for its own broker; the
 * policy enforcement point of /ngsi-ld/v1 admits the host's own credential anyway. When the tenant
 * has a registration in force that a query of the type would ask, the reader declines (undefined),
 * and the host reads over HTTP, where the broker merges the sources' answers.
 */
export interface EntityReader {
  /** Every entity of one type (a name, compacted with `context`), rendered normalized, in chunks. */
  entitiesOfType(options: {
    /** NGSILD-Tenant; "" or undefined: the default tenant. */
    tenant?: string;
    type: string;
    /** The @context URL the names are compacted with (the workspace's); undefined: the core context. */
    context?: string;
    /** Only these attributes (names, compacted with `context`); undefined: all of them. */
    attrs?: string[];
    /** Entities a chunk (default 2,000). */
    chunk?: number;
  }): Promise<AsyncGenerator<Array<Record<string, unknown>>> | undefined>;
  /** Which of these ids name an entity of the type (an import's created and updated counts), in one query. */
  existing(options: { tenant?: string; type: string; context?: string; ids: string[] }): Promise<Set<string>>;
  /**
   * How many entity writes of each tenant have committed, in one query: every entity write raises
   * it in its own transaction, whichever process made it, so what the host read from a tenant's
   * entities at a count still holds while the count is the same. A tenant never written to is absent.
   */
  writes(tenants: string[]): Promise<Map<string, string>>;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export function entityReader(db: BrokerDatabase, broker: Broker): EntityReader {
  return {
    async entitiesOfType({ tenant = "", type, context, attrs, chunk = 2000 }) {
      const ctx = await broker.contexts.compile(context);
      const types = { kind: "name" as const, name: type };
      const sources = contextSourcesOf(broker);
      if (sources) {
        const registrations = await sources.registrations.forReads(tenant);
        const asked = registrations.some(
          (r) =>
            inForce(r) &&
            (r.mode === "inclusive" || r.mode === "auxiliary") &&
            !r.management?.localOnly &&
            offers(r, "queryEntity") &&
            matchingInfo(r, { types }, (t) => ctx.expand(t)).length > 0,
        );
        if (asked) return undefined;
      }
      const condition = typeCondition(types, (t) => ctx.expand(t));
      const options = {
        format: "normalized" as const,
        sysAttrs: false,
        ...(attrs ? { attrs: new Set(attrs.map((a) => ctx.expand(a))) } : {}),
      };
      // Neither timestamp is rendered (no sysAttrs): not read, not parsed into dates. The types come
      // as JSON, which the drivers parse natively, not as a text[] literal parsed in JavaScript
      // (bench/city: a third of the reader's time at 100,000 entities went to these three columns).
      async function* chunks() {
        let last: string | undefined;
        for (;;) {
          const rows = rowsOf<Pick<Row, "id" | "types" | "attrs">>(
            await db.execute(
              sql`SELECT id, to_jsonb(types) AS types, attrs FROM broker_entities
                WHERE tenant = ${tenant} AND ${condition} ${last === undefined ? sql`` : sql`AND id > ${last}`}
                ORDER BY id LIMIT ${chunk}`,
            ),
          );
          if (!rows.length) return;
          last = rows.at(-1)!.id;
          yield rows.map(({ id, types, attrs }) =>
            renderEntity({ id, types, attrs, createdAt: "", modifiedAt: "" }, ctx, options),
          );
          if (rows.length < chunk) return;
        }
      }
      return chunks();
    },

    async existing({ tenant = "", type, context, ids }) {
      if (!ids.length) return new Set();
      const ctx = await broker.contexts.compile(context);
      const condition = typeCondition({ kind: "name", name: type }, (t) => ctx.expand(t));
      const rows = rowsOf<{ id: string }>(
        await db.execute(
          sql`SELECT id FROM broker_entities WHERE tenant = ${tenant} AND ${condition} AND id = ANY(${toPgArray(ids)}::text[])`,
        ),
      );
      return new Set(rows.map((r) => r.id));
    },

    async writes(tenants) {
      if (!tenants.length) return new Map();
      const rows = rowsOf<{ name: string; writes: string }>(
        await db.execute(
          sql`SELECT name, writes::text AS writes FROM broker_tenants WHERE name = ANY(${toPgArray(tenants)}::text[])`,
        ),
      );
      return new Map(rows.map((r) => [r.name, r.writes]));
    },
  };
}
