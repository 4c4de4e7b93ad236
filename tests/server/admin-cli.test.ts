import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledScript } from '../compiled-server';
import { runScript, type ServerProcess, startServer } from '../spawn-server';
import { throwAwayDatabase } from '../throwaway-database';

/**
 * `npm run admin -- create` (issue 51): the first extra admin, made from the server console by whoever holds the
 * servers' configuration, as an operator runs it. While a server runs, on the suite's engine (the embedded database
 * through that server's socket, or a throw-away database on DATABASE_URL's PostgreSQL server); and on an embedded
 * database with its server stopped, which the command then opens itself.
 */

const serverUrl = process.env.DATABASE_URL;
const DATA_KEY = randomBytes(32).toString('hex');
const USAGE = 'Usage: npm run admin -- create --userName <u> --name <n> [--email <e>] [--mobile <m>]';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-admin-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'data');
};

/** A throw-away database on DATABASE_URL's server, dropped after the file. */
async function databaseOfItsOwn(url: string) {
  const database = await throwAwayDatabase(url, 'tierdesk_admin');
  cleanups.push(database.drop);
  return database.url;
}

type Env = Record<string, string>;

/** `npm run admin -- <args>` with the servers' configuration `env`. */
const admin = (env: Env, args: string[]) => runScript('admin', args, env);

/** The one-time password on the command's last line. */
const oneTimePasswordOf = (stdout: string) => {
  const lines = stdout.trimEnd().split('\n');
  return /^one-time password: (\S+)$/.exec(lines[lines.length - 1])?.[1];
};

/** A server as `npm start` runs it on `env`, stopped after the file. */
async function serverOn(env: Env) {
  const server = await startServer(env);
  cleanups.push(server.stop);
  return server;
}

const apiOf = (server: ServerProcess) => `${server.origin}/api/v1`;

const XSRF = { cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't', 'content-type': 'application/json' };

async function signIn(server: ServerProcess, userName: string, password: string) {
  const res = await fetch(`${apiOf(server)}/account/login`, {
    method: 'POST',
    headers: XSRF,
    body: JSON.stringify({ userName, password }),
  });
  return { status: res.status, body: await res.json() };
}

const get = async (server: ServerProcess, token: string, pathAndQuery: string) =>
  (
    await fetch(`${apiOf(server)}/${pathAndQuery}`, { headers: { 'x-auth-token': `bearer ${token}` } })
  ).json();

describe(`while a server runs (${serverUrl ? 'PostgreSQL' : 'the embedded database'})`, () => {
  it('creates an admin who signs in with the one-time password, recorded as made from the server console', async () => {
    const env: Env = {
      DATA_DIR: tempDir(),
      DATA_KEY,
      DATABASE_URL: serverUrl ? await databaseOfItsOwn(serverUrl) : '',
    };
    const server = await serverOn(env);
    const made = admin(env, [
      'create',
      '--userName',
      'console.admin',
      '--name',
      'Console Admin',
      '--email',
      'console.admin@example.com',
      '--mobile',
      '9777700001',
    ]);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^Admin Console Admin \(console\.admin\) created\.\n/);
    const oneTime = oneTimePasswordOf(made.stdout);
    expect(oneTime).toMatch(/^[\w-]{16}$/);

    const first = await signIn(server, 'console.admin', oneTime!);
    expect(first.status).toBe(200);
    expect(first.body.result.user).toMatchObject({ type: 0, passwordUpdatedAt: null });
    const bootstrap = (await signIn(server, '9999999999', 'Admin@1234')).body.result.token;
    expect((await get(server, bootstrap, 'approvals/admins')).result.admins).toBe(2);
    const trail = await get(server, bootstrap, 'audit/fetch?action=user.create&limit=100');
    const entry = trail.result.audit.find(
      (a: { entityId: string }) => a.entityId === first.body.result.user._id,
    );
    expect(entry).toMatchObject({
      actor: { kind: 'SYSTEM', name: 'Server console' },
      after: { name: 'Console Admin', type: 0, source: 'created from the server console' },
    });

    // A user name already in use is refused in one line, exit 1, and nothing is made.
    const again = admin(env, ['create', '--userName', 'console.admin', '--name', 'Someone Else']);
    expect(again.stderr).toBe('This user name is already taken\n');
    expect(again.stdout).toBe('');
    expect(again.status).toBe(1);
    expect((await get(server, bootstrap, 'approvals/admins')).result.admins).toBe(2);
    await server.stop();
  }, 120_000);

  it('waits its turn while the server answers a stream of calls, and the server answers every one', async () => {
    const env: Env = {
      DATA_DIR: tempDir(),
      DATA_KEY,
      DATABASE_URL: serverUrl ? await databaseOfItsOwn(serverUrl) : '',
    };
    const server = await startServer(env);
    const token = (await signIn(server, '9999999999', 'Admin@1234')).body.result.token;
    const command = spawn(
      process.execPath,
      [compiledScript('admin'), 'create', '--userName', 'busy.admin', '--name', 'Busy Admin'],
      { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    command.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    command.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    let running = true;
    const exited = new Promise<number | null>((resolve) =>
      command.once('exit', (code) => {
        running = false;
        resolve(code);
      }),
    );
    // Ten callers, each calling again as soon as it is answered, for as long as the command runs.
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (running) {
          const res = await fetch(`${apiOf(server)}/report/userCounts`, {
            headers: { 'x-auth-token': `bearer ${token}` },
          });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
      }),
    );
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(oneTimePasswordOf(stdout)).toMatch(/^[\w-]{16}$/);
    expect(statuses.length).toBeGreaterThanOrEqual(10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await get(server, token, 'approvals/admins')).result.admins).toBe(2);
    await server.stop();
  }, 120_000);
});

