import type { Server } from "node:http";

/**
 * Lets background work give way to the requests this process serves (issue 38): the background
 * health checks of 10,000 components share the event loop and, on PGlite, the one database
 * connection with the users' requests. Checks pass the gate one at a time: at once while no request
 * is in flight, else after waiting for one quiet moment for at most `maxWaitMs`. A quiet server
 * checks at full speed (as many at once as its pool allows); a busy one starts at most one check per
 * `maxWaitMs`, so its checks go on, slower, without taking the users' time.
 */
export class RequestGate {
  private inFlight = 0;
  private waiters: Array<() => void> = [];
  private turn: Promise<void> = Promise.resolve();

  /**
   * Counts the server's requests from arrival to the end of their response (or their abort). An
   * event stream (a console watching live, a thing's observation) stays open for hours: it is not a
   * request waiting to be served, and would hold every check to one per `maxWaitMs`.
   */
  watch(server: Server): void {
    server.on("request", (request, response) => {
      if (request.headers.accept?.includes("text/event-stream")) return;
      this.inFlight++;
      response.once("close", () => {
        this.inFlight--;
        if (this.inFlight === 0) this.release();
      });
    });
  }

  /** Resolves in turn: once no request is in flight, or `maxWaitMs` after the previous one passed. */
  quiet(maxWaitMs: number): Promise<void> {
    const mine = this.turn.then(() => this.untilQuiet(maxWaitMs));
    this.turn = mine;
    return mine;
  }

  private untilQuiet(maxWaitMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMs);
      this.waiters.push(done);
    });
  }

  private release(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
