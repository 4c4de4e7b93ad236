import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/open';
import { storedFileChunks, storedFiles } from '../../db/schema';
import { inTransaction } from '../../db/transaction';

/**
 * Applications' files in the database (issue 46), so that any server sharing it serves a file another one took:
 * a `stored_files` row (type, size) and the bytes in `stored_file_chunks`, written and read one chunk at a time.
 * A table rather than large objects: the same SQL on PGlite and PostgreSQL, and a file's bytes go with its row
 * (no orphaned large object to clean up, nothing beside the tables for pg_dump or a replica to carry).
 */

/** The most bytes one `stored_file_chunks` row holds: a 5 MB document is 20 rows. */
export const FILE_CHUNK_BYTES = 256 * 1024;

/**
 * Copies the file at `source` (`size` bytes) into the database under `id`, a chunk at a time, in the caller's
 * transaction. False when a file with that id is stored already (it is left as it is). Throws when the file does
 * not hold `size` bytes, so a file that changed while it was read is never stored cut short.
 */
async function writeFile(
  tx: Tx,
  file: { id: string; source: string; contentType: string; size: number },
): Promise<boolean> {
  const claimed = await tx
    .insert(storedFiles)
    .values({ id: file.id, contentType: file.contentType, size: file.size })
    .onConflictDoNothing()
    .returning({ id: storedFiles.id });
  if (claimed.length === 0) return false;
  let written = 0;
  let seq = 0;
  // The stream reads ahead at most one chunk while the previous one is being inserted.
  for await (const chunk of fs.createReadStream(file.source, { highWaterMark: FILE_CHUNK_BYTES })) {
    const bytes = chunk as Buffer;
    written += bytes.length;
    if (written > file.size) break;
    await tx.insert(storedFileChunks).values({ fileId: file.id, seq: seq++, bytes });
  }
  if (written !== file.size)
    throw new Error(`${file.source} changed while it was stored: ${written} bytes, not ${file.size}`);
  return true;
}

/**
 * Stores a received file (a temporary file of this request) under a new random name, in the caller's
 * transaction, and returns that name: the application's row written in the same transaction points at it.
 */
export async function storeFile(
  tx: Tx,
  file: { source: string; contentType: string; size: number },
): Promise<string> {
  const id = randomBytes(16).toString('hex');
  if (!(await writeFile(tx, { ...file, id }))) throw new Error(`stored file ${id} exists already`);
  return id;
}

/** A stored file's type and size; undefined when no file has that id. */
export async function storedFile(q: Queryable, id: string) {
  const [row] = await q
    .select({ id: storedFiles.id, contentType: storedFiles.contentType, size: storedFiles.size })
    .from(storedFiles)
    .where(eq(storedFiles.id, id));
  return row;
}

/**
 * A stored file's bytes as a stream: each chunk is read from the database when the reader asks for it (one
 * statement a chunk, on whichever pooled connection is free), so a slow download holds one chunk, never the file
 * or a connection. A chunk missing before `size` bytes fails the stream.
 */
