import { kindsByName, referenceFields } from "@orrery/model";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import type { records as table } from "../storage/schema.ts";

type Row = Pick<typeof table.$inferSelect, "id" | "kind" | "data">;

/**
 * Refuses a grant that is not the peer's own, before any of its secrets is decrypted or sent: an
 * identity manager grant signs in at the identity manager it names only, a registry grant's key signs
 * for its registry only. The API refuses such pairings when records are saved; this holds for records
 * saved before that rule, and for the registry tool, whose caller names both in the query (with
 * `bind`, a grant that has no peer yet takes the one named).
 */
export async function requireOwnGrant(
  records: Records,
  grant: Row,
  peer: Row,
  options: { bind?: boolean } = {},
): Promise<void> {
  const peerKind = kindsByName.get(peer.kind)!;
  const grantKind = kindsByName.get(grant.kind)!;
  const field = referenceFields(grantKind).find((f) => f.kind === peer.kind);
  let ownerId = field && grant.data[field.name];
  // A grant made in the spec's shape, without its peer, is bound to the first one it is used with
  // where the caller names both (the registry tool): as a record pairing it would bind it.
  if (options.bind && field && ownerId === undefined)
    ownerId = (await records.bindFirst(grantKind, grant.id, field.name, peer.id))?.data[field.name];
  if (ownerId === peer.id) return;
  const names = { grant: String(grant.data.name ?? grant.id), peer: String(peer.data.name ?? peer.id) };
  if (typeof ownerId !== "string") throw problem(409, "grant.ofNoPeer", names);
  const owner = await records.find(peerKind, ownerId);
  throw problem(409, "grant.ofAnotherPeer", { ...names, owner: String(owner?.data.name ?? ownerId) });
}
