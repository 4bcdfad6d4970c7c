import { describe, expect, it } from "vitest";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";
import { driver } from "./support/harness.ts";

// GET /metrics' live gauges follow the streams browsers really hold (issue 38): read as a scraper
// reads them, over HTTP, while streams open and close on the embedded broker's workspace.

const ctx = useEmbeddedWorkspace();

async function gauges() {
  const res = await fetch(`${ctx.base}/metrics`, {
    headers: { authorization: `Bearer ${await ctx.t.tokenFor("admin")}` },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const value = (name: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${name} `));
    expect(line, `${name} in the exposition`).toBeDefined();
    return Number(line!.slice(name.length + 1));
  };
  return { streams: value("orrery_live_streams_open"), channels: value("orrery_live_channels") };
}

/** Opens a Server-Sent Events stream on a type's entities; `close` ends it from the browser's side. */
async function open(type: string) {
  const stop = new AbortController();
  const res = await fetch(`${ctx.base}${ctx.path}/live/entities?type=${type}`, {
    headers: { accept: "text/event-stream", authorization: `Bearer ${await ctx.t.tokenFor("viewer")}` },
    signal: stop.signal,
  });
  expect(res.status).toBe(200);
  void res
    .body!.getReader()
    .read()
    .catch(() => undefined);
  return () => stop.abort();
}

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await check()).toBe(true);
}

describe(`GET /metrics: the live gauges (${driver})`, () => {
  it("counts the streams open and the channels they share, and counts a closed stream out at once", async () => {
    const before = await gauges();
    const closers = [await open("Building"), await open("Building"), await open("Person")];
    // Three streams; the two on Building share one broker subscription: two channels.
    await until(async () => (await gauges()).streams === before.streams + 3);
    expect((await gauges()).channels).toBe(before.channels + 2);

    closers.forEach((close) => close());
    await until(async () => (await gauges()).streams === before.streams);
    // A channel nobody watches lingers a while (a reload finds it open), so it is still counted.
    expect((await gauges()).channels).toBe(before.channels + 2);
  });
});
