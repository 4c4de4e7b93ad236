import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/open';
import { storedFileChunks, storedFiles } from '../../db/schema';

/**
 * Files in the database (issue 46: applications' pictures and documents; issue 51: import files), so that any
 * server sharing it reads a file another one took: a `stored_files` row (type, size) and the bytes in
 * `stored_file_chunks`, written and read one chunk at a time. A table rather than large objects: the same SQL on
 * PGlite and PostgreSQL, and a file's bytes go with its row (no orphaned large object to clean up, nothing beside
 * the tables for pg_dump or a replica to carry).
 */

/** The most bytes one `stored_file_chunks` row holds: a 5 MB document is 20 rows. */
export const FILE_CHUNK_BYTES = 256 * 1024;

/** A new random name for a stored file (32 hex digits). */
export const newFileId = () => randomBytes(16).toString('hex');

/**
 * Claims `id` for a file of `size` bytes (its `stored_files` row), without its bytes yet: `writeFileBytes` adds
 * them. False when a file with that id is stored already (it is left as it is).
 */
export async function claimFile(
  q: Queryable,
  file: { id: string; contentType: string; size: number },
): Promise<boolean> {
  const claimed = await q
    .insert(storedFiles)
    .values({ id: file.id, contentType: file.contentType, size: file.size })
    .onConflictDoNothing()
    .returning({ id: storedFiles.id });
  return claimed.length > 0;
}

/**
 * Copies the file at `source` into the claimed file `id`, a chunk at a time: one statement a chunk, in the
 * caller's transaction when `q` is one. Throws when the file does not hold the claimed `size` bytes, so a file
 * that changed while it was read is never stored cut short.
 */
export async function writeFileBytes(q: Queryable, file: { id: string; source: string; size: number }) {
  let written = 0;
  let seq = 0;
  // The stream reads ahead at most one chunk while the previous one is being inserted.
  for await (const chunk of fs.createReadStream(file.source, { highWaterMark: FILE_CHUNK_BYTES })) {
    const bytes = chunk as Buffer;
    written += bytes.length;
    if (written > file.size) break;
    await q.insert(storedFileChunks).values({ fileId: file.id, seq: seq++, bytes });
  }
  if (written !== file.size)
    throw new Error(`${file.source} changed while it was stored: ${written} bytes, not ${file.size}`);
}

/**
 * Stores the file at `source` (`size` bytes) under `id`, in the caller's transaction. False when a file with that
 * id is stored already (it is left as it is).
 */
export async function writeFile(
  q: Queryable,
  file: { id: string; source: string; contentType: string; size: number },
): Promise<boolean> {
  if (!(await claimFile(q, file))) return false;
  await writeFileBytes(q, file);
  return true;
}

/**
 * Stores a received file (a temporary file of this request) under a new random name, in the caller's
 * transaction, and returns that name: the row written in the same transaction points at it.
 */
export async function storeFile(
  q: Queryable,
  file: { source: string; contentType: string; size: number },
): Promise<string> {
  const id = newFileId();
  if (!(await writeFile(q, { ...file, id }))) throw new Error(`stored file ${id} exists already`);
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
 * statement a chunk, on whichever pooled connection is free), so a slow reader holds one chunk, never the file
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
