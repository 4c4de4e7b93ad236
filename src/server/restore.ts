import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readOptions, runCommand, UsageError } from './cli';
import { readConfig, SetupError } from './config';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';
import { checkDataKey } from './data-key-check';
import { readBackupFile } from './db/backup-file';
import { openDatabase } from './db/open';
import { dataKeyCheckOf, ledgerKeyFrom, loadDataKey, PersonalDataCipher } from './security/personal-data';

/**
 * `npm run restore -- --from <file>`: fills an empty (or new) DATA_DIR with the database `npm run backup` wrote
 * (backup.ts), and with its keys when it carries them. Refused, in one line and exit 1, with nothing left behind: a
 * DATA_DIR that is not empty, a file that is missing, not a backup or not whole, and a data key that did not seal
 * the database (the check a server makes at its start, data-key-check.ts). The database is loaded into a directory
 * of its own inside DATA_DIR and checked there; only then are the keys written and the database moved into place.
 */

const USAGE = 'npm run restore -- --from <file>';

function readArgs(argv: string[]) {
  const values = readOptions(argv, { from: { type: 'string' } });
  if (!values.from) throw new UsageError('Name the backup to restore with --from');
  return { from: path.resolve(values.from) };
}

const notEmpty = (dataDir: string) =>
  new SetupError(`${dataDir} is not empty: restore into an empty or new DATA_DIR`);

/** What DATA_DIR holds, or an empty list when it does not exist yet. */
const entriesOf = (dataDir: string) => {
  try {
    return fs.readdirSync(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
};

async function main() {
  const { from } = readArgs(process.argv.slice(2));
  const config = readConfig();
  const { dataDir } = config;
  if (config.databaseUrl)
    throw new SetupError(
      'npm run restore fills the embedded database in DATA_DIR; unset DATABASE_URL (PostgreSQL is restored with its own tools)',
    );
  if (entriesOf(dataDir).length > 0) throw notEmpty(dataDir);
  const { header, tarball } = readBackupFile(from);
  // The key the restored server will use: DATA_KEY, else the one the backup carries.
  if (!config.dataKeyEnv && !header.keys)
    throw new SetupError(
      `${from} does not hold the data key: set DATA_KEY to the key that sealed its database (the data.key kept apart from it)`,
    );
  const dataKey = config.dataKeyEnv
    ? loadDataKey(config.dataKeyEnv, dataDir)
    : Buffer.from(header.keys?.dataKey ?? '', 'base64');

  const created = !fs.existsSync(dataDir);
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw notEmpty(dataDir);
    throw error;
  }
  const staging = path.join(dataDir, `.restore-${randomBytes(4).toString('hex')}`);
  const written: string[] = [];
  let done = false;
  try {
    // Another restore or a server may have come in between: only this command's lock may be there.
    if (entriesOf(dataDir).some((entry) => entry !== LOCK_FILE)) throw notEmpty(dataDir);
    fs.mkdirSync(staging, { mode: 0o700 });
    const cluster = path.join(staging, 'pgdata.tar');
    fs.writeFileSync(cluster, tarball, { mode: 0o600 });
    // Started and checked where nothing reads it; brought up to this version's tables as a server's start would.
    const database = await openDatabase({ dataDir: staging, cluster });
    try {
      await checkDataKey(
        database.db,
        {
          cipher: new PersonalDataCipher(dataKey),
          ledgerKey: ledgerKeyFrom(dataKey),
          dataKeyCheck: dataKeyCheckOf(dataKey),
          dataKeySource: config.dataKeyEnv ? 'DATA_KEY' : `${from} (its data.key)`,
        },
        { record: false },
      );
    } finally {
      await database.close();
    }
    for (const [name, value] of [
      ['data.key', header.keys?.dataKey],
      ['webhook.secret', header.keys?.webhookSecret],
    ] as const) {
      if (!value) continue;
      const file = path.join(dataDir, name);
      fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
      written.push(file);
    }
    fs.renameSync(path.join(staging, 'pgdata'), path.join(dataDir, 'pgdata'));
    done = true;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    if (!done) for (const file of written) fs.rmSync(file, { force: true });
    lock.release();
    // A DATA_DIR made here goes too, unless something else came into it.
    if (!done && created)
      try {
        fs.rmdirSync(dataDir);
      } catch {
        // Left as it is.
      }
  }

  console.log(`Restored ${from} (taken ${header.takenAt}) into ${dataDir}.`);
  console.log(
    header.keys
      ? 'Its data key and webhook secret are in DATA_DIR: start the server on it, then run npm run reconcile.'
      : 'Start the server on it with the same DATA_KEY and PROVIDER_WEBHOOK_SECRET (or put the kept data.key and webhook.secret in DATA_DIR), then run npm run reconcile.',
  );
}

runCommand(main, USAGE);
