import { useEffect } from "react";
import { useLocation, useSearchParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useSignInStatus } from "./identityManager.ts";
import { loginUrl } from "../session.ts";
import { usePageTitle } from "../resources/Breadcrumbs.tsx";
import { Alert } from "../app/bootstrapMarkup.tsx";
import { preloadScreenAt } from "../app/screens.tsx";
import { routeTo } from "../routes.ts";

/** authentication: the continue link to the identity manager, and why the user is here. */
export function AuthenticationPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const error = params.get("error");
  const redirected = (location.state as { from?: string } | null)?.from;
  const signInProblem = useSignInStatus().data?.signInProblem;
  usePageTitle([t("auth.title")]);
  // The code of the screen that the sign-in returns to (CallbackPage) loads while the user signs
  // in: the way back is a new page, which finds it in the browser's cache instead of asking the
  // server for it beside the start-up's calls (bench/console).
  useEffect(() => {
    const back = sessionStorage.getItem("orrery.returnTo");
    const to = back?.startsWith("/") ? back : routeTo("workspaces.index");
    preloadScreenAt(new URL(to, window.location.origin).pathname).catch(() => undefined);
  }, []);
  return (
    <div className="d-flex justify-content-center pt-5">
      <div className="card" style={{ maxWidth: "28rem", width: "100%" }}>
        <div className="card-body p-4">
          <h1 className="h4 mb-3">{t("auth.title")}</h1>
          {error && <Alert variant="danger">{t("auth.failed", { message: error })}</Alert>}
          {redirected && !error && <Alert variant="warning">{t("auth.mustAuthenticate")}</Alert>}
          {signInProblem && (
            <Alert variant="danger" data-testid="sign-in-problem">
              {t("auth.misconfigured", { problem: signInProblem })}
            </Alert>
          )}
          <p>{t("auth.intro")}</p>
          <a className="btn btn-primary" href={`${loginUrl}?lang=${i18n.language}`}>
            {t("auth.continue")}
          </a>
        </div>
      </div>
    </div>
  );
}
