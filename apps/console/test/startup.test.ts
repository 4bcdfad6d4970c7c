import { afterEach, describe, expect, it, vi } from "vitest";
import { call } from "../src/api.ts";
import { fetchEntities } from "../src/context-data/entityQueries.ts";
import { healthFirstPage } from "../src/health/healthPages.ts";
import { chartProperties } from "../src/resources/queries.ts";
import { getSession, setSession } from "../src/session.ts";
import { platformListAt, startEarly, takeEarly } from "../src/startup.ts";
import { preloadScreenAt } from "../src/app/screens.tsx";
import { queryClient } from "../src/queryClient.ts";
import { routePaths, routeTo } from "../src/routes.ts";
import { allKinds, apiPath } from "@orrery/model";

const ws = "urn:ngsi-ld:Workspace:w1";
const type = "urn:ngsi-ld:Type:t1";

function fakeFetch() {
  const asked: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(url.includes("/entities?") ? [] : { url }), {
        headers: { "content-type": "application/json", "x-total-count": "7" },
      });
    }),
  );
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
  globalThis.orreryEarly?.clear(); // answers a test asked for and did not take
  sessionStorage.clear();
  setSession(null);
  window.history.pushState(null, "", "/");
});

describe("start-up requests", () => {
  it("on a workspace's entities tab, asks for its data at once, and the console's calls take the answers", async () => {
    setSession({ token: "t", tokenType: "Bearer", expiresAt: Date.now() + 60_000 });
    window.history.pushState(null, "", `/workspace/${ws}?typeId=${encodeURIComponent(type)}`);
    const asked = fakeFetch();
    // The list's first page before the code, which goes before the rest of the data: the browser
    // sends six requests to the server at a time, and the server would send the code only after a
    // long list otherwise.
    const preloadedBefore = new Map<string, number>();
    const respond = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      preloadedBefore.set(String(url), document.head.querySelectorAll('link[rel="modulepreload"]').length);
      return respond(url, init);
    });
    startEarly(["/assets/WorkspaceView-1.js", "/assets/screens-2.js"]);
    expect([...preloadedBefore.values()]).toEqual([0, 0, 0, 2, 2, 2, 2]);
    const preloads = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')];
    expect(preloads.map((link) => new URL(link.href).pathname)).toEqual([
      "/assets/WorkspaceView-1.js",
      "/assets/screens-2.js",
    ]);
    preloads.forEach((link) => link.remove());
    const firstPage = `/api/workspace/${ws}/entities?typeId=${encodeURIComponent(type)}&limit=20&offset=0&order=name&count=true`;
    expect(asked).toEqual([
      firstPage,
      // What every screen draws by (the top bar, the list's rows), before the view's files.
      "/api/authorization/permissions",
      "/api/console-config",
      // What the entities tab needs besides, then what the chart alone does.
      `/api/workspace/${ws}/types`,
      `/api/workspaces/${ws}`,
      // The chart's arrows: the same address as the chart's own query.
      `/api/workspace/${ws}/properties?${new URLSearchParams(chartProperties)}`,
      // The chart is laid out once, from the types, relationships and data services together.
      `/api/workspace/${ws}/data-services`,
    ]);
    const page = await fetchEntities(ws, {
      typeId: type,
      limit: "20",
      offset: "0",
      order: "name",
      count: "true",
    });
    expect(page).toEqual({ entities: [], total: 7 });
    expect((await call<{ url: string }>(`/workspace/${ws}/types`)).data.url).toBe(
      `/api/workspace/${ws}/types`,
    );
    expect(asked).toHaveLength(7); // nothing asked twice
    // Each answer is taken once: the next call asks again.
    await call(`/workspace/${ws}/types`);
    expect(asked).toHaveLength(8);
    expect(takeEarly(firstPage)).toBeUndefined();
  });

  it("asks for nothing without a session, and no entities page outside the entities tab", () => {
    window.history.pushState(null, "", `/workspace/${ws}?typeId=${encodeURIComponent(type)}`);
    const asked = fakeFetch();
    startEarly();
    expect(asked).toEqual([]);
    setSession({ token: "t", tokenType: "Bearer", expiresAt: Date.now() + 60_000 });
    window.history.pushState(null, "", `/workspace/${ws}?typeId=${encodeURIComponent(type)}&activeTab=map`);
    startEarly();
    expect(asked.some((url) => url.includes("/entities"))).toBe(false);
    expect(asked).toContain(`/api/workspace/${ws}/types`);
    // The view's code is preloaded on a workspace's address only.
    window.history.pushState(null, "", "/workspaces");
    startEarly(["/assets/WorkspaceView-1.js"]);
    expect(document.head.querySelector('link[rel="modulepreload"]')).toBeNull();
  });

  it("on a sign-in's way back, asks with the token it brings for what the address it returns to shows", async () => {
    const expires = new Date(Date.now() + 60_000).toISOString();
    const back = `${routeTo("callbacks.authentication")}?token=t1&token_type=Bearer&expires_at=${expires}`;
    sessionStorage.setItem("orrery.returnTo", `/workspace/${ws}?typeId=${encodeURIComponent(type)}`);
    window.history.pushState(null, "", back);
    const asked = fakeFetch();
    startEarly(["/assets/WorkspaceView-1.js"]);
    const firstPage = `/api/workspace/${ws}/entities?typeId=${encodeURIComponent(type)}&limit=20&offset=0&order=name&count=true`;
    expect(asked).toContain(firstPage);
    expect(asked).toContain("/api/authorization/permissions");
    expect(vi.mocked(fetch).mock.calls[0]![1]!.headers).toMatchObject({ authorization: "Bearer t1" });
    document.head.querySelectorAll('link[rel="modulepreload"]').forEach((link) => link.remove());
    // CallbackPage stores the session and asks again: nothing is asked twice.
    setSession({ token: "t1", tokenType: "Bearer", expiresAt: Date.parse(expires) });
    const before = asked.length;
    startEarly();
    expect(asked).toHaveLength(before);
    expect(await (await takeEarly(firstPage)!).json()).toEqual([]);
  });

  it("finishes a sign-in's way back before the console's code: the session stored, the page asked for in place of the token's address", () => {
    const expires = new Date(Date.now() + 60_000).toISOString();
    const back = `${routeTo("callbacks.authentication")}?token=t1&token_type=Bearer&expires_at=${expires}`;
    sessionStorage.setItem("orrery.returnTo", "/context-brokers?search=a%20b#top");
    window.history.pushState(null, "", back);
    fakeFetch();
    startEarly();
    expect(getSession()).toEqual({ token: "t1", tokenType: "Bearer", expiresAt: Date.parse(expires) });
    expect(JSON.parse(localStorage.getItem("orrery.session")!)).toMatchObject({ token: "t1" });
    // The console starts on the page asked for; the token is no longer in the address (nor in history).
    expect(window.location.pathname + window.location.search + window.location.hash).toBe(
      "/context-brokers?search=a%20b#top",
    );
    expect(window.location.href).not.toContain("t1");
    expect(sessionStorage.getItem("orrery.returnTo")).toBeNull();
  });

  it("goes to the workspaces after a sign-in whose way back names no address of the console", () => {
    const expires = new Date(Date.now() + 60_000).toISOString();
    for (const from of [
      null,
      "//evil.example/x",
      "https://evil.example/",
      "javascript:alert(1)",
      ".*+?(|\\",
      "\\evil.example",
      "/\\evil.example/x",
    ]) {
      setSession(null);
      sessionStorage.clear();
      if (from !== null) sessionStorage.setItem("orrery.returnTo", from);
      window.history.pushState(
        null,
        "",
        `${routeTo("callbacks.authentication")}?token=t1&token_type=Bearer&expires_at=${expires}`,
      );
      fakeFetch();
      startEarly();
      expect(window.location.origin + window.location.pathname, String(from)).toBe(
        `${window.location.origin}/workspaces`,
      );
      expect(getSession()?.token).toBe("t1");
    }
  });

  it("asks for nothing on a way back without a complete token, nor in a session renewal's window", () => {
    const asked = fakeFetch();
    window.history.pushState(null, "", `${routeTo("callbacks.authentication")}?token=t1&token_type=Bearer`);
    startEarly();
    const expires = new Date(Date.now() + 60_000).toISOString();
    window.history.pushState(
      null,
      "",
      `${routeTo("callbacks.authentication")}?token=t1&token_type=Bearer&expires_at=${expires}`,
    );
    vi.stubGlobal("opener", window);
    startEarly();
    expect(asked).toEqual([]);
    // CallbackPage takes these: the address stays, and no session is stored here.
    expect(window.location.pathname).toBe(routeTo("callbacks.authentication"));
    expect(getSession()).toBeNull();
  });

  it("on the Status page and the workspaces list, asks for their first reads in the reader's language", async () => {
    setSession({ token: "t", tokenType: "Bearer", expiresAt: Date.now() + 60_000 });
    localStorage.setItem("orrery.language", "fr");
    window.history.pushState(null, "", "/status");
    const asked = fakeFetch();
    startEarly();
    const firstPage = `/api/health/components?${new URLSearchParams(healthFirstPage)}`;
    expect(asked.slice(2)).toEqual(["/api/health/summary", firstPage]);
    // The reasons of a component's state are sentences: in French, as the page would have asked.
    expect(vi.mocked(fetch).mock.calls[2]![1]!.headers).toMatchObject({ "accept-language": "fr" });
    expect((await call<{ url: string }>("/health/summary")).data.url).toBe("/api/health/summary");
    expect((await call<{ url: string }>("/health/components?limit=100&offset=0")).data.url).toBe(firstPage);
    expect(asked).toHaveLength(4); // taken, not asked again
    localStorage.removeItem("orrery.language");
    globalThis.orreryEarly?.clear();
    window.history.pushState(null, "", "/workspaces");
    startEarly();
    expect(asked[6]).toBe("/api/workspaces");
  });

  it("on a sign-in's way back to a platform list, asks for its records with the permissions", async () => {
    const expires = new Date(Date.now() + 60_000).toISOString();
    sessionStorage.setItem("orrery.returnTo", routeTo("contextBrokers.index"));
    window.history.pushState(
      null,
      "",
      `${routeTo("callbacks.authentication")}?token=t1&token_type=Bearer&expires_at=${expires}`,
    );
    const asked = fakeFetch();
    startEarly();
    // Before, the records were asked only once the console's code had run (bench/console).
    expect(asked).toEqual(["/api/authorization/permissions", "/api/console-config", "/api/context-brokers"]);
    setSession({ token: "t1", tokenType: "Bearer", expiresAt: Date.parse(expires) });
    await preloadScreenAt(routeTo("contextBrokers.index"));
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(["records", "context-brokers", ""])).toEqual({
        url: "/api/context-brokers",
      }),
    );
    expect(asked).toHaveLength(3); // the list's query took the answer
    queryClient.clear();
  });

  it("takes a one-segment address for a platform list only where one is, as its page asks for it", () => {
    for (const kind of allKinds.filter((k) => k.scope === "platform" && routePaths[`${k.routeName}.index`]))
      expect(platformListAt(routeTo(`${kind.routeName}.index`))).toBe(`/api${apiPath(kind)}`);
    const lists = new Set(allKinds.map((k) => routePaths[`${k.routeName}.index`]));
    for (const path of Object.values(routePaths).filter((p) => /^\/[^/]+$/.test(p) && !lists.has(p)))
      expect(platformListAt(path), path).toBeUndefined();
    for (const other of ["/", "/workspace/w1", "/context-brokers/x", "/.*+?(|\\", "/a%2Fb", "/API"])
      expect(platformListAt(other), other).toBeUndefined();
  });

  it("asks for a platform list's records with its screen's code, before the list page renders", async () => {
    setSession({ token: "t", tokenType: "Bearer", expiresAt: Date.now() + 60_000 });
    const asked = fakeFetch();
    await preloadScreenAt(routeTo("contextBrokers.index"));
    expect(asked).toContain("/api/context-brokers");
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(["records", "context-brokers", ""])).toEqual({
        url: "/api/context-brokers",
      }),
    );
    // A workspace's lists need the workspace's permissions first: not asked ahead.
    await preloadScreenAt(routeTo("roles.index", { workspaceId: ws }));
    expect(asked.some((url) => url.includes("/roles"))).toBe(false);
    queryClient.clear();
  });
});
