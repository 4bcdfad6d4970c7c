import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { setUnauthorizedHandler } from "../api.ts";
import { MessageDialog } from "../errors/Dialogs.tsx";
import { loginUrl, setSession } from "../session.ts";
import { useSession } from "./useSession.ts";

export const WARNING_MS = 30_000;

/**
 * Thirty seconds before the token expires, or as soon as the API answers 401, the spec's
 * 'Session expired!' dialog; closing it leads to a new login.
 */
export function SessionExpiry() {
  const { t } = useTranslation();
  const session = useSession();
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    setUnauthorizedHandler(() => setExpired(true));
  }, []);
  useEffect(() => {
    if (!session) return;
    const timer = setTimeout(
      () => setExpired(true),
      Math.max(0, session.expiresAt - Date.now() - WARNING_MS),
    );
    return () => clearTimeout(timer);
  }, [session]);
  const renew = () => {
    setExpired(false);
    sessionStorage.setItem("orrery.returnTo", window.location.pathname + window.location.search);
    setSession(null);
    window.location.assign(loginUrl);
  };
  return (
    <MessageDialog
      show={expired}
      title={t("auth.sessionExpiredTitle")}
      message={t("auth.sessionExpired")}
      button={t("auth.renew")}
      onClose={renew}
    />
  );
}
