import { useQueries } from "@tanstack/react-query";
import { useParams } from "react-router";
import { kindsByName, recordTitle, titleReferences, type KindDefinition } from "@orrery/model";
import { useCan } from "../permissions.ts";
import { listQuery, type Item } from "./queries.ts";

/**
 * Names records of the given kinds from their (cached) lists, those the user may read: what a title
 * needs of the records it refers to (an access's role and data service).
 */
export function useReferencedTitles(kindNames: readonly string[]) {
  const { workspaceId } = useParams();
  const can = useCan();
  const kinds = [...new Set(kindNames)].map((name) => kindsByName.get(name)!);
  const lists = useQueries({
    queries: kinds.map((kind) => {
      const scope = kind.scope === "workspace" ? workspaceId : undefined;
      return {
        ...listQuery(kind, scope),
        enabled: can.index(kind) && (kind.scope !== "workspace" || !!scope),
      };
    }),
  });
  return (kindName: string, id: string): string | undefined => {
    const at = kinds.findIndex((k) => k.kind === kindName);
    const record = (lists[at]?.data as Item[] | undefined)?.find((item) => item.id === id);
    return record ? recordTitle(kinds[at], record) : undefined;
  };
}

/** What records of a kind are called (see @orrery/model's recordTitle), their references looked up. */
export function useTitles(kind: KindDefinition | undefined): (item: Item) => string {
  const referenced = useReferencedTitles(kind ? titleReferences(kind).map((r) => r.kind) : []);
  return (item) => recordTitle(kind, item, referenced);
}

/** A record's title, once it is read. */
export function useTitle(kind: KindDefinition, item: Item | undefined): string | undefined {
  const titles = useTitles(kind);
  return item ? titles(item) : undefined;
}
