import { expect } from "vitest";
import type { Landing } from "../../../../test/fakes/browser.ts";

/** Where the identity manager hands the browser back to the API. */
export const atCallback = (url: URL) => url.pathname === "/api/auth/callback";

/** A sign-in that ended at the console's callback route: its token and expiry. */
export function issued(landing: Landing) {
  expect(landing.url.pathname, landing.hops.join(" -> ")).toBe("/callbacks/authentication");
  const params = landing.url.searchParams;
  expect(params.get("token_type")).toBe("Bearer");
  return { token: params.get("token")!, expiresAt: params.get("expires_at")! };
}

/** A sign-in that ended at the console's authentication page: the error it shows, and no token. */
export function loginError(landing: Landing): string {
  expect(landing.url.pathname, landing.hops.join(" -> ")).toBe("/authentication");
  expect(landing.url.searchParams.has("token")).toBe(false);
  return landing.url.searchParams.get("error") ?? "";
}
