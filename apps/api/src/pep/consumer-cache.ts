/**
 * A small cache of answers for a short time, shared by concurrent askers: a value asked while the
 * first ask is under way waits for that one. A failed ask is not kept (the next request asks
 * again); the oldest entries go first past `max`, so that a flood of distinct tokens cannot grow it.
 */
export class TimedCache<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  get(key: string, ask: () => Promise<T>, ttlMs = this.ttlMs): Promise<T> {
    const now = Date.now();
    const found = this.entries.get(key);
    if (found && found.until > now) return found.value;
    if (found) this.entries.delete(key);
    const value = ask();
    if (ttlMs <= 0) return value;
    const entry = { until: now + ttlMs, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  /** Keeps a value already known (an answer asked together with others). */
  set(key: string, value: T, ttlMs = this.ttlMs): void {
    if (ttlMs > 0) this.entries.set(key, { until: Date.now() + ttlMs, value: Promise.resolve(value) });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
