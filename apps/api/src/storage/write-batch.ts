/**
 * Writes that arrive together go to the database together: the first write of a quiet moment is
 * sent once the I/O the process is handling now has been read (one `setImmediate`, microseconds),
 * with every write that arrived meanwhile; the writes that arrive while a batch is in the database
 * make the next batch. One request alone is written alone, at once.
 *
 * Why: a statement's fixed cost (parse, plan, executor, round trip, WAL record of the commit) was
 * most of a create's time; eight creates in one statement cost about a third of eight statements
 * (PGlite 240 µs a row alone, 70 µs in eights; `bench/api-crud.ts`). A statement is atomic, so every
 * row of a batch and its audit event are written, or none.
 *
 * A batch that fails is written again one write at a time, so that each write gets its own answer
 * (a name already taken fails its own create, not its neighbours').
 */
export class WriteBatch<T> {
  private queue: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private writing = 0;

  /**
   * `lanes`: how many batches may be in the database at once. One suits PGlite (it runs one
   * statement at a time: more lanes only make smaller batches); a server with a pool of connections
   * takes the next batch while one is on its way back.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly lanes = 1,
    private readonly max = 100,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.writing >= this.lanes) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush() {
    const batch = this.queue.splice(0, this.max);
    if (!batch.length) return;
    this.writing++;
    try {
      await this.write(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else await this.oneByOne(batch);
    } finally {
      this.writing--;
      if (this.queue.length) this.schedule();
    }
  }

  private async oneByOne(batch: typeof this.queue) {
    for (const w of batch) {
      try {
        await this.write([w.item]);
        w.resolve();
      } catch (error) {
        w.reject(error);
      }
    }
  }
}
