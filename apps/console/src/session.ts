// No React here: the start-up script inlined in index.html (start-early.ts) reads the session too.
import { forgetGatewayTokens } from "./trust/gatewayTokens.ts";

/**
 * The spec's session: access token, token type and expiry. Kept in localStorage: a reload, a new
 * tab or a link opened in a new window keeps it (one sign-in per browser), and signing out in one
 * tab signs out the others.
 */
export interface Session {
  token: string;
  tokenType: string;
  expiresAt: number;
}

const KEY = "orrery.session";
const listeners = new Set<() => void>();
let current: Session | null = read();

function read(): Session | null {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? "null") as Session | null;
    return value && value.expiresAt > Date.now() ? value : null;
  } catch {
    return null;
  }
}

export function getSession(): Session | null {
  return current;
}

export function setSession(session: Session | null): void {
  current = session;
  if (session) localStorage.setItem(KEY, JSON.stringify(session));
  else {
    localStorage.removeItem(KEY);
    forgetGatewayTokens();
  }
  listeners.forEach((l) => l());
}

// Another tab signed in, renewed or signed out.
if (typeof window !== "undefined")
  window.addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    current = read();
    listeners.forEach((l) => l());
  });

/** Calls `listener` on each change of the session until the returned function is called. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where the continue link and the renewal go: the API starts the identity manager's login. */
export const loginUrl = "/api/auth/login";
