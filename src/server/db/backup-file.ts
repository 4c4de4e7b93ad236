import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SetupError } from '../config';

/**
 * The file `npm run backup` writes and `npm run restore` reads (backup.ts, restore.ts): one line of JSON saying
 * what it holds (BackupHeader), then the embedded database as PGlite's dumpDataDir wrote it (a tar of its data
 * directory), gzip-compressed. By hand: `tail -n +2 <file> | tar -xz -C DATA_DIR/pgdata`.
 */
export const BACKUP_FORMAT = 'tierdesk-embedded-backup';

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: 1;
  /** When the copy was taken (ISO 8601). */
  takenAt: string;
  /** The compressed tarball after the header line: its length and SHA-256, so a cut or changed file is refused. */
  database: { bytes: number; sha256: string };
  /** `--with-keys`: the data key (base64, as in data.key) and the webhook secret, when there is one. */
  keys?: { dataKey: string; webhookSecret?: string };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes the backup as a whole or not at all: into a temporary file beside `file` (created readable by its owner
 * only, as it may hold the keys and holds the personal data), then linked to its name, which fails rather than
 * replace a file already there.
 */
export function writeBackupFile(
  file: string,
  tarball: Uint8Array,
  opts: { takenAt: Date; keys?: BackupHeader['keys'] },
) {
  const database = gzipSync(tarball);
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: 1,
    takenAt: opts.takenAt.toISOString(),
    database: { bytes: database.byteLength, sha256: sha256(database) },
    ...(opts.keys ? { keys: opts.keys } : {}),
  };
  const partial = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(4).toString('hex')}.partial`,
  );
  try {
    const fd = fs.openSync(partial, 'wx', 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(header)}\n`);
      fs.writeSync(fd, database);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.linkSync(partial, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw backupFileExists(file);
    if (code === 'ENOENT') throw new SetupError(`Cannot write ${file}: its directory does not exist`);
    throw error;
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return header;
}

export const backupFileExists = (file: string) => new SetupError(`${file} exists already: name a new file`);

/** The backup in `file`: its header and the database's tarball. A missing, foreign, cut or changed file is refused. */
export function readBackupFile(file: string): { header: BackupHeader; tarball: Buffer } {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SetupError(`${file} does not exist`);
    throw new SetupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const notOurs = new SetupError(`${file} is not a backup written by npm run backup`);
  const newline = bytes.indexOf(10);
  if (newline < 0) throw notOurs;
  let header: BackupHeader;
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8'));
  } catch {
    throw notOurs;
  }
  if (header?.format !== BACKUP_FORMAT) throw notOurs;
  if (header.version !== 1)
    throw new SetupError(
      `${file} is a backup of a later version (${header.version}): restore it with that version`,
    );
  const database = bytes.subarray(newline + 1);
  if (database.byteLength !== header.database?.bytes || sha256(database) !== header.database.sha256)
    throw new SetupError(`${file} is not whole: it was cut short or changed after npm run backup wrote it`);
  return { header, tarball: gunzipSync(database) };
}
