/**
 * Lists answered again while no record has changed (issue 38): the JSON text of a list, kept with
 * the records' version it was read at. The version is the database's (migration 0026: one counter
 * that every transaction writing records raises once, as it commits), so several API processes
 * sharing one PostgreSQL each see every write, theirs or another's, on their next list.
 *
 * Why it is safe: the version is read first, the list after, each in its own snapshot. A list read
 * after version v holds every write committed up to v (and maybe later ones, kept under v: the next
 * read sees v+1 and reads the list again). Never older than the version it is kept under.
 */
export class ListCache {
  private readonly lists = new Map<string, { version: string; json: string }>();

  constructor(
    /** The records' version now, from the database. */
    private readonly version: () => Promise<string>,
    /** Lists kept at most (the oldest kept goes first); a list of 10,000 context brokers is 3 MB. */
    private readonly max = 32,
  ) {}

  async get(key: string, read: () => Promise<string>): Promise<string> {
    const version = await this.version();
    const kept = this.lists.get(key);
    if (kept?.version === version) return kept.json;
    const json = await read();
    this.lists.delete(key);
    if (this.lists.size >= this.max) this.lists.delete(this.lists.keys().next().value!);
    this.lists.set(key, { version, json });
    return json;
  }
}
