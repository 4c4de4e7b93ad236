// Applications' files in the database (issue 46): taken by one server and served by another with its own DATA_DIR,
// streamed in chunks both ways, all or nothing with the application, and what older versions kept in
// DATA_DIR/uploads brought in at start. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/db/open';
import { FILE_CHUNK_BYTES } from '../../src/server/modules/files/index';
import { bringInUploads, uploadsAtStartLines } from '../../src/server/modules/leads/index';
import { applicationSections, PDF, type Place, PNG } from './application';
import { ADMIN, login, makeTestContext, type TestContext, WEBHOOK_SECRET, XSRF } from './helpers';

const MB = 1024 * 1024;
let ipCounter = 0;
const freshIp = () => `10.46.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function placeOf(app: FastifyInstance): Promise<Place> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/tehsil/fetch?limit=1' });
  const tehsil = res.json().result.tehsil[0];
  return { stateId: tehsil.stateId._id, districtId: tehsil.districtId._id, tehsilId: tehsil._id };
}

/** One application through the public form, as the browser's FormData sends it, with these files. */
async function apply(app: FastifyInstance, place: Place, files: { picture: Buffer; document: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(applicationSections(place)))
    form.append(name, JSON.stringify(value));
  form.append('leadType', 'RETAILER');
  form.append('picture', new Blob([new Uint8Array(files.picture)], { type: 'image/png' }), 'me.png');
  form.append('document', new Blob([new Uint8Array(files.document)], { type: 'application/pdf' }), 'पैन.pdf');
  const request = new Request('http://x/', { method: 'POST', body: form });
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/leads/create',
    remoteAddress: freshIp(),
    headers: {
      'content-type': request.headers.get('content-type')!,
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: res.statusCode, body: res.json() };
}

const download = (app: FastifyInstance, token: string, leadId: string, field: 'picture' | 'document') =>
  app.inject({
    method: 'GET',
    url: `/api/v1/leads/${leadId}/${field}`,
    headers: { 'x-auth-token': `bearer ${token}` },
  });

const uploadsOf = (ctx: TestContext) => path.join(ctx.config.dataDir, 'uploads');
const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/** Rows of every table that holds a file or an application. */
async function counts(ctx: TestContext) {
  const { rows } = await ctx.database.pool.query<{ leads: number; files: number; chunks: number }>(
    `select (select count(*) from leads)::int as leads, (select count(*) from stored_files)::int as files,
      (select count(*) from stored_file_chunks)::int as chunks`,
  );
  return rows[0];
}

/**
 * A second server on the same database with a DATA_DIR of its own, as in a fleet: its own pool when the database
 * is a PostgreSQL server, the same one for PGlite in memory (nothing else can reach it).
 */
async function secondServer(ctx: TestContext) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-second-'));
  const url = ctx.config.databaseUrl;
  const own = url && url !== 'memory://' ? await openDatabase({ databaseUrl: url, dataDir }) : undefined;
  const app = await buildApp({
    config: { ...ctx.config, dataDir },
    db: (own ?? ctx.database).db,
    cipher: ctx.cipher,
    ledgerKey: ctx.ledgerKey,
    webhookSecret: WEBHOOK_SECRET,
    logger: false,
  });
  await app.ready();
  return {
    app,
    dataDir,
    async close() {
      await app.close();
      await own?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('files taken by one server, served by another', () => {
  let ctx: TestContext;
  let second: Awaited<ReturnType<typeof secondServer>>;
  let admin: string;
  let place: Place;

  beforeAll(async () => {
    ctx = await makeTestContext();
    second = await secondServer(ctx);
    admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
    place = await placeOf(ctx.app);
  });
  afterAll(async () => {
    await second?.close();
    await ctx?.close();
  });

  it('serves every byte of a 5 MB document and its picture from the other server, in 256 KB chunks', async () => {
    // A document of exactly the cap, and a picture of several chunks with a part-filled last one.
    const document = Buffer.concat([PDF, randomBytes(5 * MB - PDF.length)]);
    const picture = Buffer.concat([PNG, randomBytes(3 * FILE_CHUNK_BYTES + 1000)]);
    const created = await apply(ctx.app, place, { picture, document });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.result._id as string;
    // Nothing of it is on the first server's disk (not even its uploads directory) once it has answered.
    expect(filesIn(uploadsOf(ctx))).toEqual([]);
    fs.rmSync(uploadsOf(ctx), { recursive: true, force: true });
    expect(filesIn(path.join(second.dataDir, 'uploads'))).toEqual([]);

    for (const [field, bytes, type] of [
      ['picture', picture, 'image/png'],
      ['document', document, 'application/pdf'],
    ] as const) {
      const res = await download(second.app, admin, id, field);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-length']).toBe(String(bytes.length));
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.length).toBe(bytes.length);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    }
    const document2 = await download(second.app, admin, id, 'document');
    expect(
      decodeURIComponent(
        /filename\*=UTF-8''(.+)$/.exec(String(document2.headers['content-disposition']))![1],
      ),
    ).toBe('पैन.pdf');

    // Stored as rows of at most 256 KB, numbered from 0: 20 for the document.
    const { rows: chunks } = await ctx.database.pool.query<{ seq: number; size: number }>(
      `select c.seq, length(c.bytes) as size from stored_file_chunks c
        join leads l on l.document_file = c.file_id where l.id = $1 order by c.seq`,
      [id],
    );
    expect(chunks.map((c) => c.seq)).toEqual([...Array(20).keys()]);
    expect(chunks.every((c) => c.size === FILE_CHUNK_BYTES)).toBe(true);
  }, 60_000);

  it('answers 404 for an application that is not there (a missing file: below, with older files)', async () => {
    const missing = await download(second.app, admin, '00000000-0000-4000-8000-000000000000', 'picture');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Application not found' });
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('refuses a file over its cap with its message, and stores nothing', async () => {
    const before = await counts(ctx);
    const tooBig = await apply(ctx.app, place, {
      picture: PNG,
      document: Buffer.concat([PDF, Buffer.alloc(5 * MB - PDF.length + 1)]),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('Document must be at most 5 MB');
    const bigPicture = await apply(ctx.app, place, {
      picture: Buffer.concat([PNG, Buffer.alloc(2 * MB - PNG.length + 1)]),
      document: PDF,
    });
    expect(bigPicture.status).toBe(413);
    expect(bigPicture.body.message).toBe('Picture must be at most 2 MB');
    expect(await counts(ctx)).toEqual(before);
    expect(filesIn(uploadsOf(ctx))).toEqual([]);
  });

  it('stores no file of an application whose transaction fails after its files were written', async () => {
    const before = await counts(ctx);
    // The application's last write (its audit row) fails: its files were stored in the same transaction.
    await ctx.database.pool.query(`create function refuse_lead_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused by the test'; end $$`);
    await ctx.database.pool.query(`create trigger refuse_lead_audit before insert on audit_log for each row
      when (new.action = 'lead.create') execute function refuse_lead_audit()`);
    try {
      const failed = await apply(ctx.app, place, {
        picture: Buffer.concat([PNG, randomBytes(FILE_CHUNK_BYTES)]),
        document: PDF,
      });
      expect(failed.status).toBe(500);
      expect(failed.body.message).toBe('Something went wrong on our side. Please try again.');
    } finally {
      await ctx.database.pool.query('drop trigger refuse_lead_audit on audit_log');
      await ctx.database.pool.query('drop function refuse_lead_audit()');
    }
    expect(await counts(ctx)).toEqual(before);
    expect(filesIn(uploadsOf(ctx))).toEqual([]);
    // The same application goes through once the database takes it.
    expect((await apply(ctx.app, place, { picture: PNG, document: PDF })).status).toBe(200);
    expect(await counts(ctx)).toEqual({
      leads: before.leads + 1,
      files: before.files + 2,
      chunks: before.chunks + 2,
    });
  });

  it('never lets an application point at a file that is not stored', async () => {
    const [lead] = (await ctx.database.pool.query('select * from leads limit 1')).rows;
    await expect(
      ctx.database.pool.query(
        `insert into leads (lead_type, applicant_name, establishment_name, mobile, state_id, district_id, tehsil_id,
          sections, aadhar_cipher, aadhar_hash, aadhar_last4, picture_file, picture_mime, picture_size,
          document_file, document_mime, document_size, document_name)
          values ('RETAILER', 'x', 'x', '9000000000', $1, $2, $3, '{}', 'x', 'x', '0000', $4, 'image/png', 1,
            'no-such-file', 'application/pdf', 1, 'x.pdf')`,
        [lead.state_id, lead.district_id, lead.tehsil_id, lead.picture_file],
      ),
    ).rejects.toMatchObject({ code: '23503' });
  });
});

