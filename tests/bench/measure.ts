// Sequential latencies and throughput at concurrency 10 of one operation: what every list figure of the bench is.
export interface Figures {
  p50: number;
  p95: number;
  reqPerSec: number;
}
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Sequential latencies (after a warm-up) and throughput at concurrency 10 of one operation. */
export async function measure(
  run: () => Promise<unknown>,
  opts: { sequential: number; concurrent: number },
): Promise<Figures> {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < opts.sequential; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  let left = opts.concurrent;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (left-- > 0) await run();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    p50: Number(percentile(times, 0.5).toFixed(2)),
    p95: Number(percentile(times, 0.95).toFixed(2)),
    reqPerSec: Math.round(opts.concurrent / seconds),
  };
}
