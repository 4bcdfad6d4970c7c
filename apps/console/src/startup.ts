import { healthFirstPage } from "./health/healthPages.ts";
import { storedLanguage } from "./i18n/storedLanguage.ts";
import { getSession, setSession, type Session } from "./session.ts";
import { gatewayHeaders } from "./trust/gatewayTokens.ts";

type Early = Map<string, { response: Promise<Response>; at: number }>;
declare global {
  // Shared by the start-up script inlined in index.html and the console's own bundle.
  var orreryEarly: Early | undefined;
}
/** GET responses asked for before the console's code arrived, by URL; each is taken once (api.ts). */
const early: Early = (globalThis.orreryEarly ??= new Map());
/** An early response older than this is not used: the data may have changed since. */
const EARLY_FOR_MS = 10_000;

/** The early response for this URL, if one was asked for at start-up and not taken yet. */
export function takeEarly(url: string): Promise<Response> | undefined {
  const found = early.get(url);
  early.delete(url);
  return found && Date.now() - found.at < EARLY_FOR_MS ? found.response : undefined;
}

/** The query of a type's list as the entities tab first asks it: 20 rows, names only, with the count. */
/** Where the entities tab's list is (address parameters): the first page is elsewhere. */
export const listPlace = ["page", "size", "search"] as const;

export const firstPageQuery = (typeId: string): Record<string, string> => ({
  typeId,
  limit: "20",
  offset: "0",
  order: "name",
  count: "true",
});

/** The first page a workspace view at this query shows: its entities tab's list of a type, if any. */
export function firstPageAt(search: URLSearchParams): Record<string, string> | undefined {
  const typeId = search.get("typeId");
  const entitiesTab = (search.get("activeTab") ?? "entities") === "entities";
  const elsewhere = ["entityId", ...listPlace].some((name) => search.get(name));
  return typeId && entitiesTab && !elsewhere ? firstPageQuery(typeId) : undefined;
}

/** The workspace whose view this address shows (`/workspace/{id}`), if any. */
export function workspaceAt(pathname: string): string | undefined {
  const [, first, encoded] = pathname.split("/");
  return first === "workspace" && encoded ? decodeURIComponent(encoded) : undefined;
}

/** The console's own pages at an address of one segment that are not a platform kind's list (routes.ts). */
const ownPages = new Set(["/authentication", "/activity", "/data-access", "/status"]);

/**
 * The records that the list page of a platform kind at this address shows (`/context-brokers`):
 * every such list is at `/{kind}`, its records at `/api/{kind}` (@orrery/model's apiPath), as the
 * list page asks for them (resources/queries.ts `listQuery`).
 */
export function platformListAt(pathname: string): string | undefined {
  return /^\/[a-z]+(-[a-z]+)*$/.test(pathname) && !ownPages.has(pathname) ? `/api${pathname}` : undefined;
}

/**
 * The session that a sign-in's way back brings in its address (`/callbacks/authentication?token=…`,
 * routes.ts); not in a session renewal's window, which closes at once (CallbackPage).
 */
function arrivingSession(): Session | undefined {
  if (window.location.pathname !== "/callbacks/authentication" || window.opener) return undefined;
  const params = new URLSearchParams(window.location.search);
  const [token, tokenType] = [params.get("token"), params.get("token_type")];
  const expiresAt = Date.parse(params.get("expires_at") ?? "");
  return token && tokenType && expiresAt > Date.now() ? { token, tokenType, expiresAt } : undefined;
}

/**
 * A sign-in's way back, finished before the console's code arrives: the session stored, and the
 * address that sent the user to sign in (App.tsx) put in place of the callback's, which carries the
 * token. The console then starts on that page at once, where it drew the callback page first and
 * went there only once its code had run (bench/console). CallbackPage still takes the way back into
 * a renewal's window and one without a complete token. Only an address of this console is gone to.
 */
