import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { readOptions, runCommand, UsageError } from './cli';
import { readConfig, SetupError } from './config';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';
import { backupFileExists, writeBackupFile } from './db/backup-file';
import {
  BACKUP_SOCKET_NAME,
  hasEmbeddedDatabase,
  noTierdeskDatabase,
  openDatabase,
  SOCKET_DIR_FILE,
} from './db/open';
import { loadDataKey } from './security/personal-data';

/**
 * `npm run backup -- --out <file> [--with-keys]`: a copy of the embedded database (DATA_DIR) while its server runs
 * and writes, as one moment of it: PGlite's own dumpDataDir, taken by the running server's database thread on a
 * socket beside the database's (pglite-worker.mjs), and restored by `npm run restore` (restore.ts). With the server
 * stopped, it opens DATA_DIR itself under the lock a server takes, as `npm run admin` does, and copies it the same
 * way. `--with-keys` puts the data key and the webhook secret in the file too. The file is created readable by its
 * owner only, and never replaces one already there. docs/operations.md (Backups) says why this way.
 */

const USAGE = 'npm run backup -- --out <file> [--with-keys]';

function readArgs(argv: string[]) {
  const values = readOptions(argv, { out: { type: 'string' }, 'with-keys': { type: 'boolean' } });
  if (!values.out) throw new UsageError('Name the file to write with --out');
  return { out: path.resolve(values.out), withKeys: values['with-keys'] === true };
}

/** The server's answer on its backup socket: one JSON line, then the tarball. */
async function copyFromServer(socketPath: string, dataDir: string) {
  const chunks: Buffer[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(socketPath);
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.once('end', resolve);
      socket.once('error', reject);
    });
  } catch (error) {
    throw new SetupError(
      `Cannot reach the database of the server running on ${dataDir}: ${(error as Error).message}`,
    );
  }
  const answer = Buffer.concat(chunks);
  const newline = answer.indexOf(10);
  const head = newline < 0 ? {} : JSON.parse(answer.subarray(0, newline).toString('utf8'));
  if (typeof head.bytes !== 'number')
    throw new SetupError(
      `The server running on ${dataDir} could not copy its database: ${head.error ?? 'no answer'}`,
    );
  const tarball = answer.subarray(newline + 1);
  if (tarball.byteLength !== head.bytes)
    throw new SetupError(`The copy of the database of ${dataDir} was cut short: try again`);
  return { tarball, heldMs: head.heldMs as number };
}

/**
 * The database's tarball: from the running server, or, when none runs, from a database thread started here on
 * DATA_DIR under its lock (nothing migrated: the copy is the database as its server left it).
 */
async function copyDatabase(dataDir: string) {
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    let socketDir: string;
    try {
      socketDir = fs.readFileSync(path.join(dataDir, SOCKET_DIR_FILE), 'utf8').trim();
    } catch {
      throw new SetupError(
        `The server running on ${dataDir} has not opened its database yet: try again shortly`,
      );
    }
    return { ...(await copyFromServer(path.join(socketDir, BACKUP_SOCKET_NAME), dataDir)), serverRuns: true };
  }
  try {
    const database = await openDatabase({ dataDir, mustExist: true, migrate: false });
    try {
      const socketPath = path.join(database.socketDir ?? '', BACKUP_SOCKET_NAME);
      return { ...(await copyFromServer(socketPath, dataDir)), serverRuns: false };
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
}

/** What the servers on DATA_DIR use: DATA_KEY or data.key, PROVIDER_WEBHOOK_SECRET or webhook.secret. */
function keysOf(config: ReturnType<typeof readConfig>) {
  const keyFile = path.join(config.dataDir, 'data.key');
  if (!config.dataKeyEnv && !fs.existsSync(keyFile))
    throw new SetupError(`--with-keys: ${keyFile} does not exist and DATA_KEY is not set`);
  const secretFile = path.join(config.dataDir, 'webhook.secret');
  const webhookSecret =
    config.providerWebhookSecretEnv ??
    (fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : undefined);
  return {
    // As data.key holds it (base64), whichever form DATA_KEY was given in.
    dataKey: loadDataKey(config.dataKeyEnv, config.dataDir).toString('base64'),
    ...(webhookSecret ? { webhookSecret } : {}),
  };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const { out, withKeys } = readArgs(process.argv.slice(2));
  const config = readConfig();
  if (config.databaseUrl)
    throw new SetupError(
      'npm run backup copies the embedded database in DATA_DIR; with DATABASE_URL back up PostgreSQL with its own tools (docs/operations.md, Backups)',
    );
  if (!hasEmbeddedDatabase(config.dataDir)) throw noTierdeskDatabase(config.dataDir);
  // Refused before the copy, which every request of a running server waits for.
  if (fs.existsSync(out)) throw backupFileExists(out);
  const keys = withKeys ? keysOf(config) : undefined;
  const takenAt = new Date();
  const copy = await copyDatabase(config.dataDir);
  const header = writeBackupFile(out, copy.tarball, { takenAt, keys });
  console.log(
    `Backed up the database of ${config.dataDir} to ${out} (${megabytes(header.database.bytes)}).` +
      (copy.serverRuns ? ` The server's requests waited ${copy.heldMs} ms for the copy.` : ''),
  );
  if (keys)
    console.log(
      `The file holds the data key${keys.webhookSecret ? ' and the webhook secret' : ''}: keep it as safe as they are.`,
    );
  else
    console.log(
      'The data key and the webhook secret are not in the file: keep DATA_DIR/data.key and DATA_DIR/webhook.secret (or DATA_KEY and PROVIDER_WEBHOOK_SECRET) separately.',
    );
}

runCommand(main, USAGE);
