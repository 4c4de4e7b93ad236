import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * One server per DATA_DIR. A second server on the same directory would delete the first one's database
 * socket and share its embedded database files, so the first server to start writes `DATA_DIR/server.lock`
 * (its process id and start time) and every later one refuses to start while that process lives. A lock left
 * by a crashed server (its process gone, or its id now used by another program) is taken over.
 */
export const LOCK_FILE = 'server.lock';

interface Holder {
  pid: number;
  /** The holder's start time as the kernel counts it (Linux), to tell it from a later process given its id. */
  processStart?: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`${dataDir} is in use by process ${pid}`);
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined where there is no /proc. */
function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields after it start at the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isRunning(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = processStart(holder.pid);
  return !(holder.processStart && start && start !== holder.processStart);
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(fs.readFileSync(file, 'utf8')) as Holder;
    return Number.isInteger(holder?.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** Throws DataDirInUseError when a live server holds `dataDir`; a stale or missing lock passes. */
export function assertDataDirFree(dataDir: string) {
  const holder = readHolder(path.join(dataDir, LOCK_FILE));
  if (holder && holder.pid !== process.pid && isRunning(holder))
    throw new DataDirInUseError(dataDir, holder.pid);
}

export interface DataDirLock {
  /** Removes the lock file, if it is still this process's. */
  release(): void;
}

/**
 * Takes `dataDir` for this process or throws DataDirInUseError. Creating the file with O_EXCL decides between
 * two servers starting at once; a stale lock is moved aside first and deleted only if it is still the one
 * judged stale (so a racing server's fresh lock is never deleted).
 */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, processStart: processStart(process.pid) } satisfies Holder);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx', mode: 0o644 });
      return {
        release() {
          try {
            if (fs.readFileSync(file, 'utf8') === mine) fs.rmSync(file);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const seen = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const holder = seen === undefined ? undefined : readHolder(file);
    if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder.pid);
    if (seen === undefined) continue;
    if (!holder && seen === '') {
      // Another server is writing its lock this very moment: look again shortly.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      const again = readHolder(file);
      if (again && isRunning(again)) throw new DataDirInUseError(dataDir, again.pid);
    }
    const aside = `${file}.stale-${randomBytes(4).toString('hex')}`;
    try {
      fs.renameSync(file, aside);
    } catch {
      continue;
    }
    const moved = fs.readFileSync(aside, 'utf8');
    if (moved !== seen) {
      // A racing server wrote a fresh lock in between: put it back and yield to it.
      try {
        fs.linkSync(aside, file);
      } catch {
        // Someone holds the name again; they will be judged on the next attempt.
      }
      fs.rmSync(aside, { force: true });
      continue;
    }
    fs.rmSync(aside, { force: true });
  }
  const holder = readHolder(file);
  throw new DataDirInUseError(dataDir, holder?.pid ?? 0);
}
