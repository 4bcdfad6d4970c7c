import { lazy, useState, type ComponentType } from "react";
import { matchRoutes } from "react-router";
import { allKinds, types, workspaces, type KindDefinition } from "@orrery/model";
import { queryClient } from "../queryClient.ts";
import { listQuery } from "../resources/queries.ts";
import { getSession } from "../session.ts";
import { routePaths } from "../routes.ts";
import { loadWorkspaceView } from "./workspaceView.ts";

type Code<P> = Promise<{ default: ComponentType<P> }>;

/**
 * A screen whose code loads with its route, so that the first screen's code stays the same however
 * many screens there are (bench/console). `preload` starts the load ahead (the first render, a
 * sign-in's way back). A screen whose code has arrived renders at once; one that suspends shows
 * only 300 ms after the route's spinner (React's Suspense reveal throttle).
 */
export function screen<P extends object>(load: () => Code<P>) {
  let code: Code<P> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    (code ??= load().then((m) => {
      loaded = m.default;
      return m;
    }));
  const Lazy = lazy(preload);
  function Screen(props: P) {
    // Chosen once per mount: switching from Lazy to the loaded component would remount the page.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Screen, { preload });
}

/** A module's component by its name, as React.lazy takes it. */
const named = <M, K extends keyof M>(code: Promise<M>, name: K) => code.then((m) => ({ default: m[name] }));

// A kind's pages (workspace-scoped or not): its list, its show page with what is its own, its form.
const KindIndexPage = screen(() => import("./KindIndexPage.tsx"));
const WorkspacesPage = screen(() => named(import("../workspaces/WorkspacesPage.tsx"), "WorkspacesPage"));
const TypesIndexPage = screen(() => import("./TypesIndexPage.tsx"));
export const KindShowPage = screen(() => import("./KindShowPage.tsx"));
// Forms carry react-hook-form and the zod schemas.
export const FormPage = screen(() => named(import("../resources/FormPage.tsx"), "FormPage"));
// The workspace view and its chart (@xyflow/react), with its data (workspaceView.ts).
export const WorkspaceView = screen(() => named(loadWorkspaceView(), "WorkspaceView"));
export const ImportProperties = screen(() =>
  named(import("../workspaces/ImportProperties.tsx"), "ImportProperties"),
);
export const RegistryTool = screen(() => import("../tools/AuthorizationRegistryTool.tsx"));
// Context data: entities, attributes, the temporal view, subscriptions.
export const EntityCreate = screen(() => import("../context-data/EntityCreate.tsx"));
export const AttributePage = screen(() => import("../context-data/AttributePage.tsx"));
export const AttributeCreate = screen(() =>
  named(import("../context-data/AttributeForm.tsx"), "AttributeCreate"),
);
export const AttributeEdit = screen(() =>
  named(import("../context-data/AttributeForm.tsx"), "AttributeEdit"),
);
export const TemporalView = screen(() => import("../context-data/TemporalView.tsx"));
export const SubscriptionForm = screen(() => import("../context-data/SubscriptionForm.tsx"));
export const SubscriptionPage = screen(() => import("../context-data/SubscriptionPage.tsx"));

/** A kind's list screen: the workspaces' and the types' are their own. */
export const IndexPage = ({ kind }: { kind: KindDefinition }) =>
  kind === workspaces ? (
    <WorkspacesPage />
  ) : kind === types ? (
    <TypesIndexPage />
  ) : (
    <KindIndexPage kind={kind} />
  );
const indexScreenOf = (kind?: KindDefinition) =>
  kind === workspaces ? WorkspacesPage : kind === types ? TypesIndexPage : KindIndexPage;

/** The screen of each named route (routes.ts); a kind's routes by their action. */
const byRoute: Record<string, { preload: () => Promise<unknown> }> = {
  workspace: WorkspaceView,
  "tools.authorizationRegistries.home": RegistryTool,
  "properties.import": ImportProperties,
  "entities.create": EntityCreate,
  "entities.properties.create": AttributeCreate,
  "entities.properties.show": AttributePage,
  "entities.properties.edit": AttributeEdit,
  "temporalEntities.properties.show": TemporalView,
  "subscriptions.create": SubscriptionForm,
  "subscriptions.show": SubscriptionPage,
};
const byAction = { show: KindShowPage, create: FormPage, edit: FormPage };

const routes = Object.entries(routePaths).map(([id, path]) => ({ id, path }));

/**
 * Starts loading the code of the screen at this address (none for the sign-in pages), and a
 * platform list's records with it: the list page would ask for them only once its code has run and
 * the permissions have come (a sign-in's way back, bench/console).
 */
export function preloadScreenAt(pathname: string): Promise<unknown> {
  const name = matchRoutes(routes, pathname)?.at(-1)?.route.id ?? "";
  const [routeName, action] = name.split(".") as [string, string | undefined];
  const kind = allKinds.find((k) => k.routeName === routeName);
  if (action === "index" && kind?.scope === "platform" && getSession())
    void queryClient.prefetchQuery(listQuery(kind));
  const found =
    byRoute[name] ?? (action === "index" ? indexScreenOf(kind) : byAction[action as keyof typeof byAction]);
  return found ? found.preload() : Promise.resolve();
}

/**
 * What the first render waits for: a signed-in start's screen code (on a workspace's address the
 * view's, whose data startup.ts has already asked for). Rendering first and suspending costs more
 * than the wait (the reveal throttle).
 */
export function firstScreen(): Promise<unknown> {
  if (!getSession()) return Promise.resolve();
  return preloadScreenAt(window.location.pathname).catch(() => undefined); // the route's lazy shows a failure
}
