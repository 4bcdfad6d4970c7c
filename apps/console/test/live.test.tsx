import "../src/i18n/index.ts";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nameOf } from "../src/context-data/entityModel.ts";
import { entityKeys, type EntityPage } from "../src/context-data/entityQueries.ts";
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

  it("draws another client's change from the stream's event, before the list is read again", async () => {
    const push = signedInWithStream();
    vi.useFakeTimers();
    const query = { typeId: "t1", limit: "20", offset: "0", order: "name", count: "true" };
    // The server's list: each read takes 500 ms and answers what the broker holds then.
    const held = { name: "Town hall" };
    let reads = 0;
    function Names() {
      useLiveEntities({ workspaceId: ws, type: "Building" });
      const list = useQuery({
        queryKey: entityKeys.list(ws, query),
        queryFn: () =>
          new Promise<EntityPage>((resolve) => {
            const name = held.name;
            setTimeout(() => {
              reads++;
              resolve({
                entities: [
                  { id: "urn:ngsi-ld:Building:1", type: "Building", name: { type: "Property", value: name } },
                  {
                    id: "urn:ngsi-ld:Building:2",
                    type: "Building",
                    name: { type: "Property", value: "Zoo" },
                  },
                ],
                total: 2,
              });
            }, 500);
          }),
      });
      return (
        <ul>
          {list.data?.entities.map((e) => (
            <li key={e.id}>{nameOf(e)}</li>
          ))}
        </ul>
      );
    }
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Names />
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(screen.getByText("Town hall")).toBeInTheDocument();
    // Another client renames the building: the broker notifies the whole entity (hostile bytes in its name).
    held.name = "Mairie .*+?(|\\";
    const renamed = {
      id: "urn:ngsi-ld:Building:1",
      type: "Building",
      name: { type: "Property", value: held.name },
      height: { type: "Property", value: 12 },
    };
    push(`data: ${JSON.stringify(renamed)}\n\n`);
    await act(() => vi.advanceTimersByTimeAsync(20));
    // On screen at once, while the list's read (ordering, counts) has not answered yet.
    expect(screen.getByText(held.name)).toBeInTheDocument();
    expect(screen.queryByText("Town hall")).not.toBeInTheDocument();
    expect(reads).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(reads).toBe(2);
    expect(screen.getByText(held.name)).toBeInTheDocument();
    // A change the list does not show (its height) reads nothing again; a deletion leaves the list at once.
    push(`data: ${JSON.stringify({ ...renamed, height: { type: "Property", value: 13 } })}\n\n`);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(reads).toBe(2);
    push(
      `data: ${JSON.stringify({ id: "urn:ngsi-ld:Building:2", type: "Building", deletedAt: "2026-11-29T07:00:00Z" })}\n\n`,
    );
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(screen.queryByText("Zoo")).not.toBeInTheDocument();
    expect(reads).toBe(2);
  });

  it("keeps a change on screen when a read begun before it answers", async () => {
    const push = signedInWithStream();
    vi.useFakeTimers();
    const query = { typeId: "t1", order: "name" };
    const held = { name: "Town hall" };
    const building = (name: string) => ({
      id: "urn:ngsi-ld:Building:1",
      type: "Building",
      name: { type: "Property", value: name },
    });
    function Names() {
      useLiveEntities({ workspaceId: ws, type: "Building" });
      const list = useQuery({
        queryKey: entityKeys.list(ws, query),
        // Each read takes 500 ms and answers what the broker held when it began.
        queryFn: () => {
          const name = held.name;
          return new Promise<EntityPage>((resolve) =>
            setTimeout(() => resolve({ entities: [building(name)] }), 500),
          );
        },
      });
      return <output>{list.data ? nameOf(list.data.entities[0]) : ""}</output>;
    }
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Names />
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(screen.getByRole("status")).toHaveTextContent("Town hall");
    // A first rename: drawn, and a read begins.
    held.name = "Mairie";
    push(`data: ${JSON.stringify(building(held.name))}\n\n`);
    await act(() => vi.advanceTimersByTimeAsync(100));
    // A second one while that read runs: its answer (the first name) does not take it off the screen.
    held.name = "Hôtel de ville";
    push(`data: ${JSON.stringify(building(held.name))}\n\n`);
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(screen.getByRole("status")).toHaveTextContent("Hôtel de ville");
    await act(() => vi.advanceTimersByTimeAsync(420));
    expect(screen.getByRole("status")).toHaveTextContent("Hôtel de ville");
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole("status")).toHaveTextContent("Hôtel de ville");
  });

  it("reads again for an entity not on the screen, or an event that is not an entity", async () => {
    const push = signedInWithStream();
    vi.useFakeTimers();
    let reads = 0;
    function Names() {
      useLiveEntities({ workspaceId: ws, type: "Building" });
      const list = useQuery({
        queryKey: entityKeys.list(ws, { typeId: "t1", order: "name" }),
        queryFn: async (): Promise<EntityPage> => ({
          entities: [
            { id: "urn:ngsi-ld:Building:1", type: "Building", name: { type: "Property", value: "A" } },
          ],
          total: ++reads,
        }),
      });
      return <output>read {list.data?.total ?? 0}</output>;
    }
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Names />
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(reads).toBe(1);
    // A new entity (or one on another page): where it goes is the server's to say.
    push(`data: ${JSON.stringify({ id: "urn:ngsi-ld:Building:.*+?(|\\", type: "Building" })}\n\n`);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(reads).toBe(2);
    push("data: not json {\n\n");
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(reads).toBe(3);
    push(`data: ${JSON.stringify([{ id: "urn:ngsi-ld:Building:1" }])}\n\n`);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(reads).toBe(4);
    expect(screen.getByText("read 4")).toBeInTheDocument();
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
