import { lazy, Suspense } from "react";
import { Alert, Container, Spinner } from "react-bootstrap";
import { useIsMutating } from "@tanstack/react-query";
import { Navigate, Outlet, Route, Routes, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { platformKinds } from "@orrery/model";
import { AuthenticationPage } from "../auth/AuthenticationPage.tsx";
import { CallbackPage } from "../auth/CallbackPage.tsx";
import { SessionExpiry } from "../auth/SessionExpiry.tsx";
import { ListPage } from "../resources/ListPage.tsx";
import { ShowPage } from "../resources/ShowPage.tsx";
import { routePaths } from "../routes.ts";
import { useSession } from "../session.ts";
import { WorkspacesPage } from "../workspaces/WorkspacesPage.tsx";
import { TopBar } from "./TopBar.tsx";

const RegistryTool = lazy(() => import("../tools/AuthorizationRegistryTool.tsx"));
// Forms carry react-hook-form and the zod schemas: loaded when a form opens, not on the first screen.
const FormPage = lazy(() => import("../resources/FormPage.tsx").then((m) => ({ default: m.FormPage })));

/** The spec's full-screen spinner while any save, delete or synchronise call runs. */
function BusyOverlay() {
  const { t } = useTranslation();
  if (useIsMutating() === 0) return null;
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
        {/* The page is re-created whenever the full route path changes. */}
        <div key={location.pathname + location.search}>
          <Suspense fallback={<Spinner animation="border" size="sm" role="status" />}>
            <Outlet />
          </Suspense>
        </div>
      </Container>
      <SessionExpiry />
    </>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return <Alert variant="warning">{t("common.notFound")}</Alert>;
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
          <Route path={routePaths["workspaces.index"]} element={<WorkspacesPage />} />
          <Route path={routePaths["tools.authorizationRegistries.home"]} element={<RegistryTool />} />
          {platformKinds.flatMap((kind) => [
            <Route
              key={`${kind.kind}.index`}
              path={routePaths[`${kind.routeName}.index`]}
              element={<ListPage kind={kind} />}
            />,
            <Route
              key={`${kind.kind}.create`}
              path={routePaths[`${kind.routeName}.create`]}
              element={<FormPage kind={kind} action="create" />}
            />,
            <Route
              key={`${kind.kind}.show`}
              path={routePaths[`${kind.routeName}.show`]}
              element={<ShowPage kind={kind} />}
            />,
            <Route
              key={`${kind.kind}.edit`}
              path={routePaths[`${kind.routeName}.edit`]}
              element={<FormPage kind={kind} action="edit" />}
            />,
          ])}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </>
  );
}
