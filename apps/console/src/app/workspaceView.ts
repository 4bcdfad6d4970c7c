import { dataServices, properties, types, workspaces } from "@orrery/model";
import { prefetchFirstPage } from "../context-data/prefetch.ts";
import { queryClient } from "../queryClient.ts";
import { chartProperties, itemQuery, listQuery } from "../resources/queries.ts";
import { getSession } from "../session.ts";
import { workspaceAt } from "../startup.ts";

type Module = typeof import("../workspaces/WorkspaceView.tsx");
let workspaceView: Promise<Module> | undefined;

/**
 * The workspace view's code, loaded once (the chart's, with @xyflow/react and dagre, comes beside
 * it). The first call, on a workspace's address, also starts what the view shows first: the
 * entities tab's first page, the types, relationships and data services (the chart is laid out
 * once, from all three), the workspace record (whether the tabs show). On a start at a workspace's
 * address, startup.ts has already asked for them and preloaded the code: these calls take those.
 */
export function loadWorkspaceView(): Promise<Module> {
  if (workspaceView) return workspaceView;
  workspaceView = import("../workspaces/WorkspaceView.tsx");
  const workspaceId = workspaceAt(window.location.pathname);
  if (workspaceId && getSession()) {
    prefetchFirstPage(workspaceId, new URLSearchParams(window.location.search));
    for (const kind of [types, dataServices]) void queryClient.prefetchQuery(listQuery(kind, workspaceId));
    void queryClient.prefetchQuery(listQuery(properties, workspaceId, chartProperties));
    void queryClient.prefetchQuery(itemQuery(workspaces, workspaceId));
  }
  return workspaceView;
}
