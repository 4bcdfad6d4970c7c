import { useSyncExternalStore } from "react";
import { getSession, subscribeSession, type Session } from "../session.ts";

/** The current session, rendering again when it changes (sign-in, renewal, sign-out). */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession);
}
