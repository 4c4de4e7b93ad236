// Benchmark: how long does the server's event loop stall while the embedded database runs a one-second
// query? Measures PGlite in its worker thread (how Tierdesk runs it) and, for contrast, on the main thread.
// Prints the figures and writes them to tests/bench/results/event-loop.json.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/server/db/open';

const TICK_MS = 5;

/** Runs `work` while a timer ticks every 5 ms; returns the longest gap between ticks and the tick count. */
async function measure(work: () => Promise<unknown>) {
  let last = performance.now();
  let longest = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks++;
  }, TICK_MS);
  const started = performance.now();
  await work();
  const elapsed = performance.now() - started;
  clearInterval(timer);
  // A loop frozen for the whole query never ticks: the stall then runs up to the query's end.
  longest = Math.max(longest, performance.now() - last);
  return {
    queryMs: Math.round(elapsed),
    longestGapMs: Math.round(longest),
    ticks,
    expectedTicks: Math.floor(elapsed / TICK_MS),
  };
}

async function main() {
  const worker = await openDatabase({ databaseUrl: 'memory://', dataDir: '' });
  await worker.pool.query('select 1');
  const inWorker = await measure(() => worker.pool.query('select pg_sleep(1)'));
  const roundTrips = 200;
  const t0 = performance.now();
  for (let i = 0; i < roundTrips; i++) await worker.pool.query('select 1');
  const roundTripMs = (performance.now() - t0) / roundTrips;
  await worker.close();

  const main = await PGlite.create();
  await main.query('select 1');
  const onMainThread = await measure(() => main.query('select pg_sleep(1)'));
  await main.close();

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    pgliteInWorker: { ...inWorker, trivialRoundTripMs: Number(roundTripMs.toFixed(2)) },
    pgliteOnMainThread: onMainThread,
  };
  console.log('Event-loop gap while the embedded database runs select pg_sleep(1):');
  console.log(
    `  PGlite in worker thread (Tierdesk): longest gap ${inWorker.longestGapMs} ms, ${inWorker.ticks}/${inWorker.expectedTicks} ticks, trivial round trip ${roundTripMs.toFixed(2)} ms`,
  );
  console.log(
    `  PGlite on the main thread        : longest gap ${onMainThread.longestGapMs} ms, ${onMainThread.ticks}/${onMainThread.expectedTicks} ticks`,
  );
  const out = path.join('tests', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'event-loop.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`  written to ${path.join(out, 'event-loop.json')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
