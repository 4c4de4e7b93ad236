// The server's start and memory as an operator meets them (issue 52): how long a start on a DATA_DIR that already
// has its database takes, from spawning the process to its saying it listens, and how much memory the process (the
// server and its embedded database, a worker thread of the same process) holds once it has been idle a while.
// Used by `npm run bench` (asserted) and tests/server/footprint.test.ts (printed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMPILED_SERVER } from '../compiled-server';
import { spawnServer } from '../spawn-server';

/** The budgets (issue 52), docs/performance.md. */
export const FOOTPRINT_BUDGET = { warmStartSeconds: 1.5, idleRssMb: 350 };
/** How long after its start the idle server's memory is read (the budget's definition). */
export const IDLE_AFTER_MS = 20_000;

export interface Footprint {
  /** Seconds from spawning the server to its saying it listens, on a DATA_DIR that has its database and demo data. */
  warmStartSeconds: number;
  /** The process's resident memory (VmRSS) idle, IDLE_AFTER_MS after its start, in MB. */
  idleRssMb: number;
  /** The same right after the first start on an empty DATA_DIR (demo data seeded), in MB. */
  firstStartRssMb: number;
}

const rssMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return Math.round(kb / 1024);
};

interface Started {
  pid: number;
  seconds: number;
  stop: () => Promise<void>;
}

/** Spawns `command` on `dataDir` (the embedded database) and resolves once it says it is running: it listens. */
async function start(command: string[], dataDir: string, env: Record<string, string>): Promise<Started> {
  const started = performance.now();
  const server = await spawnServer({ DATA_DIR: dataDir, DATABASE_URL: '', ...env }, [], command);
  try {
    await server.running();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    pid: server.child.pid as number,
    seconds: (performance.now() - started) / 1000,
    stop: server.stop,
  };
}

/**
 * `command`'s footprint on the embedded database with demo data: a first start on a new DATA_DIR (stopped once it
 * answers), then `warmStarts` starts on it (the median is reported), the last left idle for IDLE_AFTER_MS before
 * its memory is read.
 */
export async function measureFootprint(
  command: string[] = COMPILED_SERVER,
  { warmStarts = 3, env = {} }: { warmStarts?: number; env?: Record<string, string> } = {},
): Promise<Footprint> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-footprint-'));
  try {
    const first = await start(command, dataDir, env);
    const firstStartRssMb = rssMb(first.pid);
    await first.stop();
    const seconds: number[] = [];
    let idleRssMb = 0;
    for (let i = 0; i < warmStarts; i++) {
      const warm = await start(command, dataDir, env);
      seconds.push(warm.seconds);
      if (i === warmStarts - 1) {
        const left = IDLE_AFTER_MS - warm.seconds * 1000;
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
        idleRssMb = rssMb(warm.pid);
      }
      await warm.stop();
    }
    const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)];
    return { warmStartSeconds: Number(median.toFixed(2)), idleRssMb, firstStartRssMb };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Whether `figures` meet FOOTPRINT_BUDGET, figure by figure. */
export const footprintMet = (figures: Footprint) => ({
  warmStart: figures.warmStartSeconds <= FOOTPRINT_BUDGET.warmStartSeconds,
  idleRss: figures.idleRssMb <= FOOTPRINT_BUDGET.idleRssMb,
});

/** One line: the figures against the budgets. */
export const footprintLine = (figures: Footprint) => {
  const met = footprintMet(figures);
  return `warm start ${figures.warmStartSeconds} s (<= ${FOOTPRINT_BUDGET.warmStartSeconds}: ${met.warmStart ? 'yes' : 'NO'}), idle memory ${figures.idleRssMb} MB (<= ${FOOTPRINT_BUDGET.idleRssMb}: ${met.idleRss ? 'yes' : 'NO'}), after a first start with demo data ${figures.firstStartRssMb} MB`;
};

// `node --import tsx tests/bench/server-footprint.ts [command...]`: the figures of one command (default: the
// compiled server).
if (import.meta.url === `file://${process.argv[1]}`) {
  const command = process.argv.length > 2 ? process.argv.slice(2) : COMPILED_SERVER;
  measureFootprint(command).then(
    (figures) => console.log(`${command.join(' ')}: ${footprintLine(figures)}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
