import { parseArgs } from 'node:util';
import { consoleAdminSchema } from '../shared/schemas/users';
import { readConfig, SetupError } from './config';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';
import { checkDataKey } from './data-key-check';
import {
  type Database,
  hasEmbeddedDatabase,
  noTierdeskDatabase,
  openDatabase,
  openRunningEmbedded,
} from './db/open';
import { inTransaction } from './db/transaction';
import { HttpError } from './http/errors';
import { createAdmin, newOneTimePassword } from './modules/account/index';
import { type Actor, type AuditRecorder, auditRecorder } from './modules/audit/index';
import { loadServerKeys } from './security/personal-data';

/**
 * `npm run admin -- create --userName <u> --name <n> [--email <e>] [--mobile <m>]`: an admin made from the server
 * console, for whoever holds the servers' configuration (DATA_DIR or DATABASE_URL, and DATA_KEY), the way Django's
 * createsuperuser does. It is how a network with one admin gets its second: in the panel, making an admin is a
 * command another admin approves, and a lone admin has nobody to approve it. The new admin gets a one-time password,
 * printed on the last line, and at its first sign-in chooses its own (markNewAdmin). The audit trail records it as
 * created from the server console.
 *
 * It runs beside a running server: on PostgreSQL as any client does; on the embedded database through the running
 * server's socket (its DATA_DIR lock tells that it runs), or, with the server stopped, opening DATA_DIR itself under
 * the same lock a server takes.
 */

const USAGE = 'npm run admin -- create --userName <u> --name <n> [--email <e>] [--mobile <m>]';

/** The console in the audit trail: no signed-in user. */
const CONSOLE: Actor = { id: null, kind: 'SYSTEM', name: 'Server console', type: null };

class UsageError extends Error {}

const OPTIONS = {
  userName: { type: 'string' },
  name: { type: 'string' },
  email: { type: 'string' },
  mobile: { type: 'string' },
} as const;

/** The command line, read strictly: an unknown option, a missing value or a bad field is a UsageError. */
function readArgs(argv: string[]) {
  const parse = () => {
    try {
      return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      // node's first sentence; what follows is advice on positionals.
      throw new UsageError((error as Error).message.split(/\.\s/)[0]);
    }
  };
  const { values, positionals } = parse();
  const [command, ...rest] = positionals;
  if (command !== 'create') throw new UsageError(command ? `Unknown command '${command}'` : 'Name a command');
  if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0]}'`);
  const checked = consoleAdminSchema.safeParse(values);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new UsageError(`--${String(issue.path[0])}: ${issue.message}`);
  }
  return checked.data;
}

/**
 * The database the servers use: PostgreSQL (DATABASE_URL), or the embedded one in DATA_DIR, through the running
 * server's socket while a server holds DATA_DIR, else opened here under DATA_DIR's lock.
 */
async function openServersDatabase(config: ReturnType<typeof readConfig>): Promise<Database> {
  if (config.databaseUrl)
    return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, mustExist: true });
  // Nothing is made in a DATA_DIR that holds no database (a mistyped one): no lock, no key file, no tables.
  if (!hasEmbeddedDatabase(config.dataDir)) throw noTierdeskDatabase(config.dataDir);
  try {
    const lock = lockDataDir(config.dataDir);
    process.once('exit', () => lock.release());
  } catch (error) {
    if (error instanceof DataDirInUseError) return openRunningEmbedded(config.dataDir);
    throw error;
  }
  return openDatabase({ dataDir: config.dataDir, mustExist: true });
}

async function main() {
  const input = readArgs(process.argv.slice(2));
  const config = readConfig();
  // Hashed before the database is opened: on a running embedded server the command holds its one session, and
  // the server's requests wait for it.
  const { password, passwordHash } = await newOneTimePassword();
  const database = await openServersDatabase(config);
  try {
    // Another key than the servers' is refused as reconcile refuses it (data-key-check.ts), before anything is written.
    const keys = loadServerKeys(config);
    await checkDataKey(database.db, keys, { record: false });
    const record = auditRecorder(CONSOLE, null, 'user.create', 'user');
    const fromConsole: AuditRecorder = (tx, change) =>
      record(tx, { ...change, after: { ...change.after, source: 'created from the server console' } });
    await inTransaction(database.db, (tx) =>
      createAdmin(
        tx,
        {
          name: input.name,
          userName: input.userName,
          email: input.email ?? null,
          mobile: input.mobile ?? null,
          districtId: null,
          tehsilId: null,
        },
        passwordHash,
        fromConsole,
      ),
    );
    console.log(`Admin ${input.name} (${input.userName}) created.`);
    console.log('At the first sign-in it chooses its own password. Hand this one over in person:');
    console.log(`one-time password: ${password}`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\nUsage: ${USAGE}`);
    process.exit(2);
  }
  if (error instanceof SetupError || error instanceof HttpError) console.error(error.message);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
