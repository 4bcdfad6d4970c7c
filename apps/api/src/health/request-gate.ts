import type { Server } from "node:http";

/**
 * Lets background work give way to the requests this process serves (issue 38): the background
 * health checks of 10,000 components share the event loop and, on PGlite, the one database
 * connection with the users' requests. Before each check the background waits until no request is
 * in flight, for at most `maxWaitMs`: a quiet server checks at full speed, a busy one still checks
 * (a little slower) instead of starving its checks or its users.
 */
export class RequestGate {
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  /** Counts the server's requests from arrival to the end of their response (or their abort). */
  watch(server: Server): void {
    server.on("request", (_request, response) => {
      this.inFlight++;
      response.once("close", () => {
        this.inFlight--;
        if (this.inFlight === 0) this.release();
      });
    });
  }

  /** Resolves once no request is in flight, or after `maxWaitMs` whatever comes. */
  quiet(maxWaitMs: number): Promise<void> {
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
