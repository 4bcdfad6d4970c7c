/**
 * The access tokens of SIOP-2 logins, one per workspace (spec section 7): kept in the browser while
 * the console's session lasts (signing out forgets them), and sent as Gateway-Authorization on that
 * workspace's calls, which the API forwards to the broker behind the verifier's gateway.
 */
const PREFIX = "orrery.gateway.";

export function setGatewayToken(workspaceId: string, token: string): void {
  localStorage.setItem(PREFIX + workspaceId, token);
}

export function forgetGatewayTokens(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
}

/** The Gateway-Authorization header of a call to a workspace's path (`/api/workspace/{id}/...`), if it has a token. */
export function gatewayHeaders(path: string): Record<string, string> {
  const id = /^(?:\/api)?\/workspace\/([^/?#]+)/.exec(path)?.[1];
  const token = id ? localStorage.getItem(PREFIX + decodeURIComponent(id)) : null;
  return token ? { "gateway-authorization": `Bearer ${token}` } : {};
}
