import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../../src/server/data-dir-lock';
import { verhoeffDigit } from '../../src/shared/identity';
import { freePort } from '../free-port';
import { applicationForm, PNG } from './application';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-lock-'));
  dirs.push(dir);
  return dir;
};

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

/** `node --import tsx src/server/main.ts`, as `npm start` runs it, on the given DATA_DIR. */
async function startServer(dataDir: string): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  child.stdout?.on('data', (d) => {
    text += d;
  });
  child.stderr?.on('data', (d) => {
    text += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, output: () => text, exited };
}

/** Waits for the server to say it is running, or fails with what it printed instead. */
async function running(server: Started) {
  // Until it says so, or exits (then it never will).
  await vi.waitFor(
    () => {
      if (server.child.exitCode === null && !server.output().includes('Tierdesk is running'))
        throw new Error(`server did not start:\n${server.output()}`);
    },
    { timeout: 60_000, interval: 100 },
  );
  if (!server.output().includes('Tierdesk is running')) throw new Error(`server exited:\n${server.output()}`);
}

/** Sends one whole application; returns its id. */
async function applyOnce(port: number): Promise<string> {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const tehsil = (await (await fetch(`${base}/tehsil/fetch?limit=1`)).json()).result.tehsil[0];
  const place = { stateId: tehsil.stateId._id, districtId: tehsil.districtId._id, tehsilId: tehsil._id };
  const form = applicationForm(place, {
    otherBusinessInfo: { aadharNumber: `23412341234${verhoeffDigit('23412341234')}` },
  });
  const res = await fetch(`${base}/leads/create`, {
    method: 'POST',
    headers: { cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't' },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).result._id;
}

/** An application's picture as the admin downloads it. */
async function pictureOf(port: number, leadId: string) {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const xsrf = { cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't', 'content-type': 'application/json' };
  const login = await fetch(`${base}/account/login`, {
    method: 'POST',
    headers: xsrf,
    body: JSON.stringify({ userName: '9999999999', password: 'Admin@1234' }),
  });
  expect(login.status, await login.clone().text()).toBe(200);
  const { token } = (await login.json()).result;
  const res = await fetch(`${base}/leads/${leadId}/picture`, {
    headers: { 'x-auth-token': `bearer ${token}` },
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

const states = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/state/fetch`);
  return res.status;
};

describe('one server per data directory', () => {
  it('refuses a second server on a DATA_DIR in use, without disturbing the first; takes over a crashed one', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, 'uploads'));
    fs.writeFileSync(path.join(dataDir, 'uploads', 'upload-0123abcd'), 'half an upload from a crash');
    fs.writeFileSync(path.join(dataDir, 'uploads', '0123abcd'), 'stored just before a crash undid its row');

    const first = await startServer(dataDir);
    await running(first);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(first.child.pid);
    // What a crash left behind (a temporary upload, a file no application refers to) is removed at start-up.
    expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
    expect(await states(first.port)).toBe(200);
    const leadId = await applyOnce(first.port);
    // Its files went to the database: nothing of it is left in the uploads directory.
    expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);

    const second = await startServer(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`${dataDir} is in use by process ${first.child.pid}.`);
    expect(second.output()).not.toContain('Tierdesk is running');
    // The first server is untouched: its database socket is still there and it still answers.
    expect(fs.existsSync(path.join(dataDir, '.s.PGSQL.5432'))).toBe(true);
    for (let i = 0; i < 5; i++) expect(await states(first.port)).toBe(200);

    // `npm start` (main.ts --build-panel) takes the lock before it would rebuild the panel the running server
    // serves: it refuses first, whatever the panel's sources say.
    const stamp = path.join('dist', '.panel-sources');
    const stampBefore = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : null;
    const npmStart = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--build-panel'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let startOutput = '';
    npmStart.stderr?.on('data', (d) => {
      startOutput += d;
    });
    npmStart.stdout?.on('data', (d) => {
      startOutput += d;
    });
    expect(await new Promise((resolve) => npmStart.once('exit', resolve))).toBe(1);
    expect(startOutput).toContain(`${dataDir} is in use by process ${first.child.pid}.`);
    expect(startOutput).not.toContain('Building the panel');
    expect(fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : null).toBe(stampBefore);

    // A crash leaves the lock behind; the next server finds its process gone and takes over.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);
    fs.writeFileSync(path.join(dataDir, 'uploads', 'feedbeef'), 'orphan');
    const third = await startServer(dataDir);
    await running(third);
    // The orphan goes; the application's picture is served from the database.
    expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
    const picture = await pictureOf(third.port, leadId);
    expect(picture.status).toBe(200);
    expect(picture.bytes.equals(PNG)).toBe(true);
    expect(await states(third.port)).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(third.child.pid);

    // A clean stop releases the lock.
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  }, 180_000);

  it('takes over a lock whose process id now belongs to another program', async () => {
    const dataDir = tempDir();
    const other = spawn('sleep', ['60']);
    children.push(other);
    try {
      fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: other.pid }));
      expect(() => lockDataDir(dataDir)).toThrow(new DataDirInUseError(dataDir, other.pid!));
      // Same id, but a start time that is not that program's: the server that wrote it is gone.
      fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: other.pid, processStart: '1' }));
      const lock = lockDataDir(dataDir);
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
      lock.release();
      expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a lock naming a process that no longer exists', async () => {
    const dataDir = tempDir();
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: gone.pid }));
    const lock = lockDataDir(dataDir);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });
});
