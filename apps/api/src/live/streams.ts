import type { FastifyReply, FastifyRequest } from "fastify";
import { liveStreams } from "../metrics/registry.ts";

/** Whether the caller asks for Server-Sent Events (EventSource, the console's stream reader) rather than a long poll. */
export const wantsEventStream = (request: FastifyRequest) =>
  /\btext\/event-stream\b/i.test(String(request.headers.accept ?? ""));

/**
 * Turns the reply into a Server-Sent Events stream: the headers the hooks set (security, CORS)
 * are kept, a comment opens it at once (EventSource reports it open) and another every 25 s keeps
 * proxies from cutting it. Each `send` is one `message` event whose data is the JSON of a value.
 */
export function eventStream(reply: FastifyReply, onClose: () => void) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string | string[]>),
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    // nginx and its kind would hold the events back in a buffer.
    "x-accel-buffering": "no",
  });
  raw.write(": open\n\n");
  liveStreams.inc();
  const heartbeat = setInterval(() => raw.write(": keep-alive\n\n"), 25_000).unref();
  raw.on("close", () => {
    liveStreams.dec();
    clearInterval(heartbeat);
    onClose();
  });
  return {
    // JSON has no raw line break: one data line per event. It leaves at once: Node corks the
    // socket at each write of a response and uncorks it with process.nextTick, which, for a write
    // made in a promise callback (the embedded broker's delivery), runs only once every queued
    // promise callback has run; the delivery worker's next queries held events back 5 to 15 ms
    // in bench/live. Corked here, the write leaves with this uncork.
    send: (value: unknown) => {
      raw.cork();
      raw.write(`data: ${JSON.stringify(value)}\n\n`);
      raw.uncork();
    },
    end: () => void raw.end(),
  };
}

/** What a mailbox's subscriber gives to the channel: each value, and the end of the channel. */
export interface Sink {
  push(value: unknown): void;
  end(): void;
}

type Taken = { value: unknown } | { ended: true } | { gone: true };

interface Box {
  queue: unknown[];
  waiters: Set<(taken: Taken) => void>;
  ready: Promise<void>;
  unlisten?: () => void;
  timer?: NodeJS.Timeout;
}

/**
 * Long polling (the WoT HTTP binding's `longpoll`, node-wot's default): a client's changes wait in
 * a mailbox between two polls, so that none is lost in the gap, and the first poll's handshake
 * (a HEAD) already listens. A mailbox belongs to a caller (the digest of its token) and what it
 * observes; it is dropped when no poll came for `keepMs`, and holds at most `size` values.
 */
export class Mailboxes {
  private readonly boxes = new Map<string, Box>();

  constructor(
    private readonly keepMs = 60_000,
    private readonly size = 100,
  ) {}

  /** The mailbox of `key`, subscribed first if new (`subscribe` returns how to unsubscribe). */
  async open(key: string, subscribe: (sink: Sink) => Promise<() => void>): Promise<void> {
    let box = this.boxes.get(key);
    if (!box) {
      const created: Box = { queue: [], waiters: new Set(), ready: Promise.resolve() };
      box = created;
      this.boxes.set(key, created);
      created.ready = subscribe({
        push: (value) => {
          if (created.waiters.size) for (const waiter of [...created.waiters]) waiter({ value });
          else if (created.queue.push(value) > this.size) created.queue.shift();
        },
        end: () => {
          this.drop(key, created);
          for (const waiter of [...created.waiters]) waiter({ ended: true });
        },
      }).then((unlisten) => {
        created.unlisten = unlisten;
      });
      created.ready.catch(() => this.drop(key, created));
    }
    await box.ready;
    this.keep(key, box);
  }

  /** The next value of an open mailbox: one waiting, or the next to come; `gone` when the client left first. */
  take(key: string, reply: FastifyReply): Promise<Taken> {
    const box = this.boxes.get(key);
    if (!box) return Promise.resolve({ ended: true });
    if (box.queue.length) {
      this.keep(key, box);
      return Promise.resolve({ value: box.queue.shift() });
    }
    clearTimeout(box.timer);
    return new Promise<Taken>((resolve) => {
      const settle = (taken: Taken) => {
        box.waiters.delete(settle);
        reply.raw.off("close", left);
        this.keep(key, box);
        resolve(taken);
      };
      const left = () => settle({ gone: true });
      box.waiters.add(settle);
      reply.raw.on("close", left);
    });
  }

  /** Drops every mailbox (the process stops). */
  clear(): void {
    for (const [key, box] of this.boxes) {
      this.drop(key, box);
      for (const waiter of [...box.waiters]) waiter({ ended: true });
    }
  }

  private keep(key: string, box: Box): void {
    clearTimeout(box.timer);
    if (box.waiters.size === 0 && this.boxes.get(key) === box)
      box.timer = setTimeout(() => this.drop(key, box), this.keepMs).unref();
  }

  private drop(key: string, box: Box): void {
    clearTimeout(box.timer);
    if (this.boxes.get(key) === box) this.boxes.delete(key);
    box.unlisten?.();
    box.unlisten = undefined;
  }
}
