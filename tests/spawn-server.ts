// Tierdesk as an operator runs it (`node dist/server/<script>.js`, the compiled server, as `npm start` and the npm
// scripts do), for the suites and benches that need a real server process or command: one way to start one and to
// wait for it. The caller builds first (buildServer): the server suite's global setup does, once for all its files.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { COMPILED_SERVER, compiledScript, type ServerScript } from './compiled-server';
import { freePort } from './free-port';

/** The line a server prints once it listens. */
export const RUNNING_LINE = 'Tierdesk is running';

/** A server that never says it is running fails its caller with what it printed, rather than hanging the run. */
const START_BOUND_MS = 120_000;

/** A server that does not end on SIGTERM is killed, so a stop always ends. */
const STOP_BOUND_MS = 30_000;

type Env = Record<string, string>;

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Everything it has printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with its exit code (null after a signal) once it has ended and its output is all read. */
  exited: Promise<number | null>;
  /** Resolves once it says it is running; rejects with its output if it ends first. */
  running(): Promise<void>;
  /** SIGTERM, then waits for it to end (nothing to do if it has). */
  stop(): Promise<void>;
}

/**
 * Spawns the server (`command`, the compiled server by default) with `args` on 127.0.0.1 and a free port, demo data and warn-level logs, `env` adding
 * to or replacing those (PORT too); returns at once. A caller that expects a refusal awaits `exited`; one that wants
 * a server awaits `running()`, or calls startServer.
 */
export async function spawnServer(
  env: Env = {},
  args: string[] = [],
  command: string[] = COMPILED_SERVER,
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(command[0], [...command.slice(1), ...args], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let ended: string | undefined;
  const lookers = new Set<() => void>();
  const read = (chunk: Buffer) => {
    text += chunk;
    for (const look of lookers) look();
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  // 'close', not 'exit': by then every byte it printed has been read.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code, signal) => {
      ended = String(signal ?? code);
      resolve(code);
      for (const look of lookers) look();
    }),
  );

  const running = () =>
    new Promise<void>((resolve, reject) => {
      const done = () => {
        lookers.delete(look);
        clearTimeout(bound);
      };
      const look = () => {
        if (text.includes(RUNNING_LINE)) {
          done();
          resolve();
        } else if (ended !== undefined) {
          done();
          reject(new Error(`the server ended (${ended}) before it was running:\n${text}`));
        }
      };
      const bound = setTimeout(() => {
        lookers.delete(look);
        reject(new Error(`the server did not say it was running:\n${text}`));
      }, START_BOUND_MS);
      lookers.add(look);
      look();
    });

  const stop = async () => {
    if (ended !== undefined) return;
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_BOUND_MS);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(kill);
  };

  return { child, port, origin: `http://127.0.0.1:${port}`, output: () => text, exited, running, stop };
}

/** spawnServer, resolved once the server says it is running. */
export async function startServer(
  env: Env = {},
  args: string[] = [],
  command: string[] = COMPILED_SERVER,
): Promise<ServerProcess> {
  const server = await spawnServer(env, args, command);
  await server.running();
  return server;
}

/**
 * `dist/server/<script>.js` run to its end, as an operator runs `npm start` or `npm run <script>`: its status and
 * output. A server started here that does not refuse runs until `timeout` and fails its caller.
 */
export const runScript = (script: ServerScript, args: string[], env: Env, timeout?: number) =>
  spawnSync(process.execPath, [compiledScript(script), ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout,
  });

/**
 * runScript without blocking this process: for a command run while this process itself keeps a server busy
 * (`npm run backup` under the test's own write load).
 */
export const runScriptAsync = (script: Exclude<ServerScript, 'main'>, args: string[], env: Env) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [compiledScript(script), ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
