/** Latency figures of one phase: throughput over its wall time, percentiles of single operations. */
export interface Figures {
  count: number;
  wallMs: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** The middle value (the upper one of an even count). */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Timings of one kind of operation, gathered over one or more runs. */
export class Sample {
  private readonly latencies: number[] = [];
  private wallMs = 0;

  /** Runs task(from..to-1) with at most `concurrency` in flight, timing each; fails on the first error. */
  async run(
    from: number,
    to: number,
    concurrency: number,
    task: (i: number) => Promise<void>,
  ): Promise<void> {
    let next = from;
    const worker = async () => {
      while (next < to) {
        const i = next++;
        const start = performance.now();
        await task(i);
        this.latencies.push(performance.now() - start);
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: Math.min(concurrency, to - from) }, worker));
    this.wallMs += performance.now() - start;
  }

  /** Adds one operation timed by the caller; its latency also counts as wall time. */
  record(ms: number): void {
    this.latencies.push(ms);
    this.wallMs += ms;
  }

  figures(): Figures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      count: sorted.length,
      wallMs: round(this.wallMs),
      perSecond: round((sorted.length / this.wallMs) * 1000),
      p50Ms: round(percentile(sorted, 50)),
      p95Ms: round(percentile(sorted, 95)),
      maxMs: round(sorted.at(-1) ?? NaN),
    };
  }
}

export async function timed(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<Figures> {
  const sample = new Sample();
  await sample.run(0, count, concurrency, task);
  return sample.figures();
}

export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
