import { queryClient } from "../queryClient.ts";
import { firstPageQuery } from "../startup.ts";
import { entityKeys, fetchEntities } from "./entityQueries.ts";

/**
 * Opening the workspace view on a type's list starts that list's first page at once, in parallel
 * with the view's code and its data model, instead of after it renders (bench/entities-console).
 */
export function prefetchFirstPage(workspaceId: string, search: URLSearchParams): void {
  const typeId = search.get("typeId");
  if (!typeId || search.get("entityId") || (search.get("activeTab") ?? "entities") !== "entities") return;
  const query = firstPageQuery(typeId);
  void queryClient.prefetchQuery({
    queryKey: entityKeys.list(workspaceId, query),
    queryFn: () => fetchEntities(workspaceId, query),
  });
}
