import { cleanupAll } from "./cleanup.ts";

let exiting = false;

/** Cleans up (temp dirs, databases, servers) and exits, whatever happened; at most 60 s more. */
async function finish(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  setTimeout(() => process.exit(code || 2), 60_000).unref();
  await cleanupAll();
  process.exit(code);
}

/** True once the bench is stopping (time limit, signal): partial figures are not kept. */
export const stopping = () => exiting;

/**
 * Runs a bench's main with a time limit, and cleans up on every way out: its end, an error, the
 * limit, SIGINT/SIGTERM, or an error event nobody listens to (a dropped database connection).
 */
export function runBench(main: () => Promise<number>, timeLimitSeconds: number): void {
  const limit = setTimeout(() => {
    console.error(`\nTime limit of ${timeLimitSeconds} s reached: stopping.`);
    void finish(2);
  }, timeLimitSeconds * 1000);
  limit.unref();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void finish(130));
  process.on("uncaughtException", (error) => {
    console.error("uncaught:", error);
    void finish(1);
  });
  main().then(finish, async (error: unknown) => {
    console.error(error);
    await finish(1);
  });
}
