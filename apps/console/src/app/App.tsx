import { lazy, Suspense, type ReactNode } from "react";
import { Alert, Container, Spinner } from "react-bootstrap";
import { useIsMutating } from "@tanstack/react-query";
import { Navigate, Outlet, Route, Routes, useLocation, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import {
  allKinds,
  contractDetails,
  contracts,
  dataServices,
  properties,
  roles,
  types,
  workspaces,
  woTThingDescriptions,
  type KindDefinition,
} from "@orrery/model";
import { PublicThingDescriptionLink } from "../wot/PublicThingDescriptionLink.tsx";
import { SynchronizeContract, SynchronizeContractDetail, SynchronizeRole } from "../trust/Synchronize.tsx";
import { UsersPanel } from "../contracts/UsersPanel.tsx";
import type { Item } from "../resources/queries.ts";
import { AuthenticationPage } from "../auth/AuthenticationPage.tsx";
import { CallbackPage } from "../auth/CallbackPage.tsx";
import { SessionExpiry } from "../auth/SessionExpiry.tsx";
import { ListPage } from "../resources/ListPage.tsx";
import { ShowPage } from "../resources/ShowPage.tsx";
import { routePaths } from "../routes.ts";
import { useSession } from "../auth/useSession.ts";
import { AutoDiscover } from "../workspaces/AutoDiscover.tsx";
import { GenerateDataModel } from "../workspaces/GenerateDataModel.tsx";
import { ImportPropertiesLink } from "../workspaces/ImportPropertiesLink.tsx";
import { TypeContextLink } from "../workspaces/TypeContextLink.tsx";
import { WorkspacesPage } from "../workspaces/WorkspacesPage.tsx";
import { DirectionMarker, directionOf } from "../workspaces/direction.tsx";
import { TopBar } from "./TopBar.tsx";
import { Allowed, AllowedKindPage } from "./Allowed.tsx";
import { Toasts } from "./Toasts.tsx";
import { loadedWorkspaceView, loadWorkspaceView } from "./workspaceView.ts";

const RegistryTool = lazy(() => import("../tools/AuthorizationRegistryTool.tsx"));
// The workspace view and its chart (@xyflow/react): loaded when a workspace opens, with its data
// (workspaceView.ts).
const LazyWorkspaceView = lazy(() => loadWorkspaceView().then((m) => ({ default: m.WorkspaceView })));
function WorkspaceView() {
  const Loaded = loadedWorkspaceView();
  return Loaded ? <Loaded /> : <LazyWorkspaceView />;
}
// The import screen is reached from a type: loaded when it opens.
const ImportProperties = lazy(() =>
  import("../workspaces/ImportProperties.tsx").then((m) => ({ default: m.ImportProperties })),
);
// Context data (entities, attributes, temporal view, subscriptions): each screen loaded when it opens.
const EntityCreate = lazy(() => import("../context-data/EntityCreate.tsx"));
const AttributePage = lazy(() => import("../context-data/AttributePage.tsx"));
const AttributeCreate = lazy(() =>
  import("../context-data/AttributeForm.tsx").then((m) => ({ default: m.AttributeCreate })),
);
const AttributeEdit = lazy(() =>
  import("../context-data/AttributeForm.tsx").then((m) => ({ default: m.AttributeEdit })),
);
const TemporalView = lazy(() => import("../context-data/TemporalView.tsx"));
const SubscriptionForm = lazy(() => import("../context-data/SubscriptionForm.tsx"));
const SubscriptionPage = lazy(() => import("../context-data/SubscriptionPage.tsx"));
// Forms carry react-hook-form and the zod schemas: loaded when a form opens, not on the first screen.
const FormPage = lazy(() => import("../resources/FormPage.tsx").then((m) => ({ default: m.FormPage })));

/**
 * The spec's full-screen spinner while any save, delete or synchronise call runs; not over a call
 * that shows its own progress (an entities import: `meta: { background: true }`).
 */
function BusyOverlay() {
  const { t } = useTranslation();
  const busy = useIsMutating({ predicate: (m) => !m.options.meta?.background });
  if (busy === 0) return null;
  return (
    <div className="busy-overlay" role="status" aria-live="polite">
      <Spinner animation="border" variant="light" />
      <span className="visually-hidden">{t("app.loading")}</span>
    </div>
  );
}

/** Navigation guard: without a session only the authentication routes are reachable. */
function Authenticated() {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    sessionStorage.setItem("orrery.returnTo", location.pathname + location.search);
    return <Navigate to={routePaths.authentication!} replace state={{ from: location.pathname }} />;
  }
  return (
    <>
      <TopBar />
      <Container as="main" fluid="lg" className="py-3" id="main">
        {/*
          The page is re-created whenever the route path changes; not on a query change, so that
          selecting a type in the chart keeps its zoom and lets a double click through.
        */}
        <div key={location.pathname}>
          <Suspense fallback={<Spinner animation="border" size="sm" role="status" />}>
            <Outlet />
          </Suspense>
        </div>
      </Container>
      <SessionExpiry />
      <Toasts />
    </>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return <Alert variant="warning">{t("common.notFound")}</Alert>;
}

/**
 * The generic pages of a kind, with what is its own: the types' Auto-discover and Generate buttons,
 * a type's context file link and its properties' Import button.
 */
function kindPage(kind: KindDefinition, action: "index" | "create" | "show" | "edit") {
  const { routeName } = kind;
  if (action === "index")
    return routeName === workspaces.routeName ? (
      <WorkspacesPage />
    ) : (
      <ListPage
        kind={kind}
        actions={kind === types ? <TypesGenerate /> : undefined}
        cells={kind === dataServices ? dataServiceCells : undefined}
      />
    );
  if (action === "show")
    return (
      <ShowPage
        kind={kind}
        extra={extras[kind.kind]}
        childActions={kind === types ? { [properties.kind]: <ImportPropertiesLink /> } : undefined}
        deleteLocked={lockedDeletes.has(kind.kind) ? <DeleteLocked kind={kind} /> : undefined}
      />
    );
  return <FormPage kind={kind} action={action} />;
}

/** What a kind's show page has of its own: a type's context file link, a contract detail's users, a thing description's public URL. */
const extras: Record<string, (item: Item) => ReactNode> = {
  [types.kind]: (type) => <TypeContextLink type={type} />,
  [contractDetails.kind]: (detail) => (
    <>
      <SynchronizeContractDetail detail={detail} />
      <UsersPanel detail={detail} />
    </>
  ),
  [woTThingDescriptions.kind]: (td) => <PublicThingDescriptionLink td={td} />,
  [roles.kind]: (role) => <SynchronizeRole role={role} />,
  [contracts.kind]: (contract) => <SynchronizeContract contract={contract} />,
};

/** The data services list's direction column (spec section 2, Data services). */
const dataServiceCells = {
  direction: (item: Record<string, unknown>) => <DirectionMarker direction={directionOf([item])} />,
};

/**
 * Kinds whose delete button is shown but stays disabled (spec section 2): a role's policy may be in
 * an authorization registry, a contract's stakeholder in a trusted issuers list.
 */
const lockedDeletes = new Set(["roles", "contracts"]);

function DeleteLocked({ kind }: { kind: KindDefinition }) {
  const { t } = useTranslation();
  return <>{t(`${kind.routeName}.deleteLocked`)}</>;
}

function TypesGenerate() {
  const { workspaceId = "" } = useParams();
  return (
    <>
      <AutoDiscover workspaceId={workspaceId} />
      <GenerateDataModel workspaceId={workspaceId} />
    </>
  );
}

export function App() {
  return (
    <>
      <BusyOverlay />
      <Routes>
        <Route path={routePaths.authentication} element={<AuthenticationPage />} />
        <Route path={routePaths["callbacks.authentication"]} element={<CallbackPage />} />
        <Route element={<Authenticated />}>
          <Route index element={<Navigate to={routePaths["workspaces.index"]!} replace />} />
          <Route path={routePaths.workspace} element={<WorkspaceView />} />
          <Route
            path={routePaths["tools.authorizationRegistries.home"]}
            element={
              <Allowed when={(can) => can.registryTool && !can.showroom}>
                <RegistryTool />
              </Allowed>
            }
          />
          <Route
            path={routePaths["properties.import"]}
            element={
              <Allowed when={(can) => can.store(properties)}>
                <ImportProperties />
              </Allowed>
            }
          />
          <Route
            path={routePaths["entities.create"]}
            element={
              <Allowed when={(can, { workspaceId }) => can.can("POST", `/workspace/${workspaceId}/entities`)}>
                <EntityCreate />
              </Allowed>
            }
          />
          <Route path={routePaths["entities.properties.create"]} element={<AttributeCreate />} />
          <Route path={routePaths["entities.properties.show"]} element={<AttributePage />} />
          <Route path={routePaths["entities.properties.edit"]} element={<AttributeEdit />} />
          <Route path={routePaths["temporalEntities.properties.show"]} element={<TemporalView />} />
          <Route
            path={routePaths["subscriptions.create"]}
            element={
              <Allowed
                when={(can, { workspaceId }) => can.can("POST", `/workspace/${workspaceId}/subscriptions`)}
              >
                <SubscriptionForm />
              </Allowed>
            }
          />
          <Route path={routePaths["subscriptions.show"]} element={<SubscriptionPage />} />
          {allKinds.flatMap((kind) =>
            (["index", "create", "show", "edit"] as const)
              .filter((action) => routePaths[`${kind.routeName}.${action}`])
              .map((action) => (
                <Route
                  key={`${kind.kind}.${action}`}
                  path={routePaths[`${kind.routeName}.${action}`]}
                  element={
                    <AllowedKindPage kind={kind} action={action}>
                      {kindPage(kind, action)}
                    </AllowedKindPage>
                  }
                />
              )),
          )}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </>
  );
}
