// `npm run bench [-- --quick] [-- --engine pglite|postgres]`: the lists at scale on each engine (tests/bench/
// lists.ts), the panel's bundle sizes, Chromium timings at scale and the start time (tests/bench/panel.ts).
// Prints each figure as it is measured, then a table against the targets, and writes tests/bench/results/bench.json.
import fs from 'node:fs';
import path from 'node:path';
import { ensurePanelBuilt } from '../../src/server/panel-build';
import { benchArgs, ENGINES } from './command-line';
import { benchLists, type EngineResult } from './lists';
import { bundleSizes, chromiumTimings, hasChromium, startTimes } from './panel';

const { quick, only } = benchArgs(
  process.argv.slice(2),
  'npm run bench [-- --quick] [-- --engine pglite|postgres]',
);
const scale = quick ? { users: 5_000, postings: 50_000 } : { users: 100_000, postings: 1_000_000 };
// 200 sequential calls, so the p95 is the tenth slowest rather than the second (40 calls) and noise moves it less.
// Every call is first made `warmUp` times on each engine, untimed (lists.ts, warmUpCalls).
const runs = quick
  ? { sequential: 20, concurrent: 100, warmUp: 200 }
  : { sequential: 200, concurrent: 1000, warmUp: 2000 };
const log = (line: string) => console.log(line);

async function main() {
  ensurePanelBuilt(process.cwd(), log);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    quick,
    scale,
    runs,
  };
  console.log(
    `Lists at ${scale.users} users and ${scale.postings} postings (each warmed by ${runs.warmUp} calls, then ${runs.sequential} sequential, ${runs.concurrent} at concurrency 10):`,
  );
  const engines = ENGINES.filter((e) => !only || e === only);
  Object.assign(
    results,
    await benchLists(engines, scale, {
      ...runs,
      log,
      // The browser figures and bundle sizes are taken on the embedded database, as `npm start` runs.
      withServer: {
        engine: 'pglite',
        run: async (origin, admin) => {
          results.bundle = await bundleSizes(origin);
          log(`  bundle: ${JSON.stringify(results.bundle)}`);
          if (hasChromium()) {
            results.chromium = await chromiumTimings(origin, admin);
            log(`  chromium (median of 5): ${JSON.stringify(results.chromium)}`);
          }
        },
      },
    }),
  );
  printTargets(results);
  results.start = await startTimes();
  log(`  start: ${JSON.stringify(results.start)}`);
  const out = path.join('tests', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, quick ? 'bench-quick.json' : 'bench.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  console.log(`written to ${path.join(out, quick ? 'bench-quick.json' : 'bench.json')}`);
}

type ListResults = EngineResult | undefined;

/**
 * The targets, call by call: on PostgreSQL p95 at most 5x the floor's and at least 200 requests/s at
 * concurrency 10; on PGlite at most 2x PostgreSQL's figure for the same call (p95, and requests/s).
 */
function printTargets(results: Record<string, unknown>) {
  const pg = results.postgres as ListResults;
  const lite = results.pglite as ListResults;
  if (!pg && !lite) return;
  const mark = (ok: boolean) => (ok ? 'yes' : 'NO ');
  const met = { floor: 0, runFloor: 0, rate: 0, pglite: 0, pgliteRate: 0 };
  const rows = (pg ?? lite)?.calls ?? [];
  log(
    'Targets (PostgreSQL p95 <= 5x floor, >= 200 req/s at concurrency 10; PGlite within 2x of PostgreSQL):',
  );
  for (const call of rows) {
    const onPg = pg?.calls.find((c) => c.name === call.name);
    const onLite = lite?.calls.find((c) => c.name === call.name);
    const cells = [call.name.padEnd(26)];
    if (onPg) {
      met.floor += Number(onPg.ratio <= 5);
      met.runFloor += Number(onPg.ratioToRunFloor <= 5);
      met.rate += Number(onPg.reqPerSec >= 200);
      cells.push(`${String(onPg.ratio).padStart(5)}x floor ${mark(onPg.ratio <= 5)}`);
      cells.push(`(${String(onPg.ratioToRunFloor).padStart(4)}x run's)`);
      cells.push(`${String(onPg.reqPerSec).padStart(5)} req/s ${mark(onPg.reqPerSec >= 200)}`);
    }
    if (onPg && onLite) {
      const times = onLite.p95 / onPg.p95;
      const slower = onPg.reqPerSec / onLite.reqPerSec;
      met.pglite += Number(times <= 2);
      met.pgliteRate += Number(slower <= 2);
      cells.push(`PGlite p95 ${times.toFixed(1).padStart(4)}x ${mark(times <= 2)}`);
      cells.push(`req/s ${slower.toFixed(1).padStart(4)}x fewer ${mark(slower <= 2)}`);
    }
    log(`  ${cells.join('   ')}`);
  }
  const summary = [
    pg && `p95 within 5x floor beside it: ${met.floor}/${rows.length}`,
    pg && `(of the run's floor: ${met.runFloor}/${rows.length})`,
    pg && `200 req/s: ${met.rate}/${rows.length}`,
    pg && lite && `PGlite p95 within 2x: ${met.pglite}/${rows.length}`,
    pg && lite && `PGlite req/s within 2x: ${met.pgliteRate}/${rows.length}`,
  ].filter(Boolean);
  log(`  met: ${summary.join(', ')}`);
  results.targets = met;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
