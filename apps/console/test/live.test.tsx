import "../src/i18n/index.ts";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { entityKeys } from "../src/context-data/entityQueries.ts";
import { LiveBadge, POLL_SECONDS, useLiveEntities } from "../src/context-data/live.tsx";
import { setSession } from "../src/session.ts";

const ws = "urn:ngsi-ld:Workspace:w1";

/** A screen that lists entities (counting its reads) and keeps itself live. */
function Screen({ reads }: { reads: { count: number } }) {
  const state = useLiveEntities({ workspaceId: ws, type: "Building" });
  const list = useQuery({
    queryKey: entityKeys.list(ws, {}),
    queryFn: async () => ++reads.count,
  });
  return (
    <>
      <LiveBadge state={state} />
      <output>read {list.data ?? 0}</output>
    </>
  );
}

function show(reads: { count: number }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Screen reads={reads} />
    </QueryClientProvider>,
  );
}

/** A signed-in session whose live stream the test writes to: returns how to push event-stream text. */
function signedInWithStream(): (text: string) => void {
  setSession({ token: "t0k", tokenType: "Bearer", expiresAt: Date.now() + 3600_000 });
  let push: (text: string) => void = () => {};
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (text) => controller.enqueue(new TextEncoder().encode(text));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }),
  );
  return (text) => push(text);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("live entities", () => {
  it("refreshes the screen when the stream tells of a change, with the session's headers", async () => {
    setSession({ token: "t0k", tokenType: "Bearer", expiresAt: Date.now() + 3600_000 });
    let push: (text: string) => void = () => {};
    const asked: Array<{ url: string; headers: Record<string, string> }> = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit) => {
        asked.push({ url, headers: init.headers as Record<string, string> });
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            push = (text) => controller.enqueue(new TextEncoder().encode(text));
            push(": open\n\n");
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }),
    );
    const reads = { count: 0 };
    show(reads);
    expect(await screen.findByTestId("live-state")).toHaveTextContent("Live");
    await screen.findByText("read 1");
    expect(asked[0]!.url).toBe(`/api/workspace/${encodeURIComponent(ws)}/live/entities?type=Building`);
    expect(asked[0]!.headers).toMatchObject({ authorization: "Bearer t0k", accept: "text/event-stream" });
    // Two changes at once (a batch): one refresh.
    push(`data: ${JSON.stringify({ id: "urn:ngsi-ld:Building:1", type: "Building" })}\n\n`);
    push(`data: ${JSON.stringify({ id: "urn:ngsi-ld:Building:2", type: "Building" })}\n\n`);
    await screen.findByText("read 2");
    await new Promise((r) => setTimeout(r, 300));
    expect(reads.count).toBe(2);
  });

  it("shows a change at once, and keeps showing the changes of a long import as they come", async () => {
    const push = signedInWithStream();
    vi.useFakeTimers();
    const reads = { count: 0 };
    show(reads);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByTestId("live-state")).toHaveTextContent("Live");
    expect(screen.getByText("read 1")).toBeInTheDocument();
    const change = (n: number) =>
      push(`data: ${JSON.stringify({ id: `urn:ngsi-ld:Building:${n}`, type: "Building" })}\n\n`);
    // One write by another client: read again on the next tick, not after a pause.
    change(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText("read 2")).toBeInTheDocument();
    // An import that notifies every 50 ms for two seconds: the list is read again while it runs
    // (a few times a second), not only once it has ended, nor once a notification.
    for (let i = 0; i < 40; i++) {
      change(100 + i);
      await act(() => vi.advanceTimersByTimeAsync(50));
    }
    expect(reads.count).toBeGreaterThanOrEqual(10);
    expect(reads.count).toBeLessThanOrEqual(20);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    const settled = reads.count;
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(reads.count).toBe(settled);
  });

  it("shows new data while changes keep coming to a server slower than they come", async () => {
    const push = signedInWithStream();
    vi.useFakeTimers();
    // Each read takes 300 ms; a change comes every 100 ms.
    let reads = 0;
    function SlowScreen() {
      useLiveEntities({ workspaceId: ws, type: "Building" });
      const list = useQuery({
        queryKey: entityKeys.list(ws, {}),
        queryFn: ({ signal }) =>
          new Promise<number>((resolve, reject) => {
            const timer = setTimeout(() => resolve(++reads), 300);
            signal.addEventListener("abort", () => {
              clearTimeout(timer);
              reject(new Error("aborted"));
            });
          }),
      });
      return <output>read {list.data ?? 0}</output>;
    }
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SlowScreen />
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(screen.getByText("read 1")).toBeInTheDocument();
    for (let i = 0; i < 20; i++) {
      push(`data: ${JSON.stringify({ id: `urn:ngsi-ld:Building:${i}`, type: "Building" })}\n\n`);
      await act(() => vi.advanceTimersByTimeAsync(100));
    }
    // Two seconds of changes: reads that ran to their end, one after the other, not cut short by
    // the next change (which would show nothing new until the changes stop).
    expect(reads).toBeGreaterThanOrEqual(5);
  });

  it("polls at a shown interval when the broker cannot reach the API", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ title: "Bad gateway" }), { status: 502 })),
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const reads = { count: 0 };
    show(reads);
    await waitFor(() =>
      expect(screen.getByTestId("live-state")).toHaveTextContent(`every ${POLL_SECONDS} s`),
    );
    await screen.findByText("read 1");
    await act(() => vi.advanceTimersByTimeAsync(POLL_SECONDS * 1000));
    await screen.findByText("read 2");
  });
});
