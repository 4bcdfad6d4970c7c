import type { FastifyInstance } from "fastify";
import type { KindDefinition } from "@orrery/model";
import type { Row } from "../resources/records.ts";
import type { Database } from "../storage/database.ts";
import type { CheckResult } from "./check.ts";
import { RequestGate } from "./request-gate.ts";
import { claimDue, componentRows, forgetRemoved, saveHealthMany, tidyHealth, type Checked } from "./store.ts";

/** How many components one process checks at a time (each check waits at most the timeout). */
export const PARALLEL_CHECKS = 8;

/**
 * How long a background check waits for no request to be in flight before it goes anyway: with
 * 10,000 components the checks run all the time, and without giving way they took the event loop
 * (and PGlite's one connection) from the users' lists.
 */
const QUIET_WAIT_MS = 100;

/**
 * Components whose records are read in one statement. Their checks' start time is that of the
 * read (a check must not be taken for the record's next version), so a batch is small enough to
 * be checked within a few seconds of it.
 */
const READ_BATCH = 2 * PARALLEL_CHECKS;

/** Results kept in one statement: at most this many, or what came within FLUSH_MS. */
const WRITE_BATCH = 64;
const FLUSH_MS = 1000;

/** Runs `work` on every item (and its index), `PARALLEL_CHECKS` at a time. */
export async function inPool<T>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHECKS, items.length) }, worker));
}

/**
 * The results of the background checks, written a batch at a time: WRITE_BATCH of them, or those
 * of the last FLUSH_MS, in one statement instead of one (and on PGlite one commit) per check.
 */
class ResultWriter {
  private pending: Checked[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly failed: (err: unknown) => void,
  ) {}

  add(checked: Checked): void {
    this.pending.push(checked);
    if (this.pending.length >= WRITE_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is pending, after the writes before it; resolves once everything is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writing.then(() => saveHealthMany(this.db, batch).catch(this.failed));
    return this.writing;
  }
}

/**
 * The background checks. Every tick (a tenth of the interval, at least a second) each component
 * not checked nor claimed for almost an interval is claimed and checked, so that one goes at most
 * an interval between checks (a component that goes down shows within one interval), and a process
 * never checks what another has just checked. The due components' records are read a batch at a
 * time and their results written a batch at a time (issue 38: 10,000 components made two
 * statements a check); each check waits for a quiet moment of the users' requests.
 */
export function runInBackground(
  app: FastifyInstance,
  db: Database,
  options: {
    kinds: readonly string[];
    /** Grants sign in with their credentials: claimed for at least this long. */
    grantKinds: ReadonlySet<string>;
    grantSeconds: number;
    kindOf: (name: string) => KindDefinition;
    check: (kind: KindDefinition, row: Row) => Promise<CheckResult>;
    intervalSeconds: number;
  },
): void {
  const tickMs = Math.max(1000, (options.intervalSeconds * 1000) / 10);
  const staleSeconds = Math.max(0, options.intervalSeconds - tickMs / 1000);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closing = false;
  const gate = new RequestGate();
  gate.watch(app.server);
  const writer = new ResultWriter(db, (err) => app.log.warn({ err }, "background health results not saved"));

  /** Checks the due components, their records read READ_BATCH at a time as the checks reach them. */
  async function checkAll(due: ReadonlyArray<{ id: string; kind: string }>) {
    const reads = new Map<number, Promise<{ startedAt: Date; rows: Map<string, Row> }>>();
    const read = (batch: number) => {
      let found = reads.get(batch);
      if (!found) {
        const startedAt = new Date();
        const ids = due.slice(batch * READ_BATCH, (batch + 1) * READ_BATCH).map((c) => c.id);
        found = componentRows(db, ids).then((rows) => ({ startedAt, rows }));
        reads.set(batch, found);
        // The checks go in order: those of two batches back have their rows (read again if not).
        reads.delete(batch - 2);
      }
      return found;
    };
    await inPool(due, async (c, index) => {
      // Users' requests first: a check waits for a quiet moment (at most QUIET_WAIT_MS).
      await gate.quiet(QUIET_WAIT_MS);
      if (closing) return;
      try {
        const { startedAt, rows } = await read(Math.floor(index / READ_BATCH));
        const row = rows.get(c.id);
        // A component removed since it was claimed has nothing to check.
        if (!row) return;
        const result = await options.check(options.kindOf(c.kind), row);
        writer.add({ id: c.id, kind: c.kind, result, startedAt });
      } catch (err) {
        app.log.warn({ err, component: c.id }, "background health check failed");
      }
    });
  }

  async function tick() {
    await forgetRemoved(db);
    const grants = options.kinds.filter((k) => options.grantKinds.has(k));
    const others = options.kinds.filter((k) => !options.grantKinds.has(k));
    const due = [
      ...(await claimDue(db, others, staleSeconds)),
      ...(await claimDue(db, grants, Math.max(staleSeconds, options.grantSeconds))),
    ];
    try {
      await checkAll(due);
    } finally {
      await writer.flush();
    }
    // A round rewrote the rows of its components (their claims, their results).
    if (due.length && !closing)
      await tidyHealth(db).catch((err: unknown) => app.log.warn({ err }, "component_health not vacuumed"));
  }

  const start = () => {
    if (running || closing) return;
    running = tick()
      .catch((err: unknown) => app.log.warn({ err }, "background health checks failed"))
      .finally(() => (running = undefined));
  };
  app.addHook("onReady", async () => {
    timer = setInterval(start, tickMs);
    timer.unref();
    // The first checks once this process listens: its own embedded broker is one of the components
    // (checked before, it would show as refused for a whole interval).
    if (app.server.listening) start();
    else app.server.once("listening", start);
  });
  app.addHook("onClose", async () => {
    closing = true;
    clearInterval(timer);
    await running;
  });
}
