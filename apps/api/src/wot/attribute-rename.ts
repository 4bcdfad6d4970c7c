import type { FastifyRequest } from "fastify";
import { properties, types, woTProperties } from "@orrery/model";
import type { Config } from "../config.ts";
import { workspaceData } from "../context-data/workspace-data.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";

type Data = Record<string, unknown>;

/** How many entities of the type carry the attribute in the workspace's broker; undefined when it cannot tell. */
async function carrying(
  records: Records,
  config: Config,
  workspaceId: string,
  request: FastifyRequest,
  typeName: string,
  attribute: string,
) {
  try {
    const data = await workspaceData(records, config, workspaceId, request);
    const client = await data.broker();
    const page = await client.queryEntities({ type: typeName, attrs: [attribute], count: true, limit: 1 });
    return page.count ?? page.entities.length;
  } catch {
    return undefined;
  }
}

/**
 * A property of the data model that WoT properties read keeps its name: the entities carry the
 * attribute under it, and a TD reading another name would answer 404 for each of them (spec
 * section 9). A rename is refused with a 409 naming the WoT properties (linked, as a record's
 * dependents are) and the number of entities that carry the attribute.
 */
export async function refuseRenameUnderThings(
  records: Records,
  config: Config,
  input: Data,
  at: { id?: string; workspaceId?: string; request?: FastifyRequest },
) {
  const { id, workspaceId, request } = at;
  if (!id || !workspaceId) return;
  const current = await records.find(properties, id, workspaceId);
  if (!current || input.name === undefined || current.data.name === input.name) return;
  const readers = (await records.list(woTProperties, workspaceId)).filter((w) => w.hasProperty === id);
  if (!readers.length) return;
  const name = String(current.data.name);
  const type = await records.find(types, String(current.data.hasType), workspaceId);
  const count = request
    ? await carrying(records, config, workspaceId, request, String(type?.data.name ?? ""), name)
    : undefined;
  const referrers = readers.map((w) => ({
    id: w.id,
    kind: woTProperties.kind,
    name: String(w.name),
    workspaceId,
    refs: { hasProperty: id, hasWoTThingDescription: w.hasWoTThingDescription },
  }));
  const names = readers.map((w) => String(w.name));
  throw count === undefined
    ? problem(409, "record.dependents", { fields: ["name"], names }, { referrers })
    : problem(409, "wot.attributeRenamed", { name, names, count }, { referrers, entities: count });
}
