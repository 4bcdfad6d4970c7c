import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { setUnauthorizedHandler } from "../api.ts";
import { MessageDialog } from "../errors/Dialogs.tsx";
import { loginUrl, setSession } from "../session.ts";
import { useSession } from "./useSession.ts";

export const WARNING_MS = 30_000;

/** The name of the window a renewal signs in in (the callback page closes it). */
export const RENEWAL_WINDOW = "orrery-renewal";

/**
 * Thirty seconds before the token expires, or as soon as the API answers 401, the spec's
 * 'Session expired!' dialog, which only renewing closes. The renewal signs in in a window of its
 * own: the page, and whatever was typed in it, stay as they are, and the new session (shared by
 * every tab) closes the dialog. Where the browser blocks that window, the page itself goes to the
 * sign-in and comes back to the same address.
 */
export function SessionExpiry() {
  const { t } = useTranslation();
  const session = useSession();
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    setUnauthorizedHandler(() => setExpired(true));
  }, []);
  // A renewed session (the sign-in window, or another tab) ends the warning.
  useEffect(() => {
    if (session && session.expiresAt - Date.now() > WARNING_MS) setExpired(false);
  }, [session]);
  useEffect(() => {
    if (!session) return;
    const timer = setTimeout(
      () => setExpired(true),
      Math.max(0, session.expiresAt - Date.now() - WARNING_MS),
    );
    return () => clearTimeout(timer);
  }, [session]);
  const renew = () => {
    const popup = window.open(loginUrl, RENEWAL_WINDOW, "popup,width=520,height=700");
    if (popup) return;
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
      insistent
    />
  );
}
