/**
 * Lists answered again while no record has changed (issue 38): the JSON text of a list, kept with
 * the records' version it was read at. The version is the database's (migration 0026: one counter
 * that every transaction writing records raises once, as it commits), so several API processes
 * sharing one PostgreSQL each see every write, theirs or another's, on their next list.
 *
 * Why it is safe: the version is read first, the list after, each in its own snapshot. A list read
 * after version v holds every write committed up to v (and maybe later ones, kept under v: the next
 * read sees v+1 and reads the list again). Never older than the version it is kept under.
 *
 * Requests that arrive together share the work (bench/load.ts: 50 clients on one list): one read
 * of the version serves every list asked before that read was sent (so it is taken after each of
 * them arrived, and sees every write they could know of), and one reading of a list serves every
 * request that found the same version without it. The text is kept encoded (UTF-8 bytes): a list
 * of 10,000 is 3 MB that each answer would otherwise encode again.
 */
export class ListCache {
  private readonly lists = new Map<string, { version: string; json: Buffer }>();
  /** Lists being read, by key, with the version they will be kept under. */
  private readonly reading = new Map<string, { version: string; json: Promise<Buffer> }>();
  /** The read of the version not sent yet, that every list asked meanwhile waits for. */
  private nextVersion?: Promise<string>;

  constructor(
    /** The records' version now, from the database. */
    private readonly version: () => Promise<string>,
    /** Lists kept at most (the oldest kept goes first); a list of 10,000 context brokers is 3 MB. */
    private readonly max = 32,
  ) {}

  /**
   * The version as it is now: read once the requests being handled in this turn of the event loop
   * have all asked (setImmediate), for all of them.
   */
  private versionNow(): Promise<string> {
    return (this.nextVersion ??= new Promise<string>((resolve, reject) => {
      setImmediate(() => {
        this.nextVersion = undefined;
        this.version().then(resolve, reject);
      });
    }));
  }

  async get(key: string, read: () => Promise<string>): Promise<Buffer> {
    const version = await this.versionNow();
    const kept = this.lists.get(key);
    if (kept?.version === version) return kept.json;
    const running = this.reading.get(key);
    if (running?.version === version) return running.json;
    const json = read().then((text) => Buffer.from(text));
    this.reading.set(key, { version, json });
    try {
      const text = await json;
      this.keep(key, version, text);
      return text;
    } finally {
      if (this.reading.get(key)?.json === json) this.reading.delete(key);
    }
  }

  /** Keeps a list unless a list of a later version is kept already (a slower reading of an earlier one ends last). */
  private keep(key: string, version: string, json: Buffer) {
    const kept = this.lists.get(key);
    if (kept && later(kept.version, version)) return;
    this.lists.delete(key);
    if (this.lists.size >= this.max) this.lists.delete(this.lists.keys().next().value!);
    this.lists.set(key, { version, json });
  }
}

/** Whether version a comes after b (both the counter's decimal text). */
const later = (a: string, b: string) => a.length > b.length || (a.length === b.length && a > b);
