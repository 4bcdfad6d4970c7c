import { useQuery } from "@tanstack/react-query";
import { itemPath, type KindDefinition } from "@orrery/model";
import { get } from "../api.ts";
import type { Blocker } from "../errors/Blockers.tsx";
import { recordKeys } from "./queries.ts";

/** What a delete would meet, as the API answers it before the delete (GET {record}/delete-check). */
export interface DeleteCheck {
  /** The records that keep it from deletion: the delete would answer 409 naming them. */
  blockers: Blocker[];
  /** How many records keep it: more than `blockers` names when the API lists only the first (a workspace's 50). */
  blockersTotal?: number;
  /** The records whose links held by this one go with it (a data service's properties and actions). */
  cascades: Blocker[];
}

/**
 * Asked when a delete's confirmation opens, and again at every opening (what refers to a record
 * changes as others work): never served from an older answer.
 */
export function useDeleteCheck(
  kind: KindDefinition,
  id: string,
  workspaceId: string | undefined,
  asking: boolean,
) {
  return useQuery({
    queryKey: [...recordKeys.item(kind.kind, id, workspaceId), "delete-check"],
    queryFn: () => get<DeleteCheck>(`${itemPath(kind, id, workspaceId)}/delete-check`),
    enabled: asking && !!id,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
