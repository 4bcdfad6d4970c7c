import { queryClient } from "../queryClient.ts";
import { firstPageAt } from "../startup.ts";
import { entityKeys, fetchEntities } from "./entityQueries.ts";

/**
 * Opening the workspace view on a type's list starts that list's first page at once, in parallel
 * with the view's code and its data model, instead of after it renders (bench/entities-console).
 */
export function prefetchFirstPage(workspaceId: string, search: URLSearchParams): void {
  const query = firstPageAt(search);
  if (!query) return;
  void queryClient.prefetchQuery({
    queryKey: entityKeys.list(workspaceId, query),
    queryFn: () => fetchEntities(workspaceId, query),
  });
}
