import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/open';
import { SCALE_USAGE, scaleArgs } from '../bench/scale';
import { compiledScript } from '../compiled-server';
import { freePort } from '../free-port';

/**
 * A command as an operator runs it (a server command compiled, as its npm script runs it; a bench from its sources,
 * through tsx), with DATA_DIR pointing at a folder that does not exist yet.
 */
function runCommand(script: string, args: string[], env: Record<string, string> = {}) {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-cli-')), 'data');
  const command = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
  const result = spawnSync(process.execPath, [...command, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    encoding: 'utf8',
  });
  const dataDirMade = fs.existsSync(dataDir);
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  return { ...result, dataDirMade };
}

describe('npm run seed:scale: its command line', () => {
  it('takes --users and --postings, either spelling, and the defaults when they are left out', () => {
    expect(scaleArgs([])).toEqual({ users: 100_000, postings: 1_000_000 });
    expect(scaleArgs(['--users', '5000', '--postings', '50000'])).toEqual({ users: 5_000, postings: 50_000 });
    expect(scaleArgs(['--postings=20'])).toEqual({ users: 100_000, postings: 20 });
  });

  it.each([
    [['--users', 'abc'], "--users must be a whole number above zero, not 'abc'"],
    [['--users', '0'], "--users must be a whole number above zero, not '0'"],
    [['--postings', '2.5'], "--postings must be a whole number above zero, not '2.5'"],
    [['--users', '1e3'], "--users must be a whole number above zero, not '1e3'"],
    [['--users'], "Option '--users <value>' argument missing"],
    [['--postings', '-3'], "Option '--postings' argument is ambiguous"],
    [['--bogus', '1'], "Unknown option '--bogus'"],
    [['100'], "Unexpected argument '100'"],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => scaleArgs(argv)).toThrow(new Error(message));
  });

  it('refuses bad input with the message and its usage, exit 2, before any database is made', () => {
    for (const [args, message] of [
      [['--users', 'abc'], "--users must be a whole number above zero, not 'abc'"],
      [['--bogus', '1'], "Unknown option '--bogus'"],
    ] as const) {
      const result = runCommand('tests/bench/scale.ts', [...args]);
      expect(result.stderr).toBe(`${message}\nUsage: ${SCALE_USAGE}\n`);
      expect(result.stdout).toBe('');
      expect(result.status).toBe(2);
      expect(result.dataDirMade).toBe(false);
    }
  });
});

describe('npm run bench and bench:ledger: their command line', () => {
  const bench = 'Usage: npm run bench [-- --quick] [-- --engine pglite|postgres]';
  const ledger = 'Usage: npm run bench:ledger [-- --quick] [-- --engine pglite|postgres]';
  // One command a test: each loads the bench's modules (2-3 s on a loaded machine) before it refuses.
  it.each([
    ['tests/bench/run.ts', ['--engine', 'mysql'], "--engine must be pglite or postgres, not 'mysql'", bench],
    ['tests/bench/run.ts', ['--engine'], "Option '--engine <value>' argument missing", bench],
    ['tests/bench/run.ts', ['--fast'], "Unknown option '--fast'", bench],
    [
      'tests/bench/ledger.ts',
      ['--engine', 'sqlite'],
      "--engine must be pglite or postgres, not 'sqlite'",
      ledger,
    ],
  ])(
    '%s %j: refused with the message and its usage, exit 2, before seeding anything',
    (script, args, message, usage) => {
      const result = runCommand(script, args);
      expect(result.stderr).toBe(`${message}\n${usage}\n`);
      expect(result.stdout).toBe('');
      expect(result.status).toBe(2);
      expect(result.dataDirMade).toBe(false);
    },
  );
});

describe('npm start and npm run reconcile: a set-up they cannot run on', () => {
  const existingDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-cli-existing-'));
  beforeAll(async () => {
    await (await openDatabase({ dataDir: existingDataDir })).close();
  });
  afterAll(() => fs.rmSync(existingDataDir, { recursive: true, force: true }));

  it('npm start refuses a bad setting with its message alone, exit 1, before DATA_DIR is touched', () => {
    const result = runCommand(compiledScript('main'), [], { PORT: 'abc' });
    expect(result.stderr).toBe('PORT must be a whole number from 0 to 65535, got "abc"\n');
    expect(result.status).toBe(1);
    expect(result.dataDirMade).toBe(false);
  });

  it('npm start without demo data refuses to guess the partner: one line naming both choices, exit 1', () => {
    const result = runCommand(compiledScript('main'), [], { DEMO_DATA: '0', PROVIDER_MODE: '' });
    expect(result.stderr).toBe(
      'PROVIDER_MODE must be set when DEMO_DATA=0: choose http for a real network, or sandbox to try Tierdesk\n',
    );
    expect(result.status).toBe(1);
    expect(result.dataDirMade).toBe(false);
  });

  it('npm start names a PostgreSQL server nobody answers on, exit 1', async () => {
    const port = await freePort();
    const result = runCommand(compiledScript('main'), [], {
      DATABASE_URL: `postgres://tierdesk:secret@127.0.0.1:${port}/tierdesk`,
    });
    expect(result.stderr).toBe(
      `Cannot reach the PostgreSQL database of DATABASE_URL (127.0.0.1:${port}/tierdesk): connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
    expect(result.status).toBe(1);
  });

  it('npm start names a port another program holds, exit 1', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      // On a DATA_DIR that holds a database already (made in beforeAll), so the server gets to listen quickly.
      const result = runCommand(compiledScript('main'), [], {
        PORT: String(port),
        DEMO_DATA: '0',
        PROVIDER_MODE: 'sandbox',
        DATA_DIR: existingDataDir,
      });
      expect(result.stderr).toBe(
        `Cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
      expect(result.status).toBe(1);
    } finally {
      holder.close();
    }
  });

  it('reconcile refuses a DATA_DIR that holds no database, exit 2, and makes nothing there', () => {
    const result = runCommand(compiledScript('reconcile'), []);
    expect(result.stderr).toMatch(
      /^\/\S+\/data holds no Tierdesk database: set DATA_DIR to the server's data directory, or DATABASE_URL to its database\n$/,
    );
    expect(result.stdout).toBe('');
    expect(result.status).toBe(2);
    expect(result.dataDirMade).toBe(false);
  });
});
