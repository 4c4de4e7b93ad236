// `npm test`: every suite. Typecheck, lint, server and web unit suites, the read replica's and failover's suite when
// PostgreSQL 15 is installed, then the browser suite when Debian's Chromium is installed. CI sets REQUIRE_BROWSER=1 so a
// missing browser fails instead of skipping.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

// Each vitest step also writes its results as JSON, so the summary (the last lines, all a CI log may keep) can
// name the tests that failed and how, not only the step.
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-tests-'));
const failures = [];
const vitest = (name, ...args) => {
  const report = path.join(reports, `${steps.length}.json`);
  const json = ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const ok = npx(name, 'vitest', 'run', ...args, ...json);
  if (!ok) failures.push(...failedTests(report));
  return ok;
};

/** `file > test: its message` for each failed test (or test file that failed to run) of a JSON report. */
function failedTests(report) {
  if (!fs.existsSync(report)) return ['(no report written: the run stopped before its end)'];
  // The message and its diff, not the stack.
  const message = (text) =>
    String(text ?? '')
      .split('\n')
      .filter((line) => !/^\s+at /.test(line))
      .slice(0, 12)
      .join('\n      ');
  const { testResults = [] } = JSON.parse(fs.readFileSync(report, 'utf8'));
  return testResults.flatMap((file) => {
    const where = path.relative(process.cwd(), file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (!failed.length) return file.status === 'failed' ? [`${where}: ${message(file.message)}`] : [];
    return failed.map((test) => `${where} > ${test.fullName}:\n      ${message(test.failureMessages?.[0])}`);
  });
}

npx('typecheck', 'tsc', '--noEmit');
npx('lint', 'biome', 'check', '.');
vitest('server + web suites', '--project', 'server', '--project', 'web');

// The read replica's and the failover's tests each start a PostgreSQL 15 primary and a streaming replica of their own
// (scripts/pg-cluster.sh, which installs Debian's postgresql-15 when it is missing). CI sets REQUIRE_POSTGRES=1
// so it runs there whatever is installed; elsewhere it runs when PostgreSQL 15 is installed.
const postgres15 = '/usr/lib/postgresql/15/bin/pg_ctl';
let replica = 'skipped';
if (fs.existsSync(postgres15) || process.env.REQUIRE_POSTGRES === '1') {
  replica = vitest(
    'replica suite (PostgreSQL 15 primary and streaming replica: the read replica, failover)',
    '--project',
    'replica',
  )
    ? 'ran'
    : 'failed';
} else {
  console.log(`\n=== replica suite SKIPPED: no PostgreSQL 15 at ${postgres15}.`);
  console.log("    Install Debian's PostgreSQL 15 to run it: sudo apt-get install -y postgresql-15");
}

let browser = 'skipped';
if (fs.existsSync(chromium)) {
  if (npx('build panel', 'vite', 'build', '--logLevel', 'warn')) {
    browser = vitest('browser suite', '--project', 'e2e') ? 'ran' : 'failed';
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
if (replica === 'skipped') console.log('  skip replica suite (PostgreSQL 15 not installed)');
if (browser === 'skipped') console.log('  skip browser suite (Chromium not installed)');
if (failures.length) {
  console.log('\n=== failed tests');
  for (const failure of failures) console.log(`  ${failure}`);
}
fs.rmSync(reports, { recursive: true, force: true });
const failed = steps.filter((s) => !s.ok).length;
console.log(`${steps.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
