// A database of its own on a PostgreSQL server, for a suite, test or bench that must not share one: created empty,
// and dropped (its connections ended) when the caller is done with it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ThrowAwayDatabase {
  name: string;
  /** The server's URL with this database in its path. */
  url: string;
  drop(): Promise<void>;
}

/** Creates `<prefix>_<random>` on the server at `serverUrl` (a role that may create databases). */
export async function throwAwayDatabase(serverUrl: string, prefix = 'tierdesk'): Promise<ThrowAwayDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

async function onServer(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