export function readStoredFile(q: Queryable, file: { id: string; size: number }): Readable {
  async function* chunks() {
    let sent = 0;
    for (let seq = 0; sent < file.size; seq++) {
      const [row] = await q
        .select({ bytes: storedFileChunks.bytes })
        .from(storedFileChunks)
        .where(and(eq(storedFileChunks.fileId, file.id), eq(storedFileChunks.seq, seq)));
      if (!row) throw new Error(`stored file ${file.id} ends after ${sent} of its ${file.size} bytes`);
      sent += row.bytes.length;
      yield row.bytes;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** A file an application names that is neither in the database nor in the uploads directory. */
export interface MissingUpload {
  leadId: string;
  field: 'picture' | 'document';
  name: string;
}

export interface UploadsAtStart {
  /** Files of older applications copied from the uploads directory into the database by this start. */
  broughtIn: number;
  /** What earlier runs left in the directory: unfinished uploads, and files no application refers to. */
  leftovers: number;
  missing: MissingUpload[];
  /** Files that could not be brought in (left in the directory, tried again at the next start), and why. */
  failed: { name: string; reason: string }[];
}

/**
 * Run at start, once this server holds DATA_DIR and before anyone applies; the uploads directory is then only
 * this server's temporary files of requests being received.
 *
 * - Files of applications received before files were kept in the database (up to migration 0023, in
 *   `uploadsDir` under the name the application's row holds) are copied into the database under that name, each
 *   file in its own transaction. A file already there (an earlier start, another server) is not copied again.
 * - Then the directory is emptied of everything but the files that could not be copied: the copied ones (the
 *   database has them), unfinished uploads of a server that crashed, and files no application refers to.
 * - A file an application names that is in neither place is reported in `missing`, not fatal: its route answers
 *   404 until the server whose DATA_DIR holds it starts.
 */
export async function bringInUploads(db: Queryable, uploadsDir: string): Promise<UploadsAtStart> {
  const { rows: wanted } = await db.execute<{
    lead_id: string;
    field: MissingUpload['field'];
    name: string;
    content_type: string;
  }>(sql`
    select l.id as lead_id, f.field, f.name, f.content_type
    from leads l
    cross join lateral (values ('picture', l.picture_file, l.picture_mime),
      ('document', l.document_file, l.document_mime)) as f (field, name, content_type)
    where not exists (select 1 from stored_files s where s.id = f.name)
    order by l.created_at, l.id, f.field desc`);
  let names: string[];
  try {
    names = await fs.promises.readdir(uploadsDir);
  } catch {
    names = [];
  }
  const present = new Set(names);
  const result: UploadsAtStart = { broughtIn: 0, leftovers: 0, missing: [], failed: [] };
  const brought = new Set<string>();
  const kept = new Set<string>();
  for (const file of wanted) {
    // Names the server wrote itself (hex digits); anything else is not a file of this directory.
    if (!/^[0-9a-f]+$/.test(file.name) || !present.has(file.name)) {
      result.missing.push({ leadId: file.lead_id, field: file.field, name: file.name });
      continue;
    }
    const source = path.join(uploadsDir, file.name);
    try {
      const { size } = await fs.promises.stat(source);
      const copied = await inTransaction(db, (tx) =>
        writeFile(tx, { id: file.name, source, contentType: file.content_type, size }),
      );
      if (copied) result.broughtIn++;
      brought.add(file.name);
    } catch (error) {
      kept.add(file.name);
      result.failed.push({ name: file.name, reason: (error as Error).message });
    }
  }
  const removable = names.filter((name) => !kept.has(name));
  await Promise.all(removable.map((name) => fs.promises.rm(path.join(uploadsDir, name), { force: true })));
  result.leftovers = removable.filter((name) => !brought.has(name)).length;
  return result;
}

/** What `bringInUploads` did, in lines for the server's start-up output. */
export function uploadsAtStartLines(
  result: UploadsAtStart,
  uploadsDir: string,
): { info: string[]; warnings: string[] } {
  const info: string[] = [];
  const warnings: string[] = [];
  if (result.broughtIn > 0)
    info.push(
      `Brought ${result.broughtIn} application file(s) from ${uploadsDir} into the database; the copies there were removed.`,
    );
  if (result.leftovers > 0)
    info.push(`Removed ${result.leftovers} unfinished upload(s) left by an earlier run.`);
  for (const { name, reason } of result.failed)
    warnings.push(
      `Could not bring ${path.join(uploadsDir, name)} into the database (kept there, tried again at the next start): ${reason}`,
    );
  if (result.missing.length > 0) {
    const shown = result.missing
      .slice(0, 10)
      .map((m) => `lead ${m.leadId} ${m.field} ${m.name}`)
      .join(', ');
    const more = result.missing.length > 10 ? ` and ${result.missing.length - 10} more` : '';
    warnings.push(
      `${result.missing.length} application file(s) are neither in the database nor in ${uploadsDir} (answered 404 until the server whose DATA_DIR holds them starts): ${shown}${more}`,
    );
  }
  return { info, warnings };
}
