import "../src/i18n/index.ts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, expect, vi } from "vitest";
import type { Permission } from "@orrery/model";
import { setSession } from "../src/session.ts";

/*
 * happy-dom has no HTMLOptionElement.defaultSelected nor HTMLSelectElement.size. react-hook-form
 * reads both to tell whether a select was edited before it registered, and without them takes every
 * select for edited and drops its default value (an edit form would show "Choose…"). Browsers have both.
 */
if (!("defaultSelected" in HTMLOptionElement.prototype)) {
  Object.defineProperty(HTMLOptionElement.prototype, "defaultSelected", {
    configurable: true,
    get(this: HTMLOptionElement) {
      return this.hasAttribute("selected");
    },
  });
}
if (!("size" in HTMLSelectElement.prototype)) {
  Object.defineProperty(HTMLSelectElement.prototype, "size", {
    configurable: true,
    get(this: HTMLSelectElement) {
      return Number(this.getAttribute("size") ?? 0);
    },
  });
}

/** One request the console sent, as the fake API saw it (path without the /api prefix). */
export interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Keys are "METHOD /path" (without /api); values an answer or a function of the call. */
export type Routes_ = Record<string, Answer | ((call: Call) => Answer)>;

/** Every method on every path. */
export const admin: Permission[] = ["GET", "POST", "PUT", "DELETE"].map((action) => ({
  action,
  resource: "^/api/.*$",
}));

export const allow = (action: string, resource: string): Permission => ({ action, resource });

/**
 * Replaces fetch with a fake API. Permissions default to admin and the console configuration to
 * "trust module on"; any other unlisted route answers 404. Returns the calls, in order.
 */
export function mockApi(routes: Routes_ = {}, permissions: Permission[] = admin): Call[] {
  const calls: Call[] = [];
  const table: Routes_ = {
    "GET /authorization/permissions": { body: permissions },
    "GET /console-config": { body: { trustModule: true, authProvider: "dev" } },
    ...routes,
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      const call: Call = {
        method: (init.method ?? "GET").toUpperCase(),
        path: url.pathname.replace(/^\/api/, ""),
        headers: { ...(init.headers as Record<string, string>) },
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const route = table[`${call.method} ${call.path}`];
      const answer = (typeof route === "function" ? route(call) : route) ?? {
        status: 404,
        body: { title: "Not found", status: 404 },
      };
      const status = answer.status ?? 200;
      return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), {
        status,
        headers: { "content-type": "application/json", etag: '"1"', ...answer.headers },
      });
    }),
  );
  return calls;
}

export const sent = (calls: Call[], method: string) => calls.filter((c) => c.method === method);

afterEach(() => {
  vi.unstubAllGlobals();
});

function CurrentPath() {
  const { pathname, search } = useLocation();
  return (
    <>
      <output data-testid="location">{pathname}</output>
      <output data-testid="search">{search}</output>
    </>
  );
}

/** The path the router is at (to check where a page navigated to). */
export const currentPath = () => screen.getByTestId("location").textContent;

/**
 * Signs in, then renders `element` under a router at `url`, matched by `pattern` (react-router
 * syntax), inside a fresh QueryClient that never retries.
 */
export function renderAt(url: string, pattern: string, element: ReactElement) {
  setSession({ token: "t", tokenType: "Bearer", expiresAt: Date.now() + 3600_000 });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={pattern} element={element} />
          <Route path="*" element={null} />
        </Routes>
        <CurrentPath />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user, client, ...view };
}

/** Waits until every query has answered (permissions, configuration, records) and the page re-rendered. */
export async function settled(client: QueryClient) {
  await waitFor(() => expect(client.isFetching()).toBe(0));
}

/** A form control by its label, with or without the required star. */
export function field(label: string): HTMLElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return screen.getByLabelText(new RegExp(`^${escaped}( \\*)?$`));
}

export function queryField(label: string): HTMLElement | null {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return screen.queryByLabelText(new RegExp(`^${escaped}( \\*)?$`));
}