describe('with the embedded server stopped', () => {
  it('opens DATA_DIR itself under the server’s lock, refuses another data key, and the server then signs the admin in', async () => {
    const env: Env = { DATA_DIR: tempDir(), DATA_KEY, DATABASE_URL: '' };
    // A server has run on it (its database, its recorded data key), and stopped.
    await (await serverOn(env)).stop();

    const otherKey = admin({ ...env, DATA_KEY: randomBytes(32).toString('hex') }, [
      'create',
      '--userName',
      'stopped.admin',
      '--name',
      'Stopped Admin',
    ]);
    expect(otherKey.stderr).toBe(
      'DATA_KEY differs from the key this database was sealed with: start every server with the same DATA_KEY\n',
    );
    expect(otherKey.stdout).toBe('');
    expect(otherKey.status).toBe(1);

    const made = admin(env, ['create', '--userName', 'stopped.admin', '--name', 'Stopped Admin']);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const oneTime = oneTimePasswordOf(made.stdout);
    expect(oneTime).toMatch(/^[\w-]{16}$/);
    // The command let go of DATA_DIR: a server starts on it, and the new admin signs in.
    const server = await serverOn(env);
    const first = await signIn(server, 'stopped.admin', oneTime!);
    expect(first.status).toBe(200);
    expect(first.body.result.user).toMatchObject({
      type: 0,
      passwordUpdatedAt: null,
      email: { address: null },
    });
    await server.stop();
  }, 120_000);

  it('refuses a DATA_DIR that holds no database, making nothing there', () => {
    const dataDir = tempDir();
    const res = admin({ DATA_DIR: dataDir, DATA_KEY, DATABASE_URL: '' }, [
      'create',
      '--userName',
      'nobody.admin',
      '--name',
      'Nobody',
    ]);
    expect(res.stderr).toBe(
      `${dataDir} holds no Tierdesk database: set DATA_DIR to the server's data directory, or DATABASE_URL to its database\n`,
    );
    expect(res.status).toBe(1);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe('its command line', () => {
  it.each([
    [[], 'Name a command'],
    [['remove'], "Unknown command 'remove'"],
    [['create', '--name', 'Only A Name'], '--userName: This field is required'],
    [['create', '--userName', 'abc', '--name', 'Short'], '--userName: Minimum length not fulfilled'],
    [
      ['create', '--userName', 'good.name', '--name', 'Good', '--mobile', '12'],
      '--mobile: Invalid mobile number',
    ],
    [
      ['create', '--userName', 'good.name', '--name', 'Good', '--password', 'x'],
      "Unknown option '--password'",
    ],
  ])('refuses %j with the usage, exit 2, before anything is opened', (args, message) => {
    const dataDir = tempDir();
    const res = admin({ DATA_DIR: dataDir, DATA_KEY, DATABASE_URL: '' }, args);
    expect(res.stderr).toBe(`${message}\n${USAGE}\n`);
    expect(res.stdout).toBe('');
    expect(res.status).toBe(2);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
