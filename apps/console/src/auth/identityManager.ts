import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { call, get } from "../api.ts";
import { useConsoleConfig } from "../permissions.ts";
import { routeTo } from "../routes.ts";
import { setSession } from "../session.ts";

/** GET /api/auth/status: what the identity manager's side of signing in looks like now. */
export interface SignInStatus {
  /** Why signing in cannot work with the identity manager's settings, when it cannot. */
  signInProblem: string | null;
  /** The application's name in the identity manager (Keyrock), when it has one. */
  application: string | null;
}

/**
 * Asked again each time a page that shows it mounts: the server checks the identity manager's
 * settings again when they last failed, so a mended setting shows without restarting anything.
 */
export function useSignInStatus() {
  return useQuery({
    queryKey: ["sign-in-status"],
    queryFn: () => get<SignInStatus>("/auth/status"),
    staleTime: 0,
    refetchOnMount: "always",
  });
}

/** Signs out of Orrery, and of the identity manager when it keeps its own session. */
export function useSignOut() {
  const settings = useConsoleConfig().data;
  const navigate = useNavigate();
  return async () => {
    await call("/auth/logout", { method: "POST" }).catch(() => undefined);
    setSession(null);
    // Keyrock keeps its own session: end it too, or Continue would sign the same user straight back in.
    if (settings?.signOutUrl) window.location.assign(settings.signOutUrl);
    else navigate(routeTo("authentication"));
  };
}
