import type { Actor, AuditEvent } from "./trail.ts";

/** The longest path, id or kind a refusal keeps: the caller chose them, and may send kilobytes. */
export const REFUSAL_TEXT_MAX = 256;
const WINDOW_MS = 60_000;
const SWEEP_MS = 1_000;

const cut = (text: string | undefined) => (text ?? "").slice(0, REFUSAL_TEXT_MAX);

interface Repeated {
  by: Actor;
  event: AuditEvent;
  count: number;
  lastAt: Date;
}

/**
 * Refused writes, aggregated: the first refusal of a user on a route (method and route pattern) is
 * written at once, as it happens, so that whoever reads the trail right after finds it; the same
 * user's refusals on that route in the minute that follows become one more row with their count (and
 * the last path), written when the minute ends (or the process stops). A user who sends a thousand
 * refused writes a second costs the trail two rows a minute a route, each of bounded size.
 */
export class RefusalLog {
  /** The end of each open window, by user and route. */
  private readonly windows = new Map<string, number>();
  private readonly repeated = new Map<string, Repeated>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: (by: Actor, event: AuditEvent) => Promise<void>,
    private readonly windowMs = WINDOW_MS,
  ) {
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  /** Records a refusal of `route` (its pattern, `METHOD /api/...`), cutting what the caller chose. */
  async record(by: Actor, route: string, event: AuditEvent): Promise<void> {
    const detail = event.detail ?? {};
    const bounded: AuditEvent = {
      ...event,
      kind: cut(event.kind),
      recordId: cut(event.recordId),
      workspaceId: cut(event.workspaceId),
      title: cut(event.title),
      detail: { ...detail, path: cut(String(detail.path ?? "")), route: cut(route), count: 1 },
    };
    const key = JSON.stringify([by.provider, by.subject, route]);
    const now = Date.now();
    const end = this.windows.get(key);
    if (end !== undefined && now < end) {
      const seen = this.repeated.get(key);
      if (seen) {
        seen.count++;
        seen.lastAt = new Date(now);
        seen.event = bounded;
      } else this.repeated.set(key, { by, event: bounded, count: 1, lastAt: new Date(now) });
      return;
    }
    this.windows.set(key, now + this.windowMs);
    await this.write(by, bounded);
  }

  /** Writes the count of each window that ended (all of them when `all`). */
  async sweep(all = false): Promise<void> {
    const now = Date.now();
    const due: Repeated[] = [];
    for (const [key, end] of this.windows) {
      if (!all && end > now) continue;
      this.windows.delete(key);
      const seen = this.repeated.get(key);
      if (seen) due.push(seen);
      this.repeated.delete(key);
    }
    for (const { by, event, count, lastAt } of due)
      await this.write(by, {
        ...event,
        detail: { ...event.detail, count, lastAt: lastAt.toISOString() },
      });
  }

  /** Stops the sweeps and writes what is counted. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.sweep(true);
  }
}
