// No React here: the start-up script inlined in index.html (start-early.ts) reads the session too.

/** The spec's session: access token, token type and expiry. Kept in sessionStorage so a reload keeps it. */
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
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as Session | null;
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
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}

/** Calls `listener` on each change of the session until the returned function is called. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where the continue link and the renewal go: the API starts the identity manager's login. */
export const loginUrl = "/api/auth/login";
