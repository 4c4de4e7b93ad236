import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { readConfig, SetupError } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { loadDataKey } from '../../src/server/security/personal-data';
import { freePort } from '../free-port';

/** What a refusal of the set-up must be: a SetupError (printed alone by the commands) with this message. */
async function expectSetupError(work: () => unknown, message: string) {
  let caught: unknown;
  try {
    await work();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SetupError);
  expect((caught as Error).message).toBe(message);
}

describe('settings an operator gets wrong', () => {
  it('takes a port from 0 to 65535 and a session length above zero', () => {
    expect(readConfig({}).port).toBe(3000);
    expect(readConfig({ PORT: '0' }).port).toBe(0);
    expect(readConfig({ PORT: '8080' }).port).toBe(8080);
    expect(readConfig({ PORT: '65535' }).port).toBe(65535);
    expect(readConfig({}).sessionTtlHours).toBe(12);
    expect(readConfig({ SESSION_TTL_HOURS: '0.5' }).sessionTtlHours).toBe(0.5);
  });

  it.each(['abc', '-1', '65536', '80.5', '3000x'])('refuses PORT=%s', async (port) => {
    await expectSetupError(
      () => readConfig({ PORT: port }),
      `PORT must be a whole number from 0 to 65535, got "${port}"`,
    );
  });

  it.each(['abc', '0', '-2'])('refuses SESSION_TTL_HOURS=%s', async (hours) => {
    await expectSetupError(
      () => readConfig({ SESSION_TTL_HOURS: hours }),
      `SESSION_TTL_HOURS must be a number above 0, got "${hours}"`,
    );
  });

  it("takes LOG_LEVEL from pino's levels and DEMO_DATA as 1 or 0", async () => {
    expect(readConfig({}).logLevel).toBe('info');
    expect(readConfig({ LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(readConfig({ DEMO_DATA: '0', PROVIDER_MODE: 'http' }).demoData).toBe(false);
    expect(readConfig({}).demoData).toBe(true);
    await expectSetupError(
      () => readConfig({ LOG_LEVEL: 'loud' }),
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
    // "yes" quietly meant no demo data.
    await expectSetupError(() => readConfig({ DEMO_DATA: 'yes' }), 'DEMO_DATA must be 1 or 0, got "yes"');
  });

  it('refuses DEMO_DATA=0 without a PROVIDER_MODE, and takes either mode when one is chosen', async () => {
    const refusal =
      'PROVIDER_MODE must be set when DEMO_DATA=0: choose http for a real network, or sandbox to try Tierdesk';
    await expectSetupError(() => readConfig({ DEMO_DATA: '0' }), refusal);
    await expectSetupError(() => readConfig({ DEMO_DATA: '0', PROVIDER_MODE: '' }), refusal);
    expect(readConfig({ DEMO_DATA: '0', PROVIDER_MODE: 'sandbox' }).providerMode).toBe('sandbox');
    expect(readConfig({ DEMO_DATA: '0', PROVIDER_MODE: 'http' }).providerMode).toBe('http');
    // The demo start keeps the sandbox by default.
    expect(readConfig({}).providerMode).toBe('sandbox');
    expect(readConfig({ DEMO_DATA: '1' }).providerMode).toBe('sandbox');
  });

  it('refuses a DATA_KEY that is not 32 bytes', async () => {
    await expectSetupError(
      () => loadDataKey('xyz', '/nowhere'),
      'DATA_KEY must be 32 bytes, as 64 hex characters or base64',
    );
  });

  it('refuses the other bad settings as set-up errors too', async () => {
    await expectSetupError(
      () => readConfig({ PROVIDER_MODE: 'soap' }),
      'PROVIDER_MODE must be sandbox or http, got "soap"',
    );
    await expectSetupError(
      () => readConfig({ PROVIDER_TIMEOUT_MS: '-5' }),
      'PROVIDER_TIMEOUT_MS must be a non-negative number, got "-5"',
    );
  });
});

describe('a database that is not there', () => {
  it('names a PostgreSQL server nobody answers on, without the password in DATABASE_URL', async () => {
    const port = await freePort();
    await expectSetupError(
      () =>
        openDatabase({ databaseUrl: `postgres://tierdesk:secret@127.0.0.1:${port}/tierdesk`, dataDir: '' }),
      `Cannot reach the PostgreSQL database of DATABASE_URL (127.0.0.1:${port}/tierdesk): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  // On the engine the suite runs on: an empty database on the PostgreSQL server of DATABASE_URL, or an empty
  // DATA_DIR for the embedded one.
  it('is refused, not created, where a command asks for one that exists (mustExist)', async () => {
    const serverUrl = process.env.DATABASE_URL;
    if (serverUrl) {
      const name = `tierdesk_empty_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      try {
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        await expectSetupError(
          () => openDatabase({ databaseUrl: url.toString(), dataDir: '', mustExist: true }),
          `The database ${url.host}/${name} holds no Tierdesk database: set DATA_DIR to the server's data directory, or DATABASE_URL to its database`,
        );
        const probe = new pg.Client({ connectionString: url.toString() });
        await probe.connect();
        const { rows } = await probe.query(
          `select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`,
        );
        await probe.end();
        expect(rows[0].n).toBe(0);
        // Once a server has run on it (migrated), the same call opens it.
        await (await openDatabase({ databaseUrl: url.toString(), dataDir: '' })).close();
        await (await openDatabase({ databaseUrl: url.toString(), dataDir: '', mustExist: true })).close();
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    } else {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-empty-'));
      try {
        await expectSetupError(
          () => openDatabase({ dataDir, mustExist: true }),
          `${dataDir} holds no Tierdesk database: set DATA_DIR to the server's data directory, or DATABASE_URL to its database`,
        );
        expect(fs.readdirSync(dataDir)).toEqual([]);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
});
