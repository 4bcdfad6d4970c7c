import type { ReactNode } from "react";
import { Link, useLocation, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import type { KindDefinition } from "@orrery/model";
import { useSignInStatus, useSignOut } from "../auth/identityManager.ts";
import { usePermissions, useCan } from "../permissions.ts";
import { usePlace } from "../resources/place.ts";
import { routePaths } from "../routes.ts";
import { Alert, Spinner } from "./bootstrapMarkup.tsx";

type Can = ReturnType<typeof useCan>;

/**
 * A page reached by its address: shown when the user's permissions allow what it is for, else a
 * clear "not allowed" page instead of a form the API would refuse (spec section 6). While the
 * permissions load, a spinner, so that nothing flashes.
 */
export function Allowed({
  when,
  children,
}: {
  when: (can: Can, params: Record<string, string | undefined>) => boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const params = useParams();
  const permissions = usePermissions();
  const can = useCan();
  if (permissions.isPending) return <Spinner size="sm" role="status" aria-label={t("app.loading")} />;
  if (permissions.isSuccess && !when(can, params))
    return <NotAllowed nothing={permissions.data.length === 0} />;
  return <>{children}</>;
}

/**
 * Why the page is refused, and a way on. A user whose roles give nothing in the console is told so,
 * with the identity manager's name of the application, and may sign in as someone else; so is a
 * user refused the workspaces page itself, where a link "back to the workspaces" would go nowhere.
 */
function NotAllowed({ nothing }: { nothing: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const application = useSignInStatus().data?.application;
  const signOut = useSignOut();
  const workspaces = routePaths["workspaces.index"]!;
  const stuck = nothing || pathname === workspaces;
  return (
    <Alert variant="warning" data-testid="not-allowed">
      <h1 className="alert-heading h5">{t("common.notAllowedTitle")}</h1>
      {nothing ? (
        <>
          <p className="mb-2">
            {application
              ? t("common.noConsolePermissionIn", { application })
              : t("common.noConsolePermission")}
          </p>
          <p className="mb-2">{t("common.askForRole")}</p>
        </>
      ) : (
        <p className="mb-2">{t("common.notAllowed")}</p>
      )}
      {stuck ? (
        <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => void signOut()}>
          {t("common.signInAsSomeoneElse")}
        </button>
      ) : (
        <Link to={workspaces}>{t("common.backToWorkspaces")}</Link>
      )}
    </Alert>
  );
}

/** The permission a kind's page needs: list, store, show or update (spec section 6). */
export function AllowedKindPage({
  kind,
  action,
  children,
}: {
  kind: KindDefinition;
  action: "index" | "create" | "show" | "edit";
  children: ReactNode;
}) {
  const { id = "" } = usePlace(kind);
  const needs: Record<typeof action, (can: Can) => boolean> = {
    index: (can) => can.index(kind),
    create: (can) => can.store(kind),
    show: (can) => can.show(kind, id),
    edit: (can) => can.update(kind, id),
  };
  return <Allowed when={needs[action]}>{children}</Allowed>;
}
