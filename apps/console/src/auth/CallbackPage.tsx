import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { Alert } from "../app/bootstrapMarkup.tsx";
import { preloadScreenAt } from "../app/screens.tsx";
import { routeTo } from "../routes.ts";
import { setSession } from "../session.ts";
import { startEarly } from "../startup.ts";
import { RENEWAL_WINDOW } from "./SessionExpiry.tsx";

/** callbacks.authentication: reads token, token_type and expires_at; ignored if one is missing. */
export function CallbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token");
  const tokenType = params.get("token_type");
  const expiresAt = Date.parse(params.get("expires_at") ?? "");
  const complete = Boolean(token && tokenType && !Number.isNaN(expiresAt));
  useEffect(() => {
    if (!complete) return;
    setSession({ token: token!, tokenType: tokenType!, expiresAt });
    // A renewal's window: the page that opened it carries on with the new session.
    if (window.name === RENEWAL_WINDOW && window.opener) {
      window.close();
      return;
    }
    const from = sessionStorage.getItem("orrery.returnTo");
    sessionStorage.removeItem("orrery.returnTo");
    const to = from && from.startsWith("/") ? from : routeTo("workspaces.index");
    // What every screen needs (permissions, settings) is asked for while its screen's code loads;
    // the page shows once the code is there (a screen that suspended would show late, screens.tsx).
    startEarly();
    const go = () => navigate(to, { replace: true });
    void preloadScreenAt(new URL(to, window.location.origin).pathname).then(go, go);
  }, [complete, token, tokenType, expiresAt, navigate]);
  return complete ? (
    <p className="p-4">{t("auth.signingIn")}</p>
  ) : (
    <div className="p-4">
      <Alert variant="warning">{t("auth.callbackIgnored")}</Alert>
      <Link to={routeTo("authentication")}>{t("auth.title")}</Link>
    </div>
  );
}
