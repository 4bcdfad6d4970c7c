import { types } from "@orrery/model";
import { queryClient } from "../queryClient.ts";
import { listQuery } from "../resources/queries.ts";
import { entityKeys, fetchEntities } from "./entityQueries.ts";

/** The query of a type's list as the entities tab first asks it: 20 rows, names only, with the count. */
export const firstPageQuery = (typeName: string): Record<string, string> => ({
  type: typeName,
  limit: "20",
  offset: "0",
  attrs: "name",
  count: "true",
});

/**
 * Opening the workspace view on a type's list starts that list's first page as soon as the types
 * are known, in parallel with the view's code, instead of after it renders (bench/entities-console).
 */
export function prefetchFirstPage(workspaceId: string, search: URLSearchParams): void {
  const typeId = search.get("typeId");
  if (!typeId || search.get("entityId") || (search.get("activeTab") ?? "entities") !== "entities") return;
  queryClient
    .fetchQuery(listQuery(types, workspaceId))
    .then((list) => {
      const type = list.find((t) => t.id === typeId);
      if (!type) return;
      const query = firstPageQuery(type.name);
      return queryClient.prefetchQuery({
        queryKey: entityKeys.list(workspaceId, query),
        queryFn: () => fetchEntities(workspaceId, query),
      });
    })
    .catch(() => undefined);
}
