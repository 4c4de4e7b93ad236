// `npm run bench [-- --quick] [-- --engine pglite|postgres]`: the lists at scale on each engine (tests/bench/
// lists.ts), the panel's bundle sizes, Chromium timings at scale and the start time (tests/bench/panel.ts).
// Prints each figure as it is measured, then a table against the targets, and writes tests/bench/results/bench.json.
import fs from 'node:fs';
import path from 'node:path';
import { ensurePanelBuilt } from '../../src/server/panel-build';
import { benchLists } from './lists';
import { bundleSizes, chromiumTimings, hasChromium, startTimes } from './panel';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : undefined;
const scale = quick ? { users: 5_000, postings: 50_000 } : { users: 100_000, postings: 1_000_000 };
const runs = quick ? { sequential: 20, concurrent: 100 } : { sequential: 40, concurrent: 300 };
const log = (line: string) => console.log(line);

async function main() {
  ensurePanelBuilt(process.cwd(), log);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    quick,
    scale,
  };
  console.log(
    `Lists at ${scale.users} users and ${scale.postings} postings (${runs.sequential} sequential, ${runs.concurrent} at concurrency 10):`,
  );
  const engines = (['postgres', 'pglite'] as const).filter((e) => !only || e === only);
  for (const engine of engines) {
    results[engine] = await benchLists(engine, scale, {
      ...runs,
      log,
      // The browser figures and bundle sizes are taken on the embedded database, as `npm start` runs.
      withServer:
        engine === 'pglite'
          ? async (origin, admin) => {
              results.bundle = await bundleSizes(origin);
              log(`  bundle: ${JSON.stringify(results.bundle)}`);
              if (hasChromium()) {
                results.chromium = await chromiumTimings(origin, admin);
                log(`  chromium (median of 5): ${JSON.stringify(results.chromium)}`);
              }
            }
          : undefined,
    });
  }
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
