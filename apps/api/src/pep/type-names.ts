import { sql } from "drizzle-orm";
import { CORE_CONTEXT_URL, linkedContext } from "@orrery/broker";
import { types } from "@orrery/model";
import type { Config } from "../config.ts";
import { iri } from "../data-model/contexts.ts";
import type { Item, Records } from "../resources/records.ts";
import { rowsOf } from "../storage/database.ts";

const TTL_MS = 5_000;
const DEFAULT_VOCABULARY = "https://uri.etsi.org/ngsi-ld/default-context/";

/** A URL as fetch reads it (dot segments resolved, encoded dots included), or undefined when it is none. */
const normalised = (url: string): string | undefined => {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
};

/**
 * Entity types as a workspace names them, for the consumers' policies (they name `Shelf`, the broker
 * stores IRIs): a stored entity's type read back to the name its workspace gives it, and a request's
 * type term read as the broker will read it, with the request's @context. A request whose @context is
 * not the workspace's (nor none, the core's) could map a permitted name onto another type's IRI: its
 * terms name no type of the workspace, so nothing is permitted for them.
 */
export class WorkspaceTypes {
  private readonly cache = new Map<string, { at: number; list: Promise<Item[]> }>();

  constructor(
    private readonly records: Records,
    private readonly config: Config,
  ) {}

  private list(workspaceId: string): Promise<Item[]> {
    const cached = this.cache.get(workspaceId);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.list;
    const list = this.records.list(types, workspaceId);
    this.cache.set(workspaceId, { at: Date.now(), list });
    list.catch(() => this.cache.delete(workspaceId));
    return list;
  }

  /** The workspace's name of a type IRI, or undefined when its data model has no such type. */
  async nameOfIri(workspaceId: string, typeIri: string): Promise<string | undefined> {
    return (await this.list(workspaceId)).find((t) => iri(t) === typeIri)?.name as string | undefined;
  }

  /**
   * The stored types of an entity of a tenant, each as the first of these workspaces that has it
   * names it (a type none has stays its IRI, which no policy names).
   */
  async ofEntity(tenant: string, id: string, workspaceIds: readonly string[]): Promise<string[] | undefined> {
    const rows = rowsOf<{ types: string[] }>(
      await this.records.database.execute(
        sql`SELECT types FROM broker_entities WHERE tenant = ${tenant} AND id = ${id}`,
      ),
    );
    if (!rows[0]) return undefined;
    return Promise.all(
      rows[0].types.map(async (typeIri) => {
        for (const workspaceId of workspaceIds) {
          const name = await this.nameOfIri(workspaceId, typeIri);
          if (name) return name;
        }
        return typeIri;
      }),
    );
  }

  /**
   * The workspace's name of a type term of a request, read with the request's @context (its Link
   * header, or the body's with application/ld+json): undefined when that context is another one.
   */
  async nameOfTerm(
    workspaceId: string,
    dataModelName: string,
    term: string,
    context: { link?: string | string[]; body?: unknown },
  ): Promise<string | undefined> {
    const own = normalised(`${this.config.dataModelsUrl}/${dataModelName}/`);
    let urls: unknown[];
    try {
      const linked = linkedContext(context.link);
      const inBody =
        context.body && typeof context.body === "object"
          ? (context.body as { "@context"?: unknown })["@context"]
          : undefined;
      urls = [linked, inBody].flat().filter((c) => c !== undefined);
    } catch {
      return undefined;
    }
    // Compared as the broker will fetch them: `..` (or `%2e%2e`) in a Link under the workspace's
    // address leads to another data model's context.
    if (
      !own ||
      !urls.every(
        (u) => typeof u === "string" && (u === CORE_CONTEXT_URL || normalised(u)?.startsWith(own) === true),
      )
    )
      return undefined;
    const list = await this.list(workspaceId);
    const mapped = urls.some((u) => u !== CORE_CONTEXT_URL) && list.find((t) => t.name === term);
    const expanded = term.includes(":") ? term : mapped ? iri(mapped) : `${DEFAULT_VOCABULARY}${term}`;
    return this.nameOfIri(workspaceId, expanded);
  }
}