describe('files an older version kept in DATA_DIR/uploads', () => {
  let ctx: TestContext;
  let admin: string;

  beforeAll(async () => {
    ctx = await makeTestContext();
    admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('are brought into the database at start, once; a missing one is reported, not fatal', async () => {
    const q = (text: string, values: unknown[] = []) => ctx.database.pool.query(text, values);
    const place = await placeOf(ctx.app);
    // The database as migration 0024 left it, with applications whose files are in DATA_DIR/uploads; then the
    // migration that keeps files in the database, as written, over those rows.
    const migrationFile = fs.readdirSync(MIGRATIONS_DIR).find((name) => name.endsWith('_stored_files.sql'))!;
    await q(`alter table leads drop constraint leads_picture_file_stored_files_id_fk,
      drop constraint leads_document_file_stored_files_id_fk`);
    // Import jobs point at the store since a later migration (import files): undone here, put back after.
    await q('alter table import_jobs drop constraint import_jobs_file_id_stored_files_id_fk');
    await q('drop table stored_file_chunks, stored_files');
    const dir = uploadsOf(ctx);
    fs.mkdirSync(dir, { recursive: true });
    const name = () => randomBytes(16).toString('hex');
    const old = {
      picture: { name: name(), bytes: Buffer.concat([PNG, randomBytes(FILE_CHUNK_BYTES + 5)]) },
      document: { name: name(), bytes: Buffer.concat([PDF, randomBytes(2 * FILE_CHUNK_BYTES)]) },
      // The second application's picture cannot be read (a directory by its name); its document was lost.
      unreadable: name(),
      lost: { name: name(), bytes: PDF },
    };
    fs.writeFileSync(path.join(dir, old.picture.name), old.picture.bytes);
    fs.writeFileSync(path.join(dir, old.document.name), old.document.bytes);
    fs.mkdirSync(path.join(dir, old.unreadable));
    // What a crash of an older version left: an unfinished upload, a file no application refers to.
    fs.writeFileSync(path.join(dir, `upload-${name()}`), 'half an upload');
    fs.writeFileSync(path.join(dir, name()), 'stored just before a crash undid its row');
    const insertLead = async (files: { picture: string; document: string }, size: number) =>
      (
        await q(
          `insert into leads (lead_type, applicant_name, establishment_name, mobile, state_id, district_id, tehsil_id,
            sections, aadhar_cipher, aadhar_hash, aadhar_last4, picture_file, picture_mime, picture_size,
            document_file, document_mime, document_size, document_name)
            values ('RETAILER', 'Old applicant', 'Old shop', '9000000000', $1, $2, $3, '{}', 'x', 'x', '0000', $4,
              'image/png', $5, $6, 'application/pdf', $5, 'old.pdf') returning id`,
          [place.stateId, place.districtId, place.tehsilId, files.picture, size, files.document],
        )
      ).rows[0].id as string;
    const first = await insertLead({ picture: old.picture.name, document: old.document.name }, 1);
    const second = await insertLead({ picture: old.unreadable, document: old.lost.name }, 1);
    for (const statement of fs
      .readFileSync(path.join(MIGRATIONS_DIR, migrationFile), 'utf8')
      .split('--> statement-breakpoint'))
      await q(statement);
    await q(`alter table import_jobs add constraint import_jobs_file_id_stored_files_id_fk
      foreign key (file_id) references stored_files (id)`);

    const result = await bringInUploads(ctx.database.db, dir);
    expect(result).toEqual({
      broughtIn: 2,
      leftovers: 2,
      missing: [{ leadId: second, field: 'document', name: old.lost.name }],
      failed: [{ name: old.unreadable, reason: expect.stringContaining('EISDIR') }],
    });
    // The copies were removed; what could not be read stays, to be tried again.
    expect(filesIn(dir)).toEqual([old.unreadable]);
    const lines = uploadsAtStartLines(result, dir);
    expect(lines.info).toEqual([
      `Brought 2 application file(s) from ${dir} into the database; the copies there were removed.`,
      'Removed 2 unfinished upload(s) left by an earlier run.',
    ]);
    expect(lines.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Could not bring ${path.join(dir, old.unreadable)} into the database \\(kept there, tried again at the next start\\): .*EISDIR`,
        ),
      ),
      `1 application file(s) are neither in the database nor in ${dir} (answered 404 until the server whose DATA_DIR holds them starts): lead ${second} document ${old.lost.name}`,
    ]);

    for (const [field, file, type] of [
      ['picture', old.picture, 'image/png'],
      ['document', old.document, 'application/pdf'],
    ] as const) {
      const res = await download(ctx.app, admin, first, field);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-length']).toBe(String(file.bytes.length));
      expect(res.rawPayload.equals(file.bytes)).toBe(true);
    }
    for (const field of ['picture', 'document'] as const) {
      const res = await download(ctx.app, admin, second, field);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'File not found' });
    }

    // Once: the next start copies nothing again.
    const stored = (await q('select id, size from stored_files order by id')).rows;
    expect(stored).toHaveLength(2);
    expect(await bringInUploads(ctx.database.db, dir)).toMatchObject({ broughtIn: 0, leftovers: 0 });
    expect((await q('select id, size from stored_files order by id')).rows).toEqual(stored);

    // The files turn up (put back from a backup, or the server that held them starts): brought in, then served.
    fs.rmdirSync(path.join(dir, old.unreadable));
    fs.writeFileSync(path.join(dir, old.unreadable), PNG);
    fs.writeFileSync(path.join(dir, old.lost.name), old.lost.bytes);
    expect(await bringInUploads(ctx.database.db, dir)).toEqual({
      broughtIn: 2,
      leftovers: 0,
      missing: [],
      failed: [],
    });
    expect(filesIn(dir)).toEqual([]);
    expect((await download(ctx.app, admin, second, 'picture')).rawPayload.equals(PNG)).toBe(true);
    expect((await download(ctx.app, admin, second, 'document')).rawPayload.equals(PDF)).toBe(true);
  });
});
