import { Suspense } from "react";
import { useIsMutating } from "@tanstack/react-query";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { allKinds, properties, type KindDefinition } from "@orrery/model";
import { AuthenticationPage } from "../auth/AuthenticationPage.tsx";
import { CallbackPage } from "../auth/CallbackPage.tsx";
import { SessionExpiry } from "../auth/SessionExpiry.tsx";
import { routePaths } from "../routes.ts";
import { useSession } from "../auth/useSession.ts";
import { ActivityScreen } from "../audit/screens.ts";
import { DataAccessScreen } from "../data-access/screens.ts";
import { StatusScreen } from "../health/screens.ts";
import { TopBar } from "./TopBar.tsx";
import { Allowed, AllowedKindPage } from "./Allowed.tsx";
import { Toasts } from "./Toasts.tsx";
import { Alert, Spinner } from "./bootstrapMarkup.tsx";
import { fdscRoutes } from "../fdsc/routes.tsx";
import {
  AttributeCreate,
  AttributeEdit,
  AttributePage,
  EntityCreate,
  FormPage,
  ImportProperties,
  IndexPage,
  KindShowPage,
  RegistryTool,
  SubscriptionForm,
  SubscriptionPage,
  TemporalView,
  WorkspaceView,
} from "./screens.tsx";

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
      <Spinner variant="light" />
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
      <main className="container-lg py-3" id="main">
        {/*
          The page is re-created whenever the route path changes; not on a query change, so that
          selecting a type in the chart keeps its zoom and lets a double click through. The boundary
          stays: a navigation (a transition) whose screen code is still loading keeps the page
          shown until it is there, instead of a spinner held for React's reveal throttle.
        */}
        <Suspense fallback={<Spinner size="sm" role="status" />}>
          <div key={location.pathname}>
            <Routes>{signedInRoutes}</Routes>
          </div>
        </Suspense>
      </main>
      <SessionExpiry />
      <Toasts />
    </>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return <Alert variant="warning">{t("common.notFound")}</Alert>;
}

/** The generic pages of a kind; each loads its code with its route (screens.tsx). */
function kindPage(kind: KindDefinition, action: "index" | "create" | "show" | "edit") {
  if (action === "index") return <IndexPage kind={kind} />;
  if (action === "show") return <KindShowPage kind={kind} />;
  return <FormPage kind={kind} action={action} />;
}

/**
 * The pages behind the sign-in, matched by Authenticated once there is a session: without one, the
 * sign-in page ranks only its own two routes at each render, not these 130 (bench/console).
 */
const signedInRoutes = (
  <>
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
      path={routePaths.status}
      element={
        <Allowed when={(can) => can.can("GET", "/health/components")}>
          <StatusScreen />
        </Allowed>
      }
    />
    <Route
      path={routePaths.dataAccess}
      element={
        <Allowed when={(can) => can.can("GET", "/data-access")}>
          <DataAccessScreen />
        </Allowed>
      }
    />
    <Route
      path={routePaths.activity}
      element={
        <Allowed when={(can) => can.can("GET", "/audit")}>
          <ActivityScreen />
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
        <Allowed when={(can, { workspaceId }) => can.can("POST", `/workspace/${workspaceId}/subscriptions`)}>
          <SubscriptionForm />
        </Allowed>
      }
    />
    <Route path={routePaths["subscriptions.show"]} element={<SubscriptionPage />} />
    {fdscRoutes()}
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
  </>
);

export function App() {
  return (
    <>
      <BusyOverlay />
      <Routes>
        <Route path={routePaths.authentication} element={<AuthenticationPage />} />
        <Route path={routePaths["callbacks.authentication"]} element={<CallbackPage />} />
        <Route path="*" element={<Authenticated />} />
      </Routes>
    </>
  );
}
