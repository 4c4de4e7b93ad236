// `npm test`: every suite. Typecheck, lint, server and web unit suites, then the browser suite when
// Debian's Chromium is installed. CI sets REQUIRE_BROWSER=1 so a missing browser fails instead of skipping.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const steps = [];
const run = (name, cmd, args) => {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const { status } = spawnSync(cmd, args, { stdio: 'inherit' });
  steps.push({ name, ok: status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  return status === 0;
};
const npx = (name, ...args) => run(name, 'npx', ['--no-install', ...args]);

npx('typecheck', 'tsc', '--noEmit');
npx('lint', 'biome', 'check', '.');
npx('server + web suites', 'vitest', 'run', '--project', 'server', '--project', 'web');

let browser = 'skipped';
if (fs.existsSync(chromium)) {
  if (npx('build panel', 'vite', 'build', '--logLevel', 'warn')) {
    browser = npx('browser suite', 'vitest', 'run', '--project', 'e2e') ? 'ran' : 'failed';
  } else browser = 'failed';
} else {
  console.log(`\n=== browser suite SKIPPED: no Chromium at ${chromium}.`);
  console.log(
    "    Install Debian's Chromium to run it: sudo apt-get update && sudo apt-get install -y chromium",
  );
  if (process.env.REQUIRE_BROWSER === '1')
    steps.push({ name: 'browser suite (required)', ok: false, seconds: '0' });
}

console.log('\n=== summary');
for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'} ${s.name} (${s.seconds}s)`);
if (browser === 'skipped') console.log('  skip browser suite (Chromium not installed)');
const failed = steps.filter((s) => !s.ok).length;
console.log(`${steps.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