function finishSignIn(session: Session): void {
  const from = sessionStorage.getItem("orrery.returnTo");
  sessionStorage.removeItem("orrery.returnTo");
  const origin = window.location.origin;
  const back = from?.startsWith("/") ? new URL(from, origin) : undefined;
  const to = back?.origin === origin ? back : new URL("/workspaces", origin);
  setSession(session);
  window.history.replaceState(null, "", to.pathname + to.search + to.hash);
}

/**
 * Run by start-early.ts, inlined in index.html, while the browser is still fetching the console's
 * code (about 200 ms on a small machine): a signed-in start, or a sign-in's way back, asks at once
 * for what every screen needs (permissions, console settings) and, when the console opens (or goes
 * back to) a workspace's address, for what its view shows first (the entities tab's first page, the
 * types, properties and data services the chart is laid out from at once, the workspace record) and
 * preloads the view's code (`viewCode`, the files of its chunks and stylesheets). The console's own
 * calls then take these responses instead of asking again (CallbackPage's call of this asks for
 * nothing asked already), and its import of the view finds the code loaded.
 */
export function startEarly(viewCode: readonly string[] = []): void {
  const arriving = getSession() ? undefined : arrivingSession();
  if (arriving) finishSignIn(arriving);
  const session = getSession();
  if (!session) return;
  const address = window.location;
  const headers = {
    accept: "application/json",
    // As api.ts sends it: some answers hold sentences in the reader's language (health reasons).
    "accept-language": storedLanguage(),
    authorization: `${session.tokenType} ${session.token}`,
  };
  const ask = (url: string) => {
    if (early.has(url)) return;
    const response = fetch(url, { headers: { ...headers, ...gatewayHeaders(url) } });
    response.catch(() => undefined); // the call that takes it sees the failure
    early.set(url, { response, at: Date.now() });
  };
  const workspaceId = workspaceAt(address.pathname);
  const firstPage = workspaceId && firstPageAt(new URLSearchParams(address.search));
  // The entities tab's first page before the view's code: the browser sends six requests to the
  // server at a time, and the list's request waited for the code's files to come back first
  // (bench/entities-console's waterfall: queued at 61 ms, sent at 208 ms; now sent when queued).
  if (firstPage) ask(`/api/workspace/${workspaceId}/entities?${new URLSearchParams(firstPage)}`);
  // What every screen needs, next: the permissions decide what the page draws (the top bar, the
  // list's rows); they came last, behind the view's nine files and the chart's data.
  ask("/api/authorization/permissions");
  ask("/api/console-config");
  if (workspaceId) {
    // Then the code: the server sends a file at once but may take a while over a long list, and
    // the browser evaluates the code while the data is on its way.
    for (const href of viewCode) {
      // Vite's import of the view finds the stylesheet there and does not load it again.
      const link = document.createElement("link");
      link.rel = href.endsWith(".css") ? "stylesheet" : "modulepreload";
      link.href = href;
      document.head.append(link);
    }
    // What the entities tab needs (the types, the workspace record), before what the chart alone does.
    ask(`/api/workspace/${workspaceId}/types`);
    ask(`/api/workspaces/${workspaceId}`);
    // The chart's arrows only (queries.ts `chartProperties`): a model's properties run to megabytes.
    ask(`/api/workspace/${workspaceId}/properties?ngsiLdType=Relationship`);
    ask(`/api/workspace/${workspaceId}/data-services`);
  }
  // The platform's screens: their first reads, as their pages ask them (bench/platform: with 1,000
  // workspaces or 10,000 components, the page's code came before them; bench/console: on a
  // sign-in's way back to a list, its records came only once the console's code had run).
  const platformList = platformListAt(address.pathname);
  if (platformList) ask(platformList);
  if (address.pathname === "/status") {
    ask("/api/health/summary");
    ask(`/api/health/components?${new URLSearchParams(healthFirstPage)}`);
  }
}
