import type { Server } from "node:http";

/**
 * Lets background work give way to the requests this process serves (issue 38): the background
 * health checks of 10,000 components share the event loop and, on PGlite, the one database
 * connection with the users' requests. Checks pass the gate one at a time: at once while the server
 * is quiet, else after waiting for a quiet moment for at most `maxWaitMs`. Quiet is no request in
 * flight for `settleMs`: clients asking one list after another leave a few milliseconds between an
 * answer and their next request, and a check let through in each of those gaps took a third of a
 * busy list's time (its p95 1.33x at 10,000 components on PGlite). A quiet server checks at full
 * speed (as many at once as its pool allows); a busy one starts at most one check per `maxWaitMs`,
 * so its checks go on, slower, without taking the users' time.
 */
export class RequestGate {
  private inFlight = 0;
  /** When the last response ended (performance.now()). */
  private lastEnd = -Infinity;
  private settleTimer: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];
  private turn: Promise<void> = Promise.resolve();

  constructor(private readonly settleMs = 50) {}

  /**
   * Counts the server's requests from arrival to the end of their response (or their abort). An
   * event stream (a console watching live, a thing's observation) stays open for hours: it is not a
   * request waiting to be served, and would hold every check to one per `maxWaitMs`.
   */
  watch(server: Server): void {
    server.on("request", (request, response) => {
      if (request.headers.accept?.includes("text/event-stream")) return;
      this.inFlight++;
      clearTimeout(this.settleTimer);
      response.once("close", () => {
        this.inFlight--;
        this.lastEnd = performance.now();
        if (this.inFlight === 0) this.releaseWhenSettled();
      });
    });
  }

  /** Resolves in turn: once the server is quiet, or `maxWaitMs` after the previous one passed. */
  quiet(maxWaitMs: number): Promise<void> {
    const mine = this.turn.then(() => this.untilQuiet(maxWaitMs));
    this.turn = mine;
    return mine;
  }

  private isQuiet(): boolean {
    return this.inFlight === 0 && performance.now() - this.lastEnd >= this.settleMs;
  }

  private untilQuiet(maxWaitMs: number): Promise<void> {
    if (this.isQuiet()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMs);
      this.waiters.push(done);
      if (this.inFlight === 0) this.releaseWhenSettled();
    });
  }

  /** Lets the waiting checks go once no request came within `settleMs` of the last answer. */
  private releaseWhenSettled(): void {
    clearTimeout(this.settleTimer);
    const left = this.settleMs - (performance.now() - this.lastEnd);
    this.settleTimer = setTimeout(
      () => {
        if (this.isQuiet()) for (const waiter of [...this.waiters]) waiter();
      },
      Math.max(0, Math.ceil(left) + 1),
    );
    this.settleTimer.unref();
  }
}
