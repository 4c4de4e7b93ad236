// Sequential latencies and throughput at concurrency 10 of one operation: what every list figure of the bench is.
export interface Figures {
  p50: number;
  p95: number;
  reqPerSec: number;
}
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** `n` sequential runs' times in ms, after a warm-up (three runs unless told). */
export async function sequentialTimes(run: () => Promise<unknown>, n: number, warmUp = 3): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Runs per second of `total` runs, ten at a time. */
export async function throughput(run: () => Promise<unknown>, total: number): Promise<number> {
  let left = total;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (left-- > 0) await run();
    }),
  );
  return Math.round(total / ((performance.now() - started) / 1000));
}

/** p50 and p95 of sequential times (ms, two decimals). */
export function latencies(times: number[]): Pick<Figures, 'p50' | 'p95'> {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: Number(percentile(sorted, 0.5).toFixed(2)),
    p95: Number(percentile(sorted, 0.95).toFixed(2)),
  };
}

/** Sequential latencies (after a warm-up) and throughput at concurrency 10 of one operation. */
export async function measure(
  run: () => Promise<unknown>,
  opts: { sequential: number; concurrent: number },
): Promise<Figures> {
  const times = await sequentialTimes(run, opts.sequential);
  return { ...latencies(times), reqPerSec: await throughput(run, opts.concurrent) };
}
