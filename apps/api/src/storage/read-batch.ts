/**
 * Reads by key that arrive together go to the database together: the keys asked while the
 * requests read in this turn of the event loop are handled are read once they have all asked
 * (one `setImmediate`, microseconds), by one statement. Nothing is kept after: a key asked later
 * is read again, so a read always sees what was committed before it was asked.
 *
 * Why: 50 users opening a workspace's entities page at once each looked up the workspace, its
 * service, its broker and the type by id (bench/load.ts): 200 statements whose fixed cost (PGlite
 * runs them one at a time, in the API's own thread) was most of the page's time.
 */
export class ReadBatch<K, V> {
  private waiting?: Map<
    K,
    Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>
  >;

  constructor(
    /** The values of these keys (absent: none). */
    private readonly readMany: (keys: K[]) => Promise<Map<K, V>>,
  ) {}

  load(key: K): Promise<V | undefined> {
    if (!this.waiting) {
      this.waiting = new Map();
      setImmediate(() => void this.flush());
    }
    const waiting = this.waiting;
    return new Promise((resolve, reject) => {
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
  }

  private async flush() {
    const waiting = this.waiting!;
    this.waiting = undefined;
    try {
      const found = await this.readMany([...waiting.keys()]);
      // Each caller its own copy: one may change what it was given without the others seeing it.
      for (const [key, [first, ...others]] of waiting) {
        const value = found.get(key);
        first!.resolve(value);
        for (const c of others) c.resolve(value === undefined ? undefined : structuredClone(value));
      }
    } catch (error) {
      for (const callers of waiting.values()) for (const c of callers) c.reject(error);
    }
  }
}
